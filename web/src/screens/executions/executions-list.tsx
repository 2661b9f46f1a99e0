import { useState } from 'preact/hooks';
import { del, get, post, query, seg } from '../../api/client';
import { EXECUTION_STATUSES, type Execution } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, Empty, ErrorBox, Loading, PageHeader, SelectField, StatusBadge } from '../../components/ui';
import { formatDate, formatDuration } from '../../lib/format';
import { linkClick, useLocation } from '../../lib/router';
import { useAction, useAsync } from '../../lib/use-async';

const PAGE = 25;

/** Execution history: status filter, paging, delete one, clear all. */
export function ExecutionsScreen() {
  const { params } = useLocation();
  const taskId = params.get('taskId') ?? undefined;
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(0);
  // One more than a page tells whether a next page exists (the API gives no total).
  const list = useAsync(() => get<Execution[]>(`/api/executions${query({ limit: PAGE + 1, offset: page * PAGE, status, taskId })}`), [status, page, taskId]);
  const action = useAction();
  const rows = list.data?.slice(0, PAGE) ?? [];
  const hasNext = (list.data?.length ?? 0) > PAGE;

  const remove = async (execution: Execution) => {
    if (!(await confirmAction(`Delete the execution of “${execution.taskName}” started ${formatDate(execution.startedAt)} and its captures?`, { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/executions/${seg(execution.executionId)}`))) {
      announce('Execution deleted');
      list.reload();
    }
  };
  const clear = async () => {
    if (!(await confirmAction('Delete every execution record and every capture? This cannot be undone.', { confirmLabel: 'Clear all' }))) return;
    if (await action.run(() => post('/api/executions/clear'))) {
      announce('Every execution was deleted');
      setPage(0);
      list.reload();
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Executions">
        <Button onClick={list.reload}>Refresh</Button>
        <Button variant="danger" onClick={() => void clear()}>Clear all</Button>
      </PageHeader>
      <div class="filters">
        <SelectField label="Status" value={status} onValue={(v) => { setStatus(v); setPage(0); }}
          options={[['', 'Any status'], ...EXECUTION_STATUSES.map((s): [string, string] => [s, s])]} />
        {taskId && <p class="muted">Only task <code>{taskId}</code> · <a href="/executions" onClick={linkClick}>show all</a></p>}
      </div>
      <ErrorBox error={action.error} />
      <ErrorBox error={list.error} onRetry={list.reload} />
      {list.loading && !list.data && <Loading label="Loading executions…" />}
      {list.data && rows.length === 0 && <Empty>{status ? `No ${status} executions.` : 'No executions yet.'}</Empty>}
      {rows.length > 0 && (
        <div class="table-wrap">
          <table class="data-table executions-table" aria-busy={list.loading || undefined}>
            <caption class="sr-only">Executions, newest first, page {page + 1}</caption>
            <thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Trigger</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.executionId}>
                  <th scope="row"><a href={`/executions/${seg(e.executionId)}`} onClick={linkClick}>{e.taskName}</a></th>
                  <td><StatusBadge status={e.status} /></td>
                  <td>{e.trigger}</td>
                  <td>{formatDate(e.startedAt)}</td>
                  <td>{formatDuration(e.durationMs)}</td>
                  <td class="row-actions"><Button variant="ghost" class="danger-text" aria-label={`Delete execution ${e.executionId}`} onClick={() => void remove(e)}>Delete</Button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>Previous</Button>
        <span>Page {page + 1}</span>
        <Button disabled={!hasNext} onClick={() => setPage((p) => p + 1)}>Next</Button>
      </nav>
    </section>
  );
}
