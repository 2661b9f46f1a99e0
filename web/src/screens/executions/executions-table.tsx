import { seg } from '../../api/client';
import type { Execution } from '../../api/types';
import { Button, OutcomeBadge, StatusBadge } from '../../components/ui';
import { formatDate, formatDuration } from '../../lib/format';
import { linkClick } from '../../lib/router';

/** Executions as rows linking to their detail; the executions screen and a task's run history share it. */
export function ExecutionsTable(props: { rows: Execution[]; caption: string; busy?: boolean; onDelete?: (execution: Execution) => void }) {
  return (
    <div class="table-wrap">
      <table class="data-table executions-table" aria-busy={props.busy || undefined}>
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Task</th><th scope="col">Status</th><th scope="col">Trigger</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Changed</th>
            {props.onDelete && <th scope="col"><span class="sr-only">Actions</span></th>}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((e) => (
            <tr key={e.executionId}>
              <th scope="row"><a href={`/executions/${seg(e.executionId)}`} onClick={linkClick}>{e.taskName}</a></th>
              <td><StatusBadge status={e.status} /><OutcomeBadge status={e.status} outcome={e.outcome} /></td>
              <td>{e.trigger}</td>
              <td>{formatDate(e.startedAt)}</td>
              <td>{formatDuration(e.durationMs)}</td>
              <td title="Since the task's previous successful run (task option compare)">{e.changed === undefined ? '—' : e.changed ? <span class="badge changed-yes">changed</span> : 'no'}</td>
              {props.onDelete && (
                <td class="row-actions">
                  <Button variant="ghost" class="danger-text" aria-label={`Delete execution ${e.executionId}`} onClick={() => props.onDelete!(e)}>Delete</Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
