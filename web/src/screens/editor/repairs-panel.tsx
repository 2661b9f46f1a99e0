import { get, post, seg } from '../../api/client';
import type { SelectorRepair, Task, TaskRepairs } from '../../api/types';
import { Empty, ErrorBox, Loading } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';

const STATUS: Record<string, string> = { proposed: 'Proposed', applied: 'Applied', accepted: 'Accepted', rejected: 'Rejected' };

/**
 * The selector repairs runs made (README "Healing"): each with its old and new selector, score, runner-up and a cropped
 * screenshot of the element; a proposed one is accepted (the task gets the new selector as a new version) or rejected
 * (runs do not make it again for the same page).
 */
export function RepairsPanel(props: { task: Task; dirty: boolean; onAccepted: (task: Task) => void }) {
  const taskId = props.task.id;
  const data = useAsync(async () => (taskId ? get<TaskRepairs>(`/api/tasks/${seg(taskId)}/repairs`) : undefined), [taskId]);
  const action = useAction();

  const decide = async (repair: SelectorRepair, verb: 'accept' | 'reject') => {
    const done = await action.run(() => post<SelectorRepair>(`/api/tasks/${seg(taskId!)}/repairs/${seg(repair.id)}/${verb}`));
    if (!done) return;
    if (verb === 'accept') props.onAccepted(await get<Task>(`/api/tasks/${seg(taskId!)}`));
    data.reload();
  };

  if (!taskId) return <Empty>Repairs appear once the task is saved and run.</Empty>;
  const mode = typeof props.task.healing === 'string' ? props.task.healing : 'propose';
  return (
    <section aria-labelledby="repairs-title">
      <h2 id="repairs-title">Selector repairs</h2>
      <p class="hint">
        Healing: <strong>{mode}</strong> (Script &amp; options or JSON: <code>healing</code> off, propose or apply).
        {data.data && ` ${data.data.fingerprints.length} action${data.data.fingerprints.length === 1 ? '' : 's'} fingerprinted.`}
      </p>
      <ErrorBox error={action.error ?? data.error} onRetry={data.reload} />
      {data.loading && !data.data && <Loading label="Loading repairs…" />}
      {data.data && data.data.repairs.length === 0 && <Empty>No repair yet: every selector matched.</Empty>}
      {data.data && data.data.repairs.length > 0 && (
        <ul class="version-list" aria-label="Repairs, newest first">
          {data.data.repairs.map((repair) => (
            <li key={repair.id}>
              <div>
                <strong>Action {repair.actionIndex + 1}</strong>
                <span class="muted"> · {STATUS[repair.status] ?? repair.status} · {repair.source} · {formatDate(repair.createdAt)}</span>
                <div><del><code>{repair.oldSelector}</code></del> → <code>{repair.newSelector}</code></div>
                <div class="muted">
                  score {repair.score}{repair.runnerUp ? ` · runner-up ${repair.runnerUp.selector} (${repair.runnerUp.score})` : ''}
                </div>
                {repair.screenshot && <img src={`/api/data/captures/${seg(repair.screenshot)}`} alt={`The element of action ${repair.actionIndex + 1} as repaired`} style="max-width: 320px; border: 1px solid #ccc" />}
              </div>
              {repair.status === 'proposed' && (
                <div class="row-actions">
                  <button type="button" class="btn" disabled={action.busy || props.dirty} title={props.dirty ? 'Save your changes first' : undefined}
                    onClick={() => void decide(repair, 'accept')}>Accept</button>
                  <button type="button" class="btn ghost" disabled={action.busy} onClick={() => void decide(repair, 'reject')}>Reject</button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
