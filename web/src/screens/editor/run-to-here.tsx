import { useRef, useState } from 'preact/hooks';
import { actionLabel, runErrorText } from '../../../../layers/action-label/action-label.js';
import { post } from '../../api/client';
import type { RunToHereAnswer, Task } from '../../api/types';
import { LogView } from '../../components/log-view';
import { ResultData } from '../../components/result-data';
import { LiveView } from '../studio/live-view';
import { Button, ErrorBox, StatusBadge } from '../../components/ui';
import { formatDuration } from '../../lib/format';
import { editableFields } from './task-draft';

export interface RunToHereState {
  actionIndex: number;
  busy: boolean;
  /** The id its live view streams under while it runs. */
  liveId: string;
  answer?: RunToHereAnswer;
  error?: unknown;
}

/** Runs the draft (saved or not) up to an action; Stop closes the request, which ends the run in the service. */
export function useRunToHere() {
  const [state, setState] = useState<RunToHereState | null>(null);
  const running = useRef<AbortController | null>(null);
  const start = async (task: Task, actionIndex: number) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    // Any id of 16 or more letters and digits: this one is random, so no other run to here holds it.
    const liveId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    setState({ actionIndex, busy: true, liveId });
    try {
      const answer = await post<RunToHereAnswer>('/api/tasks/run-to-here', { task: editableFields(task), actionIndex, liveId }, { signal: controller.signal });
      if (running.current === controller) setState({ actionIndex, busy: false, liveId, answer });
    } catch (error) {
      if (running.current !== controller) return;
      const stopped = (error as Error).name === 'AbortError';
      setState({ actionIndex, busy: false, liveId, ...(stopped ? {} : { error }) });
    }
  };
  const stop = () => running.current?.abort();
  const close = () => {
    stop();
    running.current = null;
    setState(null);
  };
  return { state, start, stop, close };
}

/** The page live while "Run to here" runs; then the page, variables, last output and log where it stopped. */
export function RunToHerePanel(props: { state: RunToHereState; onStop: () => void; onClose: () => void }) {
  const { state } = props;
  const { answer } = state;
  return (
    <aside class="card run-to-here" aria-labelledby="run-to-here-title">
      <header class="run-head">
        <h2 id="run-to-here-title">Run to {actionLabel(state.actionIndex)}</h2>
        <div class="run-status" role="status" aria-live="polite">
          {state.busy && 'Running…'}
          {answer && <><StatusBadge status={answer.status} /> <span class="muted">in {formatDuration(answer.durationMs)}</span></>}
          {!state.busy && !answer && !state.error && 'Stopped'}
        </div>
        <div class="toolbar">
          {state.busy
            ? <Button variant="danger" onClick={props.onStop}>Stop</Button>
            : <Button variant="ghost" onClick={props.onClose}>Close</Button>}
        </div>
      </header>
      <ErrorBox error={state.error} what="Run to here" />
      {state.busy && <LiveView path={`/api/tasks/run-to-here/${state.liveId}/live`} />}
      {answer?.error && <div class="error-box" role="alert"><strong>Failed</strong>: {runErrorText(answer.error)}</div>}
      {answer?.screenshot && (
        <figure class="failure-shot">
          <img src={answer.screenshot} alt={`The page after ${actionLabel(state.actionIndex)}`} />
          <figcaption class="muted">{answer.title} {answer.finalUrl}</figcaption>
        </figure>
      )}
      {answer && (
        <>
          <h3>Variables</h3>
          <pre class="code" aria-label="Variables">{JSON.stringify(answer.variables, null, 2)}</pre>
          <h3>Last output</h3>
          {'output' in answer ? <ResultData data={answer.output} filename="run-to-here-output" idPrefix="run-to-here-output" /> : <p class="muted">No action had an output.</p>}
          <h3>Log</h3>
          <LogView lines={answer.logs} label="Run to here log" />
        </>
      )}
    </aside>
  );
}
