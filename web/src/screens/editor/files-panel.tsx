import { del, get, put, seg } from '../../api/client';
import type { TaskFile, TaskFileList } from '../../api/types';
import { Empty, ErrorBox, Loading } from '../../components/ui';
import { formatSize, formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';

/** Letters, digits, `.`, `_` and `-` (the API's rule): other characters of a chosen file's name become `_`. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '').slice(0, 128) || 'file';

/**
 * The task's files (README "Task files"): what its `upload` actions put into file inputs, by name. Uploaded here
 * (a file of the same name is replaced), listed with their sizes, downloaded and deleted.
 */
export function FilesPanel(props: { taskId?: string }) {
  const { taskId } = props;
  const data = useAsync(async () => (taskId ? get<TaskFileList>(`/api/tasks/${seg(taskId)}/files`) : undefined), [taskId]);
  const action = useAction();

  const upload = async (input: HTMLInputElement) => {
    const chosen = [...(input.files ?? [])];
    input.value = '';
    for (const file of chosen) {
      const done = await action.run(() => put<TaskFile>(`/api/tasks/${seg(taskId!)}/files/${seg(safeName(file.name))}`, file));
      if (!done) break;
    }
    data.reload();
  };
  const remove = async (file: TaskFile) => {
    if (await action.run(() => del(`/api/tasks/${seg(taskId!)}/files/${seg(file.name)}`))) data.reload();
  };

  if (!taskId) return <Empty>Files can be added once the task is saved.</Empty>;
  const list = data.data;
  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      <p class="hint">
        An <strong>Upload file</strong> action puts these into a file input: its value names them, separated by commas.
        {list && ` At most ${list.maxFiles} files of ${formatSize(list.maxBytes)} each.`}
      </p>
      <label class="btn">
        Add files…
        <input type="file" multiple class="sr-only" disabled={action.busy} aria-label="Add files to the task"
          onChange={(event) => void upload(event.currentTarget)} />
      </label>
      <ErrorBox error={action.error ?? data.error} onRetry={data.reload} />
      {data.loading && !list && <Loading label="Loading files…" />}
      {list && list.files.length === 0 && <Empty>No file yet.</Empty>}
      {list && list.files.length > 0 && (
        <ul class="version-list" aria-label="Task files">
          {list.files.map((file) => (
            <li key={file.name}>
              <div>
                <a href={`/api/tasks/${seg(taskId)}/files/${seg(file.name)}`} download={file.name}><code>{file.name}</code></a>
                <span class="muted"> · {formatSize(file.size)} · {file.contentType} · {formatDate(file.modified)}</span>
              </div>
              <div class="row-actions">
                <button type="button" class="btn ghost" disabled={action.busy} aria-label={`Delete ${file.name}`} onClick={() => void remove(file)}>Delete</button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
