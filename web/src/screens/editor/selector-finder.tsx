import { useState } from 'preact/hooks';
import { actionLabel } from '../../../../kernel/action-label.js';
import { post } from '../../api/client';
import type { SelectorCandidate, Task } from '../../api/types';
import { Modal } from '../../components/dialogs';
import { ErrorBox, TextField } from '../../components/ui';
import { useAction } from '../../lib/use-async';
import { editableFields } from './task-draft';

interface HighlightAnswer { candidates?: SelectorCandidate[]; screenshot?: string }

const imageSrc = (screenshot: string) => (screenshot.startsWith('data:') ? screenshot : `data:image/jpeg;base64,${screenshot}`);

/**
 * "Find selector": the inspector (`POST /api/inspector/highlight`) or the AI generator
 * (`POST /api/tasks/generate-selector`), as the selector-finder setting says.
 */
export function SelectorFinder(props: { open: boolean; finder: 'highlight' | 'ai'; task: Task; actionIndex: number; onUse: (selector: string) => void; onClose: () => void }) {
  const [hint, setHint] = useState('');
  const [candidates, setCandidates] = useState<SelectorCandidate[]>([]);
  const [screenshot, setScreenshot] = useState<string | undefined>();
  const action = useAction();
  const ai = props.finder === 'ai';

  const find = async (event: Event) => {
    event.preventDefault();
    setCandidates([]);
    setScreenshot(undefined);
    if (ai) {
      const task = editableFields(props.task);
      const answer = await action.run(() => post<{ selector: string }>('/api/tasks/generate-selector', { task, actionIndex: props.actionIndex, prompt: hint }));
      if (answer) setCandidates([{ selector: answer.selector }]);
    } else {
      const answer = await action.run(() => post<HighlightAnswer>('/api/inspector/highlight', { targetHint: hint, url: props.task.url || undefined }));
      if (answer) {
        setCandidates(answer.candidates ?? []);
        setScreenshot(answer.screenshot);
      }
    }
  };

  return (
    <Modal title="Find selector" open={props.open} onClose={props.onClose} wide>
      <p class="muted">
        {ai
          ? `The AI generator replays the actions before ${actionLabel(props.actionIndex)} and asks the configured providers for a selector.`
          : 'The inspector looks for the element on the page of the headful session (or opens the task URL).'}
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
      {screenshot && <img class="inspector-shot" src={imageSrc(screenshot)} alt="The page with the best match outlined" />}
    </Modal>
  );
}
