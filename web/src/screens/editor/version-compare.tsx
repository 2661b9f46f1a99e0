import { useState } from 'preact/hooks';
import type { Action, Task } from '../../api/types';
import { Empty, SelectField } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { actionRows, fieldChanges } from './task-diff';

export const CURRENT = 'current';

const describe = (action?: Action) => {
  if (!action) return '';
  const parts = [action.type, action.selector, action.key, action.varName, action.value && action.value.slice(0, 120)];
  return parts.filter(Boolean).join(' · ') + (action.disabled ? ' (disabled)' : '');
};
const KIND_LABEL = { same: 'unchanged', changed: 'changed', removed: 'only on the left', added: 'only on the right' };

/** Two versions of a task side by side: the fields that differ, and the actions aligned with changes marked. */
export function VersionCompare(props: { task: Task; left: string; onClose: () => void }) {
  const versions = props.task.versions ?? [];
  const [left, setLeft] = useState(props.left);
  const [right, setRight] = useState(CURRENT);
  const options: Array<[string, string]> = [[CURRENT, 'Current (saved)'], ...versions.map((v): [string, string] => [v.id, `Saved ${formatDate(v.savedAt)}`])];
  const pick = (id: string): Task => (id === CURRENT ? props.task : versions.find((v) => v.id === id)?.snapshot ?? props.task);
  const a = pick(left);
  const b = pick(right);
  const fields = fieldChanges(a, b);
  const rows = actionRows(a.actions ?? [], b.actions ?? []);
  const changed = rows.filter((r) => r.kind !== 'same').length;

  return (
    <section class="version-compare card" aria-labelledby="compare-title">
      <header class="page-header">
        <h3 id="compare-title">Compare versions</h3>
        <button type="button" class="btn ghost" onClick={props.onClose}>Close comparison</button>
      </header>
      <div class="filters">
        <SelectField label="Left" value={left} onValue={setLeft} options={options} />
        <SelectField label="Right" value={right} onValue={setRight} options={options} />
      </div>
      <p class="muted" role="status">
        {fields.length === 0 && changed === 0 ? 'The two versions are the same.' : `${fields.length} ${fields.length === 1 ? 'field differs' : 'fields differ'}, ${changed} of ${rows.length} action lines changed.`}
      </p>
      {fields.length > 0 && (
        <table class="data-table compare-fields">
          <caption class="sr-only">Fields that differ</caption>
          <thead><tr><th scope="col">Field</th><th scope="col">Left</th><th scope="col">Right</th></tr></thead>
          <tbody>
            {fields.map((f) => <tr key={f.field}><th scope="row">{f.field}</th><td><pre class="diff-cell">{f.left}</pre></td><td><pre class="diff-cell">{f.right}</pre></td></tr>)}
          </tbody>
        </table>
      )}
      {rows.length === 0 ? <Empty>Neither version has actions.</Empty> : (
        <table class="data-table compare-actions">
          <caption class="sr-only">Actions side by side</caption>
          <thead><tr><th scope="col">Left actions</th><th scope="col">Right actions</th></tr></thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} class={`diff-${row.kind}`} aria-label={`${KIND_LABEL[row.kind]}: ${describe(row.left ?? row.right)}`}>
                <td>{describe(row.left)}</td>
                <td>{describe(row.right)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
