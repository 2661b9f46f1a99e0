import { useState } from 'preact/hooks';
import { post, seg } from '../../api/client';
import type { Task, TaskVersion } from '../../api/types';
import { confirmAction } from '../../components/dialogs';
import { Empty, ErrorBox } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAction } from '../../lib/use-async';
import { editableJson } from './json-view';
import { VersionCompare } from './version-compare';

/** Snapshots taken before each save (newest first): preview one, compare two side by side, restore one. */
export function VersionsPanel(props: { task: Task; dirty: boolean; onRestored: (task: Task) => void }) {
  const versions = props.task.versions ?? [];
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [compareWith, setCompareWith] = useState<string | null>(null);
  const action = useAction();
  const preview = versions.find((v) => v.id === previewId);

  const restore = async (version: TaskVersion) => {
    const warning = props.dirty ? ' Your unsaved changes will be lost.' : '';
    if (!(await confirmAction(`Restore the version saved ${formatDate(version.savedAt)}? The current task is kept as a version first.${warning}`, { confirmLabel: 'Restore', danger: false }))) return;
    const task = await action.run(() => post<Task>(`/api/tasks/${seg(props.task.id!)}/versions/${seg(version.id)}/restore`));
    if (task) {
      setPreviewId(null);
      props.onRestored(task);
    }
  };

  if (!props.task.id) return <Empty>Versions appear once the task is saved.</Empty>;
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Version history</h2>
      <p class="hint">Each save keeps the previous state (at most 100).</p>
      <ErrorBox error={action.error} />
      {versions.length === 0 && <Empty>No earlier versions yet.</Empty>}
      {compareWith && <VersionCompare key={compareWith} task={props.task} left={compareWith} onClose={() => setCompareWith(null)} />}
      <div class="split">
        <ul class="version-list">
          {versions.map((version) => (
            <li key={version.id} class={version.id === previewId ? 'selected' : ''}>
              <div>
                <strong>{formatDate(version.savedAt)}</strong>
                <span class="muted"> · {version.snapshot.name} · {version.snapshot.actions?.length ?? 0} actions</span>
              </div>
              <div class="row-actions">
                <button type="button" class="btn ghost" aria-pressed={version.id === previewId}
                  onClick={() => setPreviewId(version.id === previewId ? null : version.id)}>Preview</button>
                <button type="button" class="btn ghost" aria-label={`Compare the version saved ${formatDate(version.savedAt)}`}
                  onClick={() => { setPreviewId(null); setCompareWith(version.id); }}>Compare</button>
                <button type="button" class="btn" disabled={action.busy} onClick={() => void restore(version)}>Restore</button>
              </div>
            </li>
          ))}
        </ul>
        {preview && (
          <div class="version-preview" aria-label={`Preview of the version saved ${formatDate(preview.savedAt)}`} role="region">
            <p><strong>{preview.snapshot.name}</strong> · {preview.snapshot.mode} · {preview.snapshot.url}</p>
            {preview.snapshot.description && <p class="muted">{preview.snapshot.description}</p>}
            <ol class="compact">
              {(preview.snapshot.actions ?? []).map((a, i) => <li key={i}>{a.type}{a.selector ? ` ${a.selector}` : ''}{a.value ? ` ${a.value.slice(0, 60)}` : ''}</li>)}
            </ol>
            <details>
              <summary>JSON</summary>
              <pre class="code">{editableJson(preview.snapshot)}</pre>
            </details>
          </div>
        )}
      </div>
    </section>
  );
}
