import { useMemo, useState } from 'preact/hooks';
import { del, get, post, query, seg } from '../api/client';
import type { Execution, Task, TaskListEntry } from '../api/types';
import { announce, confirmAction } from '../components/dialogs';
import { Button, Empty, ErrorBox, Loading, PageHeader, StatusBadge } from '../components/ui';
import { formatDate } from '../lib/format';
import { linkClick, navigate } from '../lib/router';
import { scheduleSummary } from '../lib/schedule-text';
import { useAction, useAsync } from '../lib/use-async';

/** Latest run per task, from the 50 newest executions (one request, not one per task; older runs show as the schedule's lastRun). */
async function lastRuns(): Promise<Map<string, Execution>> {
  const runs = await get<Execution[]>(`/api/executions${query({ limit: 50 })}`).catch(() => [] as Execution[]);
  const map = new Map<string, Execution>();
  for (const run of runs) if (!map.has(run.taskId)) map.set(run.taskId, run);
  return map;
}

export function TasksScreen() {
  const tasks = useAsync(() => get<{ tasks: TaskListEntry[] }>('/api/tasks/list').then((r) => r.tasks), []);
  const runs = useAsync(lastRuns, []);
  const [search, setSearch] = useState('');
  const action = useAction();

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = tasks.data ?? [];
    if (!needle) return list;
    return list.filter((t) => [t.name, t.description ?? '', t.url, t.mode].some((s) => s.toLowerCase().includes(needle)));
  }, [tasks.data, search]);

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
        <Button variant="primary" onClick={() => navigate('/tasks/new')}>New task</Button>
      </PageHeader>
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
          <table class="data-table tasks-table">
            <caption class="sr-only">Tasks</caption>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Description</th><th scope="col">URL</th><th scope="col">Mode</th>
                <th scope="col">Schedule</th><th scope="col">Last run</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
            </thead>
            <tbody>
              {shown.map((task) => {
                const last = runs.data?.get(task.id);
                return (
                  <tr key={task.id}>
                    <th scope="row"><a href={`/tasks/${seg(task.id)}`} onClick={linkClick}>{task.name}</a></th>
                    <td class="desc">{task.description ?? <span class="muted">—</span>}</td>
                    <td class="url" title={task.url}>{task.url}</td>
                    <td><span class="badge">{task.mode}</span></td>
                    <td>{scheduleSummary(task.schedule)}</td>
                    <td>{last
                      ? <a href={`/executions/${seg(last.executionId)}`} onClick={linkClick}><StatusBadge status={last.status} /> <span class="muted">{formatDate(last.startedAt)}</span></a>
                      : task.schedule?.lastRun ? formatDate(task.schedule.lastRun) : <span class="muted">never</span>}</td>
                    <td class="row-actions">
                      <Button variant="ghost" onClick={() => void duplicate(task)} aria-label={`Duplicate ${task.name}`}>Duplicate</Button>
                      <Button variant="ghost" class="danger-text" onClick={() => void remove(task)} aria-label={`Delete ${task.name}`}>Delete</Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
