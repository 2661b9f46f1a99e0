import { get, query } from '../../api/client';
import type { Execution } from '../../api/types';
import { Empty, ErrorBox, Loading } from '../../components/ui';
import { linkClick } from '../../lib/router';
import { useAsync } from '../../lib/use-async';
import { ExecutionsTable } from '../executions/executions-table';
import { filtersHref } from '../executions/execution-filters';

const RECENT = 20;

/** The task's own run history: its latest runs, the total, and a link to all of them in Executions. */
export function RunsPanel(props: { taskId?: string; refresh: unknown }) {
  const { taskId } = props;
  const runs = useAsync(async () => {
    if (!taskId) return undefined;
    const [rows, count] = await Promise.all([
      get<Execution[]>(`/api/executions${query({ taskId, limit: RECENT })}`),
      get<{ total: number }>(`/api/executions/count${query({ taskId })}`),
    ]);
    return { rows, total: count.total };
  }, [taskId, props.refresh]);

  if (!taskId) return <Empty>Runs appear once the task is saved and run.</Empty>;
  const all = filtersHref({ taskId });
  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Run history</h2>
      <ErrorBox error={runs.error} onRetry={runs.reload} />
      {runs.loading && !runs.data && <Loading label="Loading runs…" />}
      {runs.data && runs.data.total === 0 && <Empty>This task has not run yet.</Empty>}
      {runs.data && runs.data.total > 0 && (
        <>
          <p class="muted" role="status">
            {runs.data.total > runs.data.rows.length ? `The latest ${runs.data.rows.length} of ${runs.data.total} runs` : `${runs.data.total} ${runs.data.total === 1 ? 'run' : 'runs'}`}
            {' · '}<a href={all} onClick={linkClick}>All runs of this task in Executions</a>
          </p>
          <ExecutionsTable rows={runs.data.rows} busy={runs.loading} caption="Runs of this task, newest first" />
        </>
      )}
    </section>
  );
}
