import { get } from '../api/client';
import type { Execution, Schedule } from '../api/types';
import { Empty, ErrorBox, Loading, PageHeader, Button } from '../components/ui';
import { formatDate } from '../lib/format';
import { linkClick } from '../lib/router';
import { scheduleSummary } from '../lib/schedule-text';
import { useAsync } from '../lib/use-async';
import { ExecutionsTable } from './executions/executions-table';
import { filtersHref } from './executions/execution-filters';

interface OverviewWindow { hours: number; total: number; byStatus: Record<string, number> }
interface Overview { at: string; windows: OverviewWindow[]; recentFailures: Execution[] }
interface ScheduledTask { taskId: string; taskName: string; schedule: Schedule }

const NEXT = 5;
const FAILED = ['error', 'timeout', 'interrupted'];
const dayOf = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function WindowCard(props: { window: OverviewWindow; at: string }) {
  const { hours, total, byStatus } = props.window;
  const finished = total - (byStatus.queued ?? 0) - (byStatus.running ?? 0);
  const failed = FAILED.reduce((sum, s) => sum + (byStatus[s] ?? 0), 0);
  const rate = finished > 0 ? `${Math.round(((byStatus.success ?? 0) / finished) * 100)} %` : '—';
  const title = hours === 24 ? 'Last 24 hours' : `Last ${hours / 24} days`;
  // The executions list filters by whole days: from the day the window starts.
  const from = dayOf(Date.parse(props.at) - hours * 3_600_000);
  return (
    <section class="card stat-card" aria-labelledby={`window-${hours}`}>
      <h2 id={`window-${hours}`}>{title}</h2>
      <dl class="stats">
        <div><dt>Runs</dt><dd>{total}</dd></div>
        <div><dt>Success rate</dt><dd>{rate}</dd></div>
        <div><dt>Failed</dt><dd>{failed}</dd></div>
      </dl>
      <a href={filtersHref({ from })} onClick={linkClick}>See these runs</a>
    </section>
  );
}

/** The first look: runs of the last day and week, the success rate, the newest failures, the next schedules. */
export function OverviewScreen() {
  const overview = useAsync(() => get<Overview>('/api/executions/overview'), []);
  const schedules = useAsync(() => get<{ schedules: ScheduledTask[] }>('/api/schedules').then((r) => r.schedules
    .filter((s) => s.schedule.enabled && typeof s.schedule.nextRun === 'number')
    .sort((a, b) => a.schedule.nextRun! - b.schedule.nextRun!)
    .slice(0, NEXT)), []);
  const reload = () => { overview.reload(); schedules.reload(); };

  return (
    <section aria-labelledby="page-title" class="overview">
      <PageHeader title="Overview"><Button onClick={reload}>Refresh</Button></PageHeader>
      <ErrorBox error={overview.error} onRetry={overview.reload} />
      {overview.loading && !overview.data && <Loading label="Counting runs…" />}
      {overview.data && (
        <>
          <div class="stat-cards">{overview.data.windows.map((w) => <WindowCard key={w.hours} window={w} at={overview.data!.at} />)}</div>
          <section aria-labelledby="failures-title">
            <h2 id="failures-title">Recent failures</h2>
            {overview.data.recentFailures.length === 0
              ? <Empty>No failed runs.</Empty>
              : <ExecutionsTable rows={overview.data.recentFailures} caption="The newest failed runs" />}
          </section>
        </>
      )}
      <section aria-labelledby="schedules-title">
        <h2 id="schedules-title">Next schedules</h2>
        <ErrorBox error={schedules.error} what="The schedule list" onRetry={schedules.reload} />
        {schedules.data && schedules.data.length === 0 && <Empty>No task is scheduled.</Empty>}
        {schedules.data && schedules.data.length > 0 && (
          <ol class="next-schedules">
            {schedules.data.map((s) => (
              <li key={s.taskId}>
                <a href={`/tasks/${encodeURIComponent(s.taskId)}`} onClick={linkClick}>{s.taskName}</a>
                <span class="muted"> · {formatDate(s.schedule.nextRun)} · {scheduleSummary(s.schedule)}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}
