import { useMemo, useState } from 'preact/hooks';
import { del, get, post, seg } from '../api/client';
import type { Capture } from '../api/types';
import { CaptureGrid } from '../components/capture-grid';
import { CaptureViewer } from '../components/capture-viewer';
import { announce, confirmAction } from '../components/dialogs';
import { Button, Empty, ErrorBox, Loading, PageHeader, SelectField } from '../components/ui';
import { linkClick } from '../lib/router';
import { useAction, useAsync } from '../lib/use-async';

const runOf = (capture: Capture) => capture.runId ?? capture.name.replace(/_\d+\.\w+$/, '');

/** Screenshots and recordings of every run, named by task: filter by task, run or kind, view full size, delete one, clear screenshots. */
export function CapturesScreen() {
  const all = useAsync(() => get<Capture[]>('/api/data/captures'), []);
  const [task, setTask] = useState('');
  const [run, setRun] = useState('');
  const [kind, setKind] = useState('');
  const [viewing, setViewing] = useState<number | null>(null);
  const action = useAction();

  const tasks = useMemo(() => new Map((all.data ?? []).flatMap((c): Array<[string, string]> => (c.taskId ? [[c.taskId, c.taskName ?? c.taskId]] : []))), [all.data]);
  const runs = useMemo(() => [...new Set((all.data ?? []).filter((c) => !task || c.taskId === task).map(runOf))], [all.data, task]);
  const shown = (all.data ?? []).filter((c) => (!task || c.taskId === task) && (!run || runOf(c) === run) && (!kind || c.type === kind));

  const remove = async (capture: Capture) => {
    if (!(await confirmAction(`Delete ${capture.name}?`, { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/data/captures/${seg(capture.name)}`))) {
      announce(`Deleted ${capture.name}`);
      all.set((all.data ?? []).filter((c) => c.name !== capture.name));
    }
  };
  const clearScreenshots = async () => {
    if (!(await confirmAction('Delete every screenshot? Recordings are kept.', { confirmLabel: 'Clear screenshots' }))) return;
    const answer = await action.run(() => post<{ deleted: number }>('/api/data/clear-screenshots'));
    if (answer) {
      announce(`Deleted ${answer.deleted} screenshots`);
      all.reload();
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Captures">
        <Button onClick={all.reload}>Refresh</Button>
        <Button variant="danger" onClick={() => void clearScreenshots()}>Clear screenshots</Button>
      </PageHeader>
      <div class="filters">
        <SelectField label="Task" value={task} onValue={(v) => { setTask(v); setRun(''); }} options={[['', 'Every task'], ...tasks]} />
        <SelectField label="Run" value={run} onValue={setRun} options={[['', 'Every run'], ...runs.map((r): [string, string] => [r, r])]} />
        <SelectField label="Kind" value={kind} onValue={setKind} options={[['', 'Screenshots and recordings'], ['screenshot', 'Screenshots'], ['recording', 'Recordings']]} />
        {run && <a href={`/executions/${seg(run)}`} onClick={linkClick}>Open this run</a>}
      </div>
      <ErrorBox error={action.error} />
      <ErrorBox error={all.error} onRetry={all.reload} />
      {all.loading && !all.data && <Loading label="Loading captures…" />}
      {all.data && shown.length === 0 && <Empty>No captures{run || kind ? ' match the filter' : ' yet: add a Screenshot action or turn on recording'}.</Empty>}
      {shown.length > 0 && <CaptureGrid captures={shown} onDelete={(c) => void remove(c)} onOpen={setViewing} />}
      {viewing !== null && <CaptureViewer captures={shown} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />}
    </section>
  );
}
