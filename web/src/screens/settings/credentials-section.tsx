import { useState } from 'preact/hooks';
import { del, get, post, put, seg } from '../../api/client';
import type { Credential } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { TablePicker } from '../../components/table-picker';
import { Button, Empty, ErrorBox, Loading, TextField } from '../../components/ui';
import { useAction, useAsync } from '../../lib/use-async';

interface Form { id?: string; name: string; baseUrl: string; token: string }

function CredentialForm(props: { initial: Form; busy: boolean; onSave: (form: Form) => Promise<boolean>; onCancel?: () => void }) {
  const [form, setForm] = useState(props.initial);
  const editing = props.initial.id !== undefined;
  return (
    <form class="credential-form" onSubmit={async (e) => { e.preventDefault(); if (await props.onSave(form) && !editing) setForm({ name: '', baseUrl: '', token: '' }); }}>
      <div class="grid-3">
        <TextField label="Name" value={form.name} onValue={(name) => setForm({ ...form, name })} required />
        <TextField label="Base URL" type="url" value={form.baseUrl} onValue={(baseUrl) => setForm({ ...form, baseUrl })} required placeholder="https://baserow.example.com" />
        <TextField label="Token" type="password" autoComplete="new-password" value={form.token} onValue={(token) => setForm({ ...form, token })} required={!editing}
          hint={editing ? 'Leave empty to keep the stored token (needed again when the base URL moves to another site).' : 'Stored on the server; never shown again.'} />
      </div>
      <div class="actions-row">
        <button type="submit" class="btn primary" disabled={props.busy}>{editing ? 'Save credential' : 'Add credential'}</button>
        {props.onCancel && <Button variant="ghost" onClick={props.onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}

/** Output credentials (tablestore); databases and tables are listed by the server with the stored token. */
export function CredentialsSection() {
  const list = useAsync(() => get<Credential[]>('/api/credentials'), []);
  const [editing, setEditing] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState<string | null>(null);
  const action = useAction();

  const create = async (form: Form) => {
    const saved = await action.run(() => post<Credential>('/api/credentials', { provider: 'tablestore', name: form.name, config: { baseUrl: form.baseUrl, token: form.token } }));
    if (saved) { announce(`Credential ${saved.name} added`); list.reload(); }
    return saved !== undefined;
  };
  const update = async (form: Form) => {
    const config: Record<string, string> = { baseUrl: form.baseUrl };
    if (form.token) config.token = form.token;
    const saved = await action.run(() => put<Credential>(`/api/credentials/${seg(form.id!)}`, { name: form.name, config }));
    if (saved) { announce(`Credential ${saved.name} saved`); setEditing(null); list.reload(); }
    return saved !== undefined;
  };
  const remove = async (credential: Credential) => {
    if (!(await confirmAction(`Delete the credential ${credential.name}? Tasks that push to it will fail to push.`, { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/credentials/${seg(credential.id)}`))) { announce('Credential deleted'); list.reload(); }
  };

  return (
    <section id="credentials" class="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Output credentials</h2>
      <p class="hint">Runs can push their rows to a tablestore (Baserow API) table; pick it in a task's “Script &amp; options” tab.</p>
      <ErrorBox error={list.error} onRetry={list.reload} />
      <ErrorBox error={action.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.length === 0 && <Empty>No credentials yet.</Empty>}
      <ul class="credential-list">
        {(list.data ?? []).map((c) => (
          <li key={c.id} class="subcard">
            <div class="row-between">
              <div><strong>{c.name}</strong> <span class="badge">{c.provider}</span> <span class="muted url">{c.config.baseUrl}</span> <span class="muted">token {c.config.token}</span></div>
              <div class="row-actions">
                <Button variant="ghost" aria-expanded={browsing === c.id} onClick={() => setBrowsing(browsing === c.id ? null : c.id)}>Browse tables</Button>
                <Button variant="ghost" aria-label={`Edit ${c.name}`} onClick={() => setEditing(editing === c.id ? null : c.id)}>Edit</Button>
                <Button variant="ghost" class="danger-text" aria-label={`Delete ${c.name}`} onClick={() => void remove(c)}>Delete</Button>
              </div>
            </div>
            {editing === c.id && <CredentialForm initial={{ id: c.id, name: c.name, baseUrl: c.config.baseUrl, token: '' }} busy={action.busy} onSave={update} onCancel={() => setEditing(null)} />}
            {browsing === c.id && <TablePicker credentialId={c.id} onPick={(t) => announce(`Table ${t.name} has id ${t.id}`)} />}
          </li>
        ))}
      </ul>
      <h3>Add a credential</h3>
      <CredentialForm initial={{ name: '', baseUrl: '', token: '' }} busy={action.busy} onSave={create} />
    </section>
  );
}
