import { useState } from 'preact/hooks';
import { del, get, post, query, seg } from '../../api/client';
import { EXECUTION_OUTCOMES, EXECUTION_STATUSES, EXECUTION_TRIGGERS, type Execution, type TaskListEntry } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, Empty, ErrorBox, Loading, PageHeader, SelectField, TextField } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { linkClick, navigate, useLocation } from '../../lib/router';
import { useAction, useAsync } from '../../lib/use-async';
import { apiFilters, filtersHref, filtersOf, type ExecutionFilters } from './execution-filters';
import { ExecutionsTable } from './executions-table';

const PAGE = 25;
const EXPORTS: Array<[string, string]> = [['csv', 'Export CSV'], ['ndjson', 'Export NDJSON']];
const choices = (any: string, values: readonly string[]): Array<[string, string]> => [['', any], ...values.map((v): [string, string] => [v, v])];

/** Execution history: filters kept in the address, the total, paging, export, delete one, clear all. */
export function ExecutionsScreen() {
  const { params } = useLocation();
  const filters = filtersOf(params);
  const key = JSON.stringify(filters);
  const [page, setPage] = useState({ key, n: 0 });
  const n = page.key === key ? page.n : 0; // a new filter starts at the first page
  const api = apiFilters(filters);
  // One more than a page tells whether a next page exists without waiting for the count.
  const list = useAsync(() => get<Execution[]>(`/api/executions${query({ limit: PAGE + 1, offset: n * PAGE, ...api })}`), [key, n]);
  const total = useAsync(() => get<{ total: number }>(`/api/executions/count${query(api)}`).then((r) => r.total), [key, list.data]);
  const tasks = useAsync(() => get<{ tasks: TaskListEntry[] }>('/api/tasks/list').then((r) => r.tasks), []);
  const action = useAction();
  const rows = list.data?.slice(0, PAGE) ?? [];
  const hasNext = (list.data?.length ?? 0) > PAGE;
  const filtered = Object.values(filters).some(Boolean);

  const change = (field: keyof ExecutionFilters) => (value: string) => navigate(filtersHref({ ...filters, [field]: value }), { replace: true });
  const taskOptions: Array<[string, string]> = [['', 'Every task'], ...(tasks.data ?? []).map((t): [string, string] => [t.id, t.name || t.id])];
  if (filters.taskId && !taskOptions.some(([id]) => id === filters.taskId)) taskOptions.push([filters.taskId, filters.taskId]);

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
      setPage({ key, n: 0 });
      list.reload();
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Executions">
        {EXPORTS.map(([format, label]) => (
          <a key={format} class="btn" href={`/api/executions/export${query({ format, ...api })}`} download>{label}</a>
        ))}
        <Button onClick={list.reload}>Refresh</Button>
        <Button variant="danger" onClick={() => void clear()}>Clear all</Button>
      </PageHeader>
      <form class="filters" aria-label="Filter executions" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="Task" value={filters.taskId} onValue={change('taskId')} options={taskOptions} />
        <SelectField label="Status" value={filters.status} onValue={change('status')} options={choices('Any status', EXECUTION_STATUSES)} />
        <SelectField label="Outcome" value={filters.outcome} onValue={change('outcome')} options={choices('Any outcome', EXECUTION_OUTCOMES)} />
        <SelectField label="Changed" value={filters.changed} onValue={change('changed')} options={[['', 'Changed or not'], ['true', 'Changed'], ['false', 'Unchanged']]} />
        <SelectField label="Trigger" value={filters.trigger} onValue={change('trigger')} options={choices('Any trigger', EXECUTION_TRIGGERS)} />
        <TextField type="date" label="From" value={filters.from} onValue={change('from')} />
        <TextField type="date" label="To" value={filters.to} onValue={change('to')} />
        {filtered && <a href="/executions" onClick={linkClick}>Clear filters</a>}
      </form>
      <p class="muted" role="status" aria-live="polite">
        {total.data === undefined ? '\u00a0' : `${total.data} ${total.data === 1 ? 'execution' : 'executions'}${filtered ? ' match' : ''}`}
      </p>
      <ErrorBox error={action.error} />
      <ErrorBox error={list.error} onRetry={list.reload} />
      {list.loading && !list.data && <Loading label="Loading executions…" />}
      {list.data && rows.length === 0 && <Empty>{filtered ? 'No executions match the filters.' : 'No executions yet.'}</Empty>}
      {rows.length > 0 && <ExecutionsTable rows={rows} busy={list.loading} caption={`Executions, newest first, page ${n + 1}`} onDelete={(e) => void remove(e)} />}
      <nav class="pager" aria-label="Pages">
        <Button disabled={n === 0} onClick={() => setPage({ key, n: n - 1 })}>Previous</Button>
        <span>Page {n + 1}{total.data !== undefined && ` of ${Math.max(1, Math.ceil(total.data / PAGE))}`}</span>
        <Button disabled={!hasNext} onClick={() => setPage({ key, n: n + 1 })}>Next</Button>
      </nav>
    </section>
  );
}
