import { useMemo, useRef, useState } from 'preact/hooks';
import { del, get, post, query, seg } from '../api/client';
import type { Execution, Task, TaskListEntry } from '../api/types';
import { announce, confirmAction } from '../components/dialogs';
import { Button, Empty, ErrorBox, Loading, PageHeader, StatusBadge } from '../components/ui';
import { formatDate } from '../lib/format';
import { canChange } from '../lib/role';
import { linkClick, navigate } from '../lib/router';
import { useRowWindow } from '../lib/row-window';
import { scheduleSummary } from '../lib/schedule-text';
import { useAction, useAsync } from '../lib/use-async';
import { TasksImport } from './tasks-import';

/** Latest run per task, from the 50 newest executions (one request, not one per task; older runs show as the schedule's lastRun). */
async function lastRuns(): Promise<Map<string, Execution>> {
  const runs = await get<Execution[]>(`/api/executions${query({ limit: 50 })}`).catch(() => [] as Execution[]);
  const map = new Map<string, Execution>();
  for (const run of runs) if (!map.has(run.taskId)) map.set(run.taskId, run);
  return map;
}

/** A run's start to the minute, to fit the one-line cell (the cell's title has it to the second). */
function shortDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * `load`, called once now: the screen asks for its data while it first renders, not after its first paint (when
 * effects run, up to 100 ms later); a reload asks again.
 */
function startedNow<T>(load: () => Promise<T>): () => Promise<T> {
  let early: Promise<T> | undefined = load();
  early.catch(() => undefined); // its error is shown once useAsync takes it, not reported as unhandled before
  return () => {
    const answer = early ?? load();
    early = undefined;
    return answer;
  };
}

export function TasksScreen() {
  const loadTasks = useMemo(() => startedNow(() => get<{ tasks: TaskListEntry[] }>('/api/tasks/list').then((r) => r.tasks)), []);
  const loadRuns = useMemo(() => startedNow(lastRuns), []);
  const tasks = useAsync(loadTasks, []);
  const runs = useAsync(loadRuns, []);
  const [search, setSearch] = useState('');
  const action = useAction();
  const body = useRef<HTMLTableSectionElement>(null);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = tasks.data ?? [];
    if (!needle) return list;
    return list.filter((t) => [t.name, t.description ?? '', t.url, t.mode].some((s) => s.toLowerCase().includes(needle)));
  }, [tasks.data, search]);
  // Only the rows in and near the viewport are drawn (see lib/row-window.ts); the table tells assistive technology
  // how many rows there are (aria-rowcount) and where each drawn one is (aria-rowindex, the header being row 1).
  const rows = useRowWindow(shown.length, body);

  const duplicate = async (entry: TaskListEntry) => {
    const copy = await action.run(async () => {
      const task = await get<Task>(`/api/tasks/${seg(entry.id)}`);
      const { id: _id, versions: _v, createdAt: _c, updatedAt: _u, schedule: _s, ...rest } = task;
      return post<Task>('/api/tasks', { ...rest, name: `${task.name} (copy)` });
    });
    if (copy) {
      announce(`Duplicated as ${copy.name}`);
      tasks.reload();
    }
  };

  const remove = async (entry: TaskListEntry) => {
    if (!(await confirmAction(`Delete the task “${entry.name}”? Its executions are kept.`, { confirmLabel: 'Delete task' }))) return;
    const done = await action.run(() => del(`/api/tasks/${seg(entry.id)}`));
    if (done) {
      announce(`Deleted ${entry.name}`);
      tasks.set((tasks.data ?? []).filter((t) => t.id !== entry.id));
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Tasks">
        {canChange() && <Button onClick={() => navigate('/tasks/new-monitor')}>New monitor</Button>}
        {canChange() && <Button variant="primary" onClick={() => navigate('/tasks/new')}>New task</Button>}
      </PageHeader>
      {canChange() && <TasksImport onImported={tasks.reload} />}
      <div class="filters">
        <label for="task-search">Search tasks</label>
        <input id="task-search" type="search" value={search} placeholder="Name, description, URL or mode"
          onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} />
        {tasks.data && <span class="muted" aria-live="polite">{shown.length} of {tasks.data.length}</span>}
      </div>
      <ErrorBox error={action.error} />
      {tasks.loading && !tasks.data && <Loading label="Loading tasks…" />}
      <ErrorBox error={tasks.error} onRetry={tasks.reload} />
      {tasks.data && tasks.data.length === 0 && <Empty>No tasks yet. Create one with “New task”.</Empty>}
      {tasks.data && tasks.data.length > 0 && shown.length === 0 && <Empty>No task matches “{search}”.</Empty>}
      {shown.length > 0 && (
        <div class="table-wrap">
          <table class="data-table tasks-table" aria-rowcount={shown.length + 1} tabIndex={-1}>
            <caption class="sr-only">Tasks</caption>
            <colgroup>
              <col class="col-name" /><col /><col class="col-url" /><col class="col-mode" />
              <col class="col-schedule" /><col class="col-last" /><col class="col-actions" />
            </colgroup>
            <thead>
              <tr aria-rowindex={1}><th scope="col">Name</th><th scope="col">Description</th><th scope="col">URL</th><th scope="col">Mode</th>
                <th scope="col">Schedule</th><th scope="col">Last run</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
            </thead>
            <tbody ref={body}>
              {rows.before > 0 && <tr class="row-spacer" aria-hidden="true"><td colSpan={7} style={{ height: `${rows.before}px` }} /></tr>}
              {shown.slice(rows.start, rows.end).map((task, i) => {
                const last = runs.data?.get(task.id);
                const schedule = scheduleSummary(task.schedule);
                const lastRun = last ? `${last.status}, ${formatDate(last.startedAt)}` : task.schedule?.lastRun ? formatDate(task.schedule.lastRun) : 'never';
                return (
                  <tr key={task.id} data-row aria-rowindex={rows.start + i + 2}>
                    <th scope="row" title={task.name}><div class="clamp"><a href={`/tasks/${seg(task.id)}`} onClick={linkClick}>{task.name}</a></div></th>
                    <td class="desc" title={task.description}>{task.description ? <div class="clamp">{task.description}</div> : <span class="muted">—</span>}</td>
                    <td class="url" title={task.url}>{task.url}</td>
                    <td><span class="badge">{task.mode}</span></td>
                    <td title={schedule}>{schedule}</td>
                    <td title={lastRun}>{last
                      ? <a href={`/executions/${seg(last.executionId)}`} onClick={linkClick}><StatusBadge status={last.status} /> <span class="muted">{shortDate(last.startedAt)}</span></a>
                      : task.schedule?.lastRun ? shortDate(task.schedule.lastRun) : <span class="muted">never</span>}</td>
                    <td class="row-actions">
                      {canChange() && <Button variant="ghost" onClick={() => void duplicate(task)} aria-label={`Duplicate ${task.name}`}>Duplicate</Button>}
                      {canChange() && <Button variant="ghost" class="danger-text" onClick={() => void remove(task)} aria-label={`Delete ${task.name}`}>Delete</Button>}
                    </td>
                  </tr>
                );
              })}
              {rows.after > 0 && <tr class="row-spacer" aria-hidden="true"><td colSpan={7} style={{ height: `${rows.after}px` }} /></tr>}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
