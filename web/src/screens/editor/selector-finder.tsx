import { useState } from 'preact/hooks';
import { actionLabel, actionNumber } from '../../../../layers/action-label/action-label.js';
import { post } from '../../api/client';
import type { SelectorCandidate, Task } from '../../api/types';
import { Modal } from '../../components/dialogs';
import { ErrorBox, TextField } from '../../components/ui';
import { useAction } from '../../lib/use-async';
import { editableFields } from './task-draft';

interface HighlightAnswer { candidates?: SelectorCandidate[]; screenshot?: string }

/** What a finder opens to reach the page before the action at 0-based `actionIndex`, counted from 1. */
function pageBefore(actionIndex: number): string {
  if (actionIndex === 0) return `the task’s URL (the page before ${actionLabel(0)})`;
  const last = actionNumber(actionIndex - 1);
  return `the task’s URL and runs ${last === 1 ? 'action 1' : `actions 1 to ${last}`}`;
}

const imageSrc = (screenshot: string) => (screenshot.startsWith('data:') ? screenshot : `data:image/jpeg;base64,${screenshot}`);

/**
 * "Find selector": the inspector (`POST /api/inspector/highlight`) or the AI generator
 * (`POST /api/tasks/generate-selector`), as the selector-finder setting says.
 */
export function SelectorFinder(props: { open: boolean; finder: 'highlight' | 'ai'; task: Task; actionIndex: number; onUse: (selector: string) => void; onClose: () => void }) {
  const [hint, setHint] = useState('');
  // The last answer and the hint it was for (null before the first search).
  const [found, setFound] = useState<{ hint: string; candidates: SelectorCandidate[] } | null>(null);
  const [screenshot, setScreenshot] = useState<string | undefined>();
  const action = useAction();
  const ai = props.finder === 'ai';
  const where = pageBefore(props.actionIndex);

  const find = async (event: Event) => {
    event.preventDefault();
    setFound(null);
    setScreenshot(undefined);
    const asked = hint.trim();
    // Both finders get the draft as it is (saved or not) and replay the actions before this one.
    const task = editableFields(props.task);
    if (ai) {
      const answer = await action.run(() => post<{ selector: string }>('/api/tasks/generate-selector', { task, actionIndex: props.actionIndex, prompt: asked }));
      if (answer) setFound({ hint: asked, candidates: [{ selector: answer.selector }] });
    } else {
      const answer = await action.run(() => post<HighlightAnswer>('/api/inspector/highlight', { targetHint: asked, task, actionIndex: props.actionIndex }));
      if (answer) {
        setFound({ hint: asked, candidates: answer.candidates ?? [] });
        setScreenshot(answer.screenshot);
      }
    }
  };
  const candidates = found?.candidates ?? [];

  return (
    <Modal title="Find selector" open={props.open} onClose={props.onClose} wide>
      <p class="muted">
        {ai
          ? `The AI generator opens ${where} and asks the configured providers for a selector.`
          : `The inspector opens ${where} in a fresh browser and looks for the element there.`}
        {' '}Change the method under Settings → Selector finder.
      </p>
      <form onSubmit={find} class="inline-form">
        <TextField label={ai ? 'Describe the element' : 'CSS selector, or the element’s text, label or placeholder'}
          value={hint} onValue={setHint} required placeholder={ai ? 'the search box' : 'Sign in'} />
        <button type="submit" class="btn primary" disabled={action.busy || !hint.trim()} aria-busy={action.busy || undefined}>
          {action.busy ? 'Searching…' : 'Find'}
        </button>
      </form>
      <ErrorBox error={action.error} what={ai ? 'The AI selector generator' : 'The inspector'} />
      {found && candidates.length === 0 && (
        <div class="error-box" role="alert">
          <strong>Nothing matched</strong>: no element on the page reached before {actionLabel(props.actionIndex)} matches
          “{found.hint}”. Try a CSS selector, or the element’s exact text, label or placeholder, and check the actions before it.
        </div>
      )}
      {candidates.length > 0 && (
        <ul class="candidates" aria-label="Candidates">
          {candidates.map((c) => (
            <li key={c.selector}>
              <code>{c.selector}</code>
              {c.confidence !== undefined && <span class="muted"> {Math.round(c.confidence * 100)}%</span>}
              {c.tag && <span class="muted"> &lt;{c.tag}&gt; {c.text?.slice(0, 60)}</span>}
              <button type="button" class="btn" onClick={() => { props.onUse(c.selector); props.onClose(); }}>Use</button>
            </li>
          ))}
        </ul>
      )}
      {screenshot && <img class="inspector-shot" src={imageSrc(screenshot)} alt={candidates.length > 0 ? 'The page with the best match outlined' : 'The page the inspector looked at'} />}
    </Modal>
  );
}
