import { api, get, seg, type ApiError } from '../../api/client';
import type { Task } from '../../api/types';
import { Button } from '../../components/ui';

/** A task read with its ETag (the tag a later save sends as If-Match). */
export interface TaggedTask {
  task: Task;
  etag: string | null;
}

/** GET /api/tasks/{id} with its ETag. */
export async function getTagged(id: string): Promise<TaggedTask> {
  let etag: string | null = null;
  const task = await get<Task>(`/api/tasks/${seg(id)}`, { onHeaders: (headers) => { etag = headers.get('etag'); } });
  return { task, etag };
}

/** A write of the task refused because it changed since it was read (412 TASK_CHANGED). */
export const isEditConflict = (error: unknown): error is ApiError =>
  (error as ApiError | null)?.status === 412 && (error as ApiError).code === 'TASK_CHANGED';

/** PATCH with If-Match (when the tag is known). */
export const patchIfMatch = (id: string, body: unknown, etag: string | null) =>
  api<Task>('PATCH', `/api/tasks/${seg(id)}`, body, etag ? { headers: { 'if-match': etag } } : {});

/** The task saved elsewhere meanwhile: take theirs (Reload, drops these edits) or keep these (Overwrite, theirs stays a version). */
export function EditConflict(props: { busy: boolean; onReload: () => void; onOverwrite: () => void }) {
  return (
    <div class="error-box edit-conflict" role="alert">
      <p><strong>Changed elsewhere.</strong> This task was saved somewhere else (another tab, person or API call) since you
        opened it. Reload it (your unsaved changes are dropped), or overwrite it with yours (theirs is kept in Versions).</p>
      <div class="toolbar">
        <Button onClick={props.onReload} disabled={props.busy}>Reload</Button>
        <Button variant="danger" onClick={props.onOverwrite} busy={props.busy}>Overwrite</Button>
      </div>
    </div>
  );
}
