// "Import tasks…" on the tasks screen: a file from GET /api/tasks/export, or the task export of the product taskloom
// replaces (README "Moving tasks from the product we replace"), sent as it is to POST /api/tasks/import.
import { useRef, useState } from 'preact/hooks';
import { ApiError, post, query } from '../api/client';
import { announce } from '../components/dialogs';
import { Button } from '../components/ui';
import { useAction } from '../lib/use-async';

interface ImportAnswer {
  created: string[];
  replaced: string[];
  skipped: string[];
  converted?: Array<{ taskId: string; name: string; notes: string[] }>;
}

const POLICIES: Array<[string, string]> = [['fail', 'Stop if a task exists'], ['skip', 'Keep existing tasks'], ['replace', 'Replace existing tasks']];

export function TasksImport(props: { onImported: () => void }) {
  const file = useRef<HTMLInputElement>(null);
  const [policy, setPolicy] = useState('fail');
  const [answer, setAnswer] = useState<ImportAnswer | undefined>(undefined);
  const action = useAction();

  const send = async (picked: File) => {
    setAnswer(undefined);
    const done = await action.run(async () => {
      let body: unknown;
      try {
        body = JSON.parse(await picked.text());
      } catch {
        throw new Error(`${picked.name} is not a JSON file`);
      }
      return post<ImportAnswer>(`/api/tasks/import${query({ onConflict: policy })}`, body);
    });
    if (file.current) file.current.value = '';
    if (done) {
      setAnswer(done);
      announce(`Imported ${done.created.length + done.replaced.length} task(s)`);
      props.onImported();
    }
  };

  const error = action.error;
  // An IMPORT_UNMAPPED answer names the tasks one after the other: one line each.
  const lines = error instanceof ApiError ? error.details.split(' | ') : error ? [error instanceof Error ? error.message : String(error)] : [];
  return (
    <div class="tasks-import">
      <label for="import-policy">When a task exists</label>
      <select id="import-policy" value={policy} onChange={(e) => setPolicy((e.currentTarget as HTMLSelectElement).value)}>
        {POLICIES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
      </select>
      <input ref={file} id="import-file" type="file" accept="application/json,.json" class="sr-only" aria-label="Task export file to import" tabIndex={-1}
        onChange={(e) => { const picked = (e.currentTarget as HTMLInputElement).files?.[0]; if (picked) void send(picked); }} />
      <Button onClick={() => file.current?.click()} disabled={action.busy}>{action.busy ? 'Importing…' : 'Import tasks…'}</Button>
      {error !== undefined && (
        <div class="error-box" role="alert">
          <strong>{error instanceof ApiError ? error.code : 'ERROR'}</strong>
          <ul>{lines.map((line) => <li key={line}>{line}</li>)}</ul>
        </div>
      )}
      {answer && (
        <div class="notice" role="status">
          Created {answer.created.length}, replaced {answer.replaced.length}, skipped {answer.skipped.length}.
          {answer.converted && (
            <ul>{answer.converted.map((task) => (
              <li key={task.taskId}><strong>{task.name}</strong>{task.notes.length > 0 && `: ${task.notes.join('; ')}`}</li>
            ))}</ul>
          )}
        </div>
      )}
    </div>
  );
}
