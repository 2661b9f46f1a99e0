import { useState } from 'preact/hooks';
import { actionLabel } from '../../../../layers/action-label/action-label.js';
import type { Action } from '../../api/types';
import { announce } from '../../components/dialogs';
import { ActionCard } from './action-card';
import type { ActionFailure } from './action-failure';
import { ACTION_TYPES, depths, newActionId, specOf } from './action-types';

export function moveItem<T>(list: T[], from: number, to: number): T[] {
  if (from === to || to < 0 || to >= list.length) return list;
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

const focusLater = (selector: string) => requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus());

/** The ordered actions: add from the palette, reorder by drag or Alt+Up/Down, edit, disable, delete. */
export function ActionList(props: {
  actions: Action[]; onChange: (actions: Action[]) => void; onFindSelector: (index: number) => void; onRunToHere: (index: number) => void;
  failure?: ActionFailure | null;
}) {
  const { actions } = props;
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [dragging, setDragging] = useState<string | null>(null);
  const [drop, setDrop] = useState<{ id: string; where: 'before' | 'after' } | null>(null);
  const levels = depths(actions);

  const move = (from: number, to: number) => {
    if (to < 0 || to >= actions.length || from === to) return;
    const action = actions[from]!;
    props.onChange(moveItem(actions, from, to));
    announce(`${specOf(action.type).label} moved to position ${to + 1} of ${actions.length}`);
    focusLater(`[data-action-id="${action.id}"] .handle`);
  };

  const add = (type: string) => {
    const action: Action = { id: newActionId(), type };
    props.onChange([...actions, action]);
    setExpanded((s) => new Set(s).add(action.id!));
    announce(`${specOf(type).label} added as ${actionLabel(actions.length)}`);
    focusLater(`[data-action-id="${action.id}"] .action-fields input, [data-action-id="${action.id}"] .action-fields textarea, [data-action-id="${action.id}"] .action-fields select`);
  };

  const remove = (index: number) => {
    const action = actions[index]!;
    props.onChange(actions.filter((_, i) => i !== index));
    announce(`${specOf(action.type).label} deleted`);
    const neighbour = actions[index + 1] ?? actions[index - 1];
    focusLater(neighbour ? `[data-action-id="${neighbour.id}"] .handle` : '.palette button');
  };

  const toggle = (id: string) => setExpanded((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });

  const dropAt = (targetId: string, where: 'before' | 'after') => {
    const from = actions.findIndex((a) => a.id === dragging);
    let to = actions.findIndex((a) => a.id === targetId);
    if (from < 0 || to < 0) return;
    if (where === 'after') to += 1;
    if (from < to) to -= 1;
    move(from, to);
  };

  return (
    <section class="actions-section" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions <span class="muted">({actions.length})</span></h2>
      <p class="hint" id="reorder-hint">Reorder by dragging the ⋮⋮ handle, or focus an action and press Alt+↑ or Alt+↓.</p>
      {actions.length === 0 && <p class="empty">No actions yet: the run only loads the URL. Add actions from the palette below.</p>}
      <ol class="action-list" aria-describedby="reorder-hint">
        {actions.map((action, index) => (
          <ActionCard key={action.id} action={action} index={index} count={actions.length} depth={levels[index] ?? 0}
            failure={props.failure?.index === index ? props.failure.message : undefined}
            expanded={expanded.has(action.id!)} dropHint={drop && drop.id === action.id && dragging !== action.id ? drop.where : null}
            onToggle={() => toggle(action.id!)}
            onChange={(next) => props.onChange(actions.map((a, i) => (i === index ? next : a)))}
            onMove={(to) => move(index, to)}
            onDelete={() => remove(index)}
            onFindSelector={() => props.onFindSelector(index)}
            onRunToHere={() => props.onRunToHere(index)}
            onDragStart={(event) => {
              setDragging(action.id!);
              event.dataTransfer?.setData('text/plain', action.id!);
              if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(event) => {
              if (!dragging) return;
              event.preventDefault();
              const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
              const where = event.clientY < box.top + box.height / 2 ? 'before' : 'after';
              if (!drop || drop.id !== action.id || drop.where !== where) setDrop({ id: action.id!, where });
            }}
            onDrop={(event) => {
              event.preventDefault();
              if (drop) dropAt(action.id!, drop.where);
              setDrop(null);
              setDragging(null);
            }}
            onDragEnd={() => { setDrop(null); setDragging(null); }}
          />
        ))}
      </ol>
      <div class="palette" role="group" aria-labelledby="palette-title">
        <h3 id="palette-title">Add an action</h3>
        <div class="palette-grid">
          {ACTION_TYPES.map((spec) => (
            <button key={spec.type} type="button" class="btn palette-item" aria-label={`Add ${spec.label}`} title={spec.help} onClick={() => add(spec.type)}>
              <strong>{spec.label}</strong>
              <small class="muted" aria-hidden="true">{spec.help}</small>
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
