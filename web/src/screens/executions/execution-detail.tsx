import { runErrorText } from '../../../../layers/action-label/action-label.js';
import { useState } from 'preact/hooks';
import { del, get, query, seg } from '../../api/client';
import type { Capture, Execution } from '../../api/types';
import { CaptureGrid } from '../../components/capture-grid';
import { announce, confirmAction } from '../../components/dialogs';
import { LogView } from '../../components/log-view';
import { ResultData } from '../../components/result-data';
import { Button, ErrorBox, Loading, StatusBadge } from '../../components/ui';
import { formatDate, formatDuration, formatSize } from '../../lib/format';
import { linkClick, navigate } from '../../lib/router';
import { useAction, useAsync } from '../../lib/use-async';
import { useRun } from '../../lib/use-run';
import { RunAgain } from './run-again';
import { AwaitingHumanPanel } from './awaiting-human';
import { DataChecks } from './data-checks';
import { LargeResult } from './large-result';
import { FailureShot, TraceLink } from '../../components/run-debug';
import { RunPanel } from '../editor/run-panel';
import { executionLivePath, LiveView } from '../studio/live-view';

/** The task's editor; for a run that failed at an action, with that action highlighted. */
const taskLink = (e: Execution) => `/tasks/${seg(e.taskId)}${e.result.error?.actionIndex === undefined ? '' : query({ execution: e.executionId })}`;

/** One execution: summary, error (with the page's screenshot), logs, data, captures; re-run it, open its trace. */
export function ExecutionDetail(props: { id: string }) {
  const record = useAsync(() => get<Execution>(`/api/executions/${seg(props.id)}`), [props.id]);
  const captures = useAsync(() => get<Capture[]>(`/api/data/captures${query({ runId: props.id })}`), [props.id]);
  const action = useAction();
  const rerun = useRun();
  const [showRun, setShowRun] = useState(false);

  const remove = async () => {
    if (!(await confirmAction('Delete this execution and its captures?', { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/executions/${seg(props.id)}`))) {
      announce('Execution deleted');
      navigate('/executions');
    }
  };
  const removeCapture = async (capture: Capture) => {
    if (!(await confirmAction(`Delete ${capture.name}?`, { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/data/captures/${seg(capture.name)}`))) captures.set((captures.data ?? []).filter((c) => c.name !== capture.name));
  };

  const e = record.data;
  // Downloads are files, not pictures: listed on their own, under the site's names.
  const shots = (captures.data ?? []).filter((c) => c.type !== 'download');
  const downloads = (captures.data ?? []).filter((c) => c.type === 'download');
  return (
    <section aria-labelledby="page-title">
      <header class="page-header">
        <div>
          <a href="/executions" onClick={linkClick} class="muted">← Executions</a>
          <h1 id="page-title">{e ? e.taskName : 'Execution'}</h1>
        </div>
        {e && <div class="toolbar">
          <TraceLink result={e.result} />
          <RunAgain execution={e} busy={rerun.state.phase === 'starting' || rerun.state.phase === 'running'}
            onRun={(request) => { setShowRun(true); void rerun.start(e.taskId, request); }} />
          <a class="btn ghost" href={taskLink(e)} onClick={linkClick}>Open task</a>
          <Button variant="danger" onClick={() => void remove()}>Delete</Button>
        </div>}
      </header>
      <ErrorBox error={action.error} />
      <ErrorBox error={record.error} onRetry={record.reload} />
      {record.loading && !e && <Loading />}
      {e && showRun && rerun.state.phase !== 'idle' && (
        <RunPanel task={{ name: e.taskName }} run={rerun.state} onCancel={() => void rerun.cancel()} onClose={() => setShowRun(false)} />
      )}
      {e && (
        <>
          <dl class="facts">
            <div><dt>Status</dt><dd><StatusBadge status={e.status} /></dd></div>
            {e.outcome && <div><dt>Outcome</dt><dd><span class={`badge outcome-${e.outcome}`}>{e.outcome}</span></dd></div>}
            <div><dt>Trigger</dt><dd>{e.trigger}</dd></div>
            <div><dt>Started</dt><dd>{formatDate(e.startedAt)}</dd></div>
            <div><dt>Finished</dt><dd>{formatDate(e.finishedAt)}</dd></div>
            <div><dt>Duration</dt><dd>{formatDuration(e.durationMs)}</dd></div>
            <div><dt>Execution id</dt><dd><code>{e.executionId}</code></dd></div>
            {e.result.finalUrl && <div><dt>Final URL</dt><dd class="url">{e.result.finalUrl}</dd></div>}
            {e.result.title && <div><dt>Page title</dt><dd>{e.result.title}</dd></div>}
          </dl>
          {e.status === 'running' && <AwaitingHumanPanel execution={e} onChange={() => record.reload()} />}
          {(e.status === 'queued' || e.status === 'running') && <LiveView path={executionLivePath(e.executionId)} onEnd={() => { record.reload(); captures.reload(); }} />}
          {e.result.error && (
            <div class="error-box" role="alert">
              <strong>Error</strong>: {runErrorText(e.result.error)}
            </div>
          )}
          <FailureShot result={e.result} />
          <DataChecks execution={e} />
          <h2>Result data</h2>
          {e.resultStoredApart ? <LargeResult execution={e} />
            : <ResultData data={e.result.data} filename={`execution-${e.executionId}`} idPrefix="exec-result" />}
          <h2>Logs</h2>
          <LogView lines={e.logs} label="Execution log" />
          <h2>Captures</h2>
          <ErrorBox error={captures.error} onRetry={captures.reload} />
          {captures.data && captures.data.length === 0 && <p class="empty">No captures.</p>}
          {captures.data && captures.data.length > 0 && (
            <p><a class="btn ghost" href={`/api/executions/${seg(e.executionId)}/files.zip`} download>Download all files (ZIP)</a></p>
          )}
          {shots.length > 0 && <CaptureGrid captures={shots} onDelete={(c) => void removeCapture(c)} />}
          {downloads.length > 0 && (
            <>
              <h3>Downloads</h3>
              <ul class="version-list" aria-label="Files the run downloaded">
                {downloads.map((d) => (
                  <li key={d.name}>
                    <div>
                      <a href={d.url} download={d.fileName}><code>{d.fileName}</code></a>
                      <span class="muted"> · {formatSize(d.size)} · {d.contentType}</span>
                    </div>
                    <div class="row-actions">
                      <button type="button" class="btn ghost danger-text" aria-label={`Delete ${d.fileName}`} onClick={() => void removeCapture(d)}>Delete</button>
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
