import { useState } from 'preact/hooks';
import { del, get, post, seg } from '../../api/client';
import type { ApiKey, Scope, TaskListEntry } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, CheckField, Empty, ErrorBox, Field, Loading, TextField } from '../../components/ui';
import { copyText } from '../../lib/copy';
import { formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';

const SCOPES: Array<[Scope, string]> = [
  ['read', 'read: look at tasks, runs and results'], ['run', 'run: start and stop runs'],
  ['write', 'write: change tasks, schedules, webhooks'], ['admin', 'admin: keys, users, settings'],
];

interface Form { name: string; scopes: Scope[]; taskIds: string[]; expiresAt: string }
const EMPTY: Form = { name: '', scopes: ['read'], taskIds: [], expiresAt: '' };

function stateOf(key: ApiKey): string {
  if (key.revokedAt) return `revoked ${formatDate(key.revokedAt)}`;
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return `expired ${formatDate(key.expiresAt)}`;
  return key.expiresAt ? `active until ${formatDate(key.expiresAt)}` : 'active';
}

/** Named API keys (README "Team access"): each with its scopes, maybe limited to tasks; shown once, revocable. */
export function NamedKeysSection() {
  const keys = useAsync(() => get<ApiKey[]>('/api/keys'), []);
  const tasks = useAsync(() => get<{ tasks: TaskListEntry[] }>('/api/tasks/list').then((r) => r.tasks), []);
  const [form, setForm] = useState<Form>(EMPTY);
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const action = useAction();
  const taskName = (id: string) => tasks.data?.find((t) => t.id === id)?.name ?? id;

  const create = async (e: Event) => {
    e.preventDefault();
    const body = {
      name: form.name, scopes: form.scopes, taskIds: form.taskIds.length ? form.taskIds : null,
      expiresAt: form.expiresAt ? new Date(form.expiresAt).toISOString() : null,
    };
    const made = await action.run(() => post<{ key: string; apiKey: ApiKey }>('/api/keys', body));
    if (made) {
      setFresh({ name: made.apiKey.name, key: made.key });
      setForm(EMPTY);
      keys.reload();
    }
  };
  const revoke = async (key: ApiKey) => {
    if (!(await confirmAction(`Revoke the key ${key.name}? Callers using it are refused at once.`, { confirmLabel: 'Revoke' }))) return;
    if (await action.run(() => del(`/api/keys/${seg(key.id)}`))) { announce(`Key ${key.name} revoked`); keys.reload(); }
  };
  const toggleScope = (scope: Scope, on: boolean) =>
    setForm({ ...form, scopes: on ? [...form.scopes, scope] : form.scopes.filter((s) => s !== scope) });

  return (
    <section id="keys" class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p class="hint">Named keys for integrations: each holds only the scopes you give it, may be limited to some tasks, and can be revoked alone.</p>
      <ErrorBox error={keys.error} onRetry={keys.reload} />
      <ErrorBox error={action.error} />
      {fresh && (
        <div class="secret-once" role="region" aria-labelledby="fresh-named-key-label">
          <label id="fresh-named-key-label" for="fresh-named-key">The key {fresh.name}: copy it now, it will not be shown again</label>
          <div class="input-with-button">
            <input id="fresh-named-key" readOnly value={fresh.key} spellcheck={false} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
            <Button onClick={() => void copyText(fresh.key, 'API key')}>Copy</Button>
            <Button variant="ghost" onClick={() => setFresh(null)}>Done</Button>
          </div>
        </div>
      )}
      {keys.loading && !keys.data && <Loading />}
      {keys.data && keys.data.length === 0 && <Empty>No named keys yet.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <table class="data-table">
          <thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Tasks</th><th scope="col">State</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name} <span class="muted"><code>{key.preview}</code></span></th>
                <td>{key.scopes.join(', ')}</td>
                <td>{key.taskIds ? key.taskIds.map(taskName).join(', ') : 'all'}</td>
                <td>{stateOf(key)}</td>
                <td>{key.lastUsedAt ? formatDate(key.lastUsedAt) : 'never'}</td>
                <td>{!key.revokedAt && <Button variant="ghost" class="danger-text" aria-label={`Revoke ${key.name}`} onClick={() => void revoke(key)}>Revoke</Button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Create a key</h3>
      <form class="named-key-form" onSubmit={(e) => void create(e)}>
        <TextField label="Name" value={form.name} onValue={(name) => setForm({ ...form, name })} required maxLength={100} placeholder="ci-nightly" />
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map(([scope, label]) => <CheckField key={scope} label={label} checked={form.scopes.includes(scope)} onChecked={(on) => toggleScope(scope, on)} />)}
        </fieldset>
        <Field label="Limit to tasks" hint="None selected: every task. A limited key reaches only these tasks and their runs.">
          {(id, described) => (
            <select id={id} aria-describedby={described} multiple size={Math.min(6, Math.max(2, tasks.data?.length ?? 2))}
              onChange={(e) => setForm({ ...form, taskIds: [...(e.currentTarget as HTMLSelectElement).selectedOptions].map((o) => o.value) })}>
              {(tasks.data ?? []).map((t) => <option key={t.id} value={t.id} selected={form.taskIds.includes(t.id)}>{t.name}</option>)}
            </select>
          )}
        </Field>
        <Field label="Expires" hint="Optional; the key is refused from then on.">
          {(id, described) => (
            <input id={id} aria-describedby={described} type="datetime-local" value={form.expiresAt}
              onInput={(e) => setForm({ ...form, expiresAt: (e.currentTarget as HTMLInputElement).value })} />
          )}
        </Field>
        <div class="actions-row">
          <button type="submit" class="btn primary" disabled={action.busy || form.scopes.length === 0}>Create key</button>
        </div>
      </form>
    </section>
  );
}
