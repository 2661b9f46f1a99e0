import { actionLabel, actionNumber } from '../../../../layers/action-label/action-label.js';
import type { Action } from '../../api/types';
import { CheckField, Field } from '../../components/ui';
import { actionSummary, specOf, type FieldSpec } from './action-types';

export interface ActionCardProps {
  action: Action;
  index: number;
  count: number;
  depth: number;
  expanded: boolean;
  /** The error of the run that failed at this action. */
  failure?: string;
  dropHint: 'before' | 'after' | null;
  onToggle: () => void;
  onChange: (action: Action) => void;
  onMove: (to: number) => void;
  onDelete: () => void;
  onFindSelector: () => void;
  /** Runs the task up to this action and shows where it stopped. */
  onRunToHere: () => void;
  onDragStart: (event: DragEvent) => void;
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  onDragEnd: () => void;
}

function FieldInput(props: { spec: FieldSpec; action: Action; onChange: (action: Action) => void; onFindSelector: () => void }) {
  const { spec, action } = props;
  const raw = action[spec.field];
  const value = raw === undefined ? '' : String(raw);
  const set = (text: string) => {
    const next = { ...action };
    if (text === '') delete next[spec.field];
    else if (spec.number) {
      const n = Number(text);
      if (Number.isFinite(n) && n >= 0) next.timeoutMs = Math.round(n);
    } else (next as Record<string, unknown>)[spec.field] = text;
    props.onChange(next);
  };
  return (
    <Field label={spec.label} hint={spec.hint} class={spec.multiline ? 'wide' : undefined}>
      {(id, described) => {
        if (spec.options) {
          return (
            <select id={id} aria-describedby={described} value={value} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
              {spec.options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
            </select>
          );
        }
        if (spec.multiline) {
          return <textarea id={id} aria-describedby={described} class="code" rows={5} spellcheck={false} value={value}
            onInput={(e) => set((e.currentTarget as HTMLTextAreaElement).value)} />;
        }
        const onInput = (e: Event) => set((e.currentTarget as HTMLInputElement).value);
        const input = spec.number
          ? <input id={id} aria-describedby={described} type="number" min={0} value={value} onInput={onInput} />
          : <input id={id} aria-describedby={described} type="text" value={value} spellcheck={false} onInput={onInput} />;
        if (spec.field !== 'selector') return input;
        return (
          <div class="input-with-button">
            {input}
            <button type="button" class="btn ghost" onClick={props.onFindSelector}>Find selector</button>
          </div>
        );
      }}
    </Field>
  );
}

/** One action on the canvas: a header that moves and toggles, and its fields when expanded. */
export function ActionCard(props: ActionCardProps) {
  const { action, index, count } = props;
  const spec = specOf(action.type);
  const position = `${actionLabel(index)} of ${count}`;
  const titleId = `action-title-${action.id}`;
  const onKey = (event: KeyboardEvent) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    props.onMove(index + (event.key === 'ArrowUp' ? -1 : 1));
  };
  return (
    <li class={`action-card ${action.disabled ? 'disabled' : ''} ${props.failure ? 'failed' : ''} ${props.dropHint ? `drop-${props.dropHint}` : ''}`}
      style={{ marginInlineStart: `${props.depth * 1.5}rem` }} data-action-id={action.id} role="group" aria-labelledby={titleId}
      onKeyDown={onKey} onDragOver={props.onDragOver} onDrop={props.onDrop}>
      <div class="action-head">
        <button type="button" class="handle" draggable onDragStart={props.onDragStart} onDragEnd={props.onDragEnd}
          aria-label={`Reorder ${spec.label}, ${position}. Alt+Up or Alt+Down moves it.`} title="Drag, or press Alt+Up / Alt+Down">
          <span aria-hidden="true">⋮⋮</span>
        </button>
        <span class="action-index" aria-hidden="true">{actionNumber(index)}</span>
        <button type="button" class="action-title" id={titleId} aria-expanded={props.expanded} onClick={props.onToggle}
          aria-describedby={props.failure ? `${titleId}-failure` : undefined}>
          <strong>{spec.label}</strong>
          <span class="muted summary">{actionSummary(action) || spec.help}</span>
          {action.disabled && <span class="badge">disabled</span>}
          {props.failure && <span class="badge status-error">failed</span>}
        </button>
        <div class="action-tools">
          <button type="button" class="btn ghost small" aria-label={`Run to here: ${spec.label}, ${position}`} title="Run the task up to this action"
            onClick={props.onRunToHere}>Run to here</button>
          <button type="button" class="btn ghost icon" disabled={index === 0} aria-label={`Move ${spec.label} up`} onClick={() => props.onMove(index - 1)}>↑</button>
          <button type="button" class="btn ghost icon" disabled={index === count - 1} aria-label={`Move ${spec.label} down`} onClick={() => props.onMove(index + 1)}>↓</button>
          <button type="button" class="btn ghost icon danger-text" aria-label={`Delete ${spec.label}, ${position}`} onClick={props.onDelete}>✕</button>
        </div>
      </div>
      {props.failure && <p class="action-failure" id={`${titleId}-failure`}>The last run failed here: {props.failure}</p>}
      {props.expanded && (
        <div class="action-fields">
          {spec.fields.length === 0 && <p class="muted">{spec.help}. No settings.</p>}
          {spec.fields.map((f) => (
            <FieldInput key={f.field} spec={f} action={action} onChange={props.onChange} onFindSelector={props.onFindSelector} />
          ))}
          <CheckField label="Enabled" checked={!action.disabled}
            onChecked={(on) => { const next = { ...action }; if (on) delete next.disabled; else next.disabled = true; props.onChange(next); }} />
        </div>
      )}
    </li>
  );
}
