import { useState } from 'preact/hooks';
import type { Task } from '../api/types';
import type { RunRequest } from '../lib/use-run';
import { Modal } from './dialogs';
import { BrowserStatePicker } from './browser-state-picker';
import { CheckField, TextField } from './ui';

const PLACEHOLDER = /\{\$([A-Za-z0-9_][\w.-]*)\}/g;
/** Built-ins the runner fills itself: not asked for. */
const BUILT_IN = (name: string) => name === 'now' || name === 'loop' || name.startsWith('loop.');

/**
 * The variables a run of `task` can be given: the task's own (with their values as defaults), then every other
 * `{$name}` its URL, actions and extraction script use (`{$user.name}` asks for `user`).
 */
export function variablesOf(task: Pick<Task, 'url' | 'actions' | 'variables' | 'extractionScript'>): Array<{ name: string; value: unknown }> {
  const found = new Map<string, unknown>(Object.entries(task.variables ?? {}));
  const texts = [task.url, task.extractionScript, ...task.actions.flatMap((a) => [a.selector, a.value, a.key])];
  for (const text of texts) {
    for (const [, name] of (typeof text === 'string' ? text : '').matchAll(PLACEHOLDER)) {
      if (BUILT_IN(name!) || found.has(name!)) continue;
      const head = name!.split('.')[0]!;
      if (!found.has(head)) found.set(head, '');
    }
  }
  return [...found].map(([name, value]) => ({ name, value }));
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** A field's text as the variable's value: JSON where the default was not text and the text parses, else the text. */
function valueOf(text: string, original: unknown): unknown {
  if (typeof original === 'string' || original === undefined) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** "Run with variables": a form of the task's variables (and whether to record a trace); `onRun` starts the run. */
export function RunVariablesDialog(props: { task: Pick<Task, 'url' | 'actions' | 'variables' | 'extractionScript'>; open: boolean; onClose: () => void; onRun: (request: RunRequest) => void }) {
  const fields = variablesOf(props.task);
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, shown(f.value)])));
  const [trace, setTrace] = useState(false);
  const [browserState, setBrowserState] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const variables = Object.fromEntries(fields.map((f) => [f.name, valueOf(texts[f.name] ?? '', f.value)]));
    props.onRun({ ...(fields.length > 0 ? { variables } : {}), ...(trace ? { trace } : {}), ...(browserState ? { browserState } : {}) });
    props.onClose();
  };
  return (
    <Modal title="Run with variables" open={props.open} onClose={props.onClose}>
      <form onSubmit={submit}>
        {fields.length === 0 && <p class="empty">This task uses no variables.</p>}
        {fields.map((f) => (
          <TextField key={f.name} label={f.name} value={texts[f.name] ?? ''} spellcheck={false}
            onValue={(text) => setTexts((all) => ({ ...all, [f.name]: text }))} />
        ))}
        <CheckField label="Record a Playwright trace of this run" checked={trace} onChecked={setTrace} />
        <BrowserStatePicker label="Browser state" none="The task's own" value={browserState} onValue={setBrowserState}
          hint="Start this run logged in with a saved login instead of the task's choice" />
        <div class="actions-row">
          <button type="button" class="btn ghost" onClick={props.onClose}>Cancel</button>
          <button type="submit" class="btn primary">Run</button>
        </div>
      </form>
    </Modal>
  );
}
