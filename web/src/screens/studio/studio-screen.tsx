import { useEffect, useRef, useState } from 'preact/hooks';
import { del, post, seg } from '../../api/client';
import type { Action } from '../../api/types';
import { Button, ErrorBox } from '../../components/ui';
import { navigate, useLocation } from '../../lib/router';
import { useAction } from '../../lib/use-async';
import { LiveFrame } from './live-frame';
import type { Box, LiveMessage } from './live-socket';
import { useLiveSocket } from './live-socket';
import { handOff } from './recording-handoff';

type Mode = 'interact' | 'pick' | 'record';
interface Candidate { selector: string; kind: string; confidence: number }
interface Step { action: Action; candidates: Candidate[]; variable?: string; selected?: string }
interface Picked { box: Box; tag: string; text: string; candidates: Candidate[] }
interface SelectPrompt { x: number; y: number; options: Array<{ value: string; label: string }>; value: string }

const MODES: Array<{ id: Mode; label: string }> = [{ id: 'interact', label: 'Use the page' }, { id: 'pick', label: 'Pick an element' }, { id: 'record', label: 'Record' }];

/** A one-line description of a recorded action. */
function describe(action: Action): string {
  if (action.type === 'navigate') return `navigate to ${action.value}`;
  if (action.type === 'press') return `press ${action.key}${action.selector ? ` on ${action.selector}` : ''}`;
  if (action.type === 'type') return `type "${action.value}" into ${action.selector}`;
  if (action.type === 'select') return `choose "${action.value}" in ${action.selector}`;
  if (action.type === 'wait_selector') return `wait for ${action.selector} to appear`;
  if (action.type === 'scroll') return `scroll ${action.value} px`;
  return `${action.type} ${action.selector ?? ''}`;
}

/**
 * The authoring studio: a page opened by URL in the service's browser (headless), shown live; the person uses it
 * (mouse and keys go through the DevTools Input domain), picks elements (ranked selectors) or records actions,
 * and opens the recording in the editor as an unsaved draft.
 */
export default function StudioScreen() {
  const { params } = useLocation();
  const taskId = params.get('task') ?? undefined;
  const [url, setUrl] = useState(params.get('url') ?? 'https://');
  const [session, setSession] = useState<string | undefined>();
  const [mode, setMode] = useState<Mode>('interact');
  const [address, setAddress] = useState('');
  const [hover, setHover] = useState<Box | undefined>();
  const [picked, setPicked] = useState<Picked | undefined>();
  const [select, setSelect] = useState<SelectPrompt | undefined>();
  const [steps, setSteps] = useState<Step[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const opening = useAction();

  const { stream, send } = useLiveSocket(session && `/api/studio/sessions/${seg(session)}/live`, (message: LiveMessage) => {
    const m = message as Record<string, any>;
    if (m.type === 'hello' || m.type === 'url') setAddress(m.url);
    else if (m.type === 'mode') setMode(m.mode);
    else if (m.type === 'hover') setHover(m.box ?? undefined);
    else if (m.type === 'picked') setPicked(m.candidates ? (m as Picked) : undefined);
    else if (m.type === 'select') setSelect(m as SelectPrompt);
    else if (m.type === 'recorded') setSteps((all) => { const next = [...all]; next[m.index] = m.step; return typeof m.count === 'number' ? next.slice(0, m.count) : next; });
    else if (m.type === 'error') setProblem(m.message);
  });
  // Handed to the editor, the session stays open: the editor closes it once the task is saved (fingerprints, healing).
  const handedOff = useRef(false);
  useEffect(() => () => { if (session && !handedOff.current) void del(`/api/studio/sessions/${seg(session)}`).catch(() => undefined); }, [session]);

  const open = async () => {
    const answer = await opening.run(() => post<{ sessionId: string; url: string }>('/api/studio/sessions', { url }));
    if (answer) {
      setSteps([]);
      setSession(answer.sessionId);
      setAddress(answer.url);
    }
  };
  const changeMode = (next: Mode) => {
    setMode(next);
    setHover(undefined);
    send({ type: 'mode', mode: next });
  };
  const chooseSelector = (index: number, selector: string) => setSteps((all) => all.map((step, i) => {
    if (i !== index) return step;
    return { ...step, action: { ...step.action, selector }, selected: selector };
  }));
  const toEditor = () => {
    const variables = Object.fromEntries(steps.filter((s) => s.variable).map((s) => [s.variable!, '']));
    handOff({ taskId, url: address || url, actions: steps.map((s) => s.action), variables, ...(session ? { sessionId: session } : {}) });
    handedOff.current = true;
    navigate(taskId ? `/tasks/${seg(taskId)}` : '/tasks/new');
  };
  const onKey = (event: KeyboardEvent) => send({
    type: 'key', key: event.key, code: event.code,
    modifiers: { alt: event.altKey, ctrl: event.ctrlKey, meta: event.metaKey, shift: event.shiftKey },
  });
  const boxes = [
    ...(mode === 'pick' && hover ? [{ box: hover, kind: 'hover' as const }] : []),
    ...(mode === 'pick' && picked ? [{ box: picked.box, kind: 'picked' as const }] : []),
  ];

  return (
    <section aria-labelledby="page-title">
      <header class="page-header"><h1 id="page-title">Studio</h1></header>
      <p class="muted">Open a page, use it, pick elements for their selectors, or record what you do as task actions.</p>
      <form class="toolbar" onSubmit={(e) => { e.preventDefault(); void open(); }}>
        <label for="studio-url">Page URL</label>
        <input id="studio-url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
        <button type="submit" class="btn primary" disabled={opening.busy}>{session ? 'Open again' : 'Open'}</button>
      </form>
      <ErrorBox error={opening.error} />
      {problem && <p class="error-box" role="alert">{problem}</p>}
      {session && (
        <div class="studio">
          <div class="toolbar" role="group" aria-label="Mode">
            {MODES.map((m) => <Button key={m.id} variant={mode === m.id ? 'primary' : 'ghost'} aria-pressed={mode === m.id} onClick={() => changeMode(m.id)}>{m.label}</Button>)}
            <form onSubmit={(e) => { e.preventDefault(); send({ type: 'navigate', url: address }); }}>
              <label for="studio-address" class="visually-hidden">Address</label>
              <input id="studio-address" value={address} onInput={(e) => setAddress(e.currentTarget.value)} size={40} />
            </form>
          </div>
          <LiveFrame stream={stream} label="The studio page" boxes={boxes} onKey={onKey}
            onPointer={(kind, point, event) => {
              if (kind === 'wheel') send({ type: 'mouse', action: 'wheel', ...point, deltaX: (event as WheelEvent).deltaX, deltaY: (event as WheelEvent).deltaY });
              else {
                // A right button stays right; the second press of a double click says so (the page then sees dblclick).
                const { button, detail } = event as MouseEvent;
                send({ type: 'mouse', action: kind, ...point, ...(button === 2 ? { button: 'right' } : {}), ...(detail > 1 && kind !== 'move' ? { clickCount: Math.min(detail, 3) } : {}) });
              }
              if (kind === 'down') (event.currentTarget as HTMLElement | null)?.parentElement?.focus({ preventScroll: true });
            }} />
          {select && (
            <div class="live-panel" role="dialog" aria-label="Choose an option">
              {select.options.map((o) => <Button key={o.value} variant="ghost" onClick={() => { send({ type: 'choose', x: select.x, y: select.y, value: o.value }); setSelect(undefined); }}>{o.label}</Button>)}
              <Button variant="ghost" onClick={() => setSelect(undefined)}>Cancel</Button>
            </div>
          )}
          {picked && mode === 'pick' && (
            <div class="live-panel" aria-labelledby="picked-title">
              <h2 id="picked-title">Picked: {picked.tag}{picked.text && ` “${picked.text}”`}</h2>
              <table><thead><tr><th>Selector</th><th>Kind</th><th>Confidence</th></tr></thead>
                <tbody>{picked.candidates.map((c) => <tr key={c.selector}><td><code>{c.selector}</code></td><td>{c.kind}</td><td>{c.confidence.toFixed(2)}</td></tr>)}</tbody></table>
            </div>
          )}
          <div class="live-panel" aria-labelledby="recorded-title">
            <h2 id="recorded-title">Recorded actions ({steps.length})</h2>
            {steps.length === 0 && <p class="muted">Press Record, then use the page.</p>}
            <ol class="recorded">
              {steps.map((step, index) => (
                <li key={index}>
                  <span>{describe(step.action)}</span>
                  {step.candidates.length > 1 && (
                    <select aria-label={`Selector of action ${index + 1}`} value={step.selected ?? step.candidates[0]?.selector}
                      onChange={(e) => chooseSelector(index, e.currentTarget.value)}>
                      {step.candidates.map((c) => <option key={c.selector} value={c.selector}>{c.selector} ({c.kind}, {c.confidence.toFixed(2)})</option>)}
                    </select>
                  )}
                  {step.variable && <small class="muted"> the password is the variable {`{$${step.variable}}`}</small>}
                </li>
              ))}
            </ol>
            <Button onClick={toEditor} disabled={steps.length === 0}>{taskId ? 'Open in the editor' : 'Open as a new task'}</Button>
          </div>
        </div>
      )}
    </section>
  );
}
