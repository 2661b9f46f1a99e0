import { runErrorText } from '../../../../layers/action-label/action-label.js';
import type { Task } from '../../api/types';
import { CaptureGrid } from '../../components/capture-grid';
import { LogView } from '../../components/log-view';
import { FailureShot, TraceLink } from '../../components/run-debug';
import { ResultData } from '../../components/result-data';
import { Button, ErrorBox, StatusBadge } from '../../components/ui';
import { formatDuration } from '../../lib/format';
import { linkClick } from '../../lib/router';
import type { RunState } from '../../lib/use-run';

/** The live run: status, streamed log, then result data, captures and the error if any. */
export function RunPanel(props: { task: Pick<Task, 'name'>; run: RunState; onCancel: () => void; onClose: () => void }) {
  const { run } = props;
  const active = run.phase === 'starting' || run.phase === 'running';
  const error = run.answer?.result.error;
  return (
    <section class="card run-panel" aria-labelledby="run-title">
      <header class="run-head">
        <h2 id="run-title">Run</h2>
        <div class="run-status" role="status" aria-live="polite">
          {run.phase === 'starting' && 'Starting…'}
          {run.status && <StatusBadge status={run.status} />}
          {run.answer && <span class="muted"> in {formatDuration(run.answer.durationMs)}</span>}
        </div>
        <div class="toolbar">
          {run.executionId && (
            <a class="btn ghost" href={`/executions/${encodeURIComponent(run.executionId)}`} onClick={linkClick}
              title={run.executionId}>Open execution</a>
          )}
          {run.answer && <TraceLink result={run.answer.result} />}
          {active && run.executionId && <Button variant="danger" onClick={props.onCancel}>Cancel run</Button>}
          {!active && <Button variant="ghost" onClick={props.onClose}>Close</Button>}
        </div>
      </header>
      <ErrorBox error={run.error} what="Running tasks" />
      {(run.executionId || run.logs.length > 0) && <LogView lines={run.logs} live={active} label="Live run log" />}
      {error && (
        <div class="error-box" role="alert">
          <strong>Run failed</strong>: {runErrorText(error)}
        </div>
      )}
      {run.answer && <FailureShot result={run.answer.result} />}
      {run.answer && (
        <>
          {(run.answer.result.title || run.answer.result.finalUrl) && (
            <p class="muted">Ended on {run.answer.result.title && <strong>{run.answer.result.title}</strong>} {run.answer.result.finalUrl}</p>
          )}
          <h3>Result data</h3>
          <ResultData data={run.answer.result.data} filename={`${props.task.name || 'task'}-${run.answer.executionId}`} idPrefix="run-result" />
          {run.captures.length > 0 && (
            <>
              <h3>Captures</h3>
              <CaptureGrid captures={run.captures} />
            </>
          )}
        </>
      )}
    </section>
  );
}
