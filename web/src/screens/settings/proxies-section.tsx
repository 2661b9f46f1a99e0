import { useState } from 'preact/hooks';
import { del, get, post, put, seg } from '../../api/client';
import type { Proxy, ProxySettings } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, CheckField, ErrorBox, Field, Loading, SelectField, TextField } from '../../components/ui';
import { useAction, useAsync } from '../../lib/use-async';
import { ProxyBlocks } from './proxy-blocks';

type ProxyForm = Omit<Proxy, 'id'> & { id?: string };
const emptyForm = (): ProxyForm => ({ server: '', username: '', password: '', label: '' });

/** The body of a proxy write: empty optional fields left out (the mask keeps the stored password). */
function proxyBody(form: ProxyForm) {
  const body: Record<string, unknown> = { server: form.server.trim() };
  if (form.username) body.username = form.username;
  if (form.password) body.password = form.password;
  if (form.label) body.label = form.label;
  if (form.isRotatingPool) body.isRotatingPool = true;
  if (form.estimatedPoolSize) body.estimatedPoolSize = form.estimatedPoolSize;
  return body;
}

/** Lines of `scheme://user:pass@host:port`, or a JSON array of proxies. */
function parseImport(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as unknown[];
  return trimmed.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((server) => ({ server }));
}

function ProxyEditor(props: { initial: ProxyForm; onSave: (form: ProxyForm) => Promise<boolean>; onCancel?: () => void; busy: boolean }) {
  const [form, setForm] = useState<ProxyForm>(props.initial);
  const set = (patch: Partial<ProxyForm>) => setForm((f) => ({ ...f, ...patch }));
  return (
    <form class="proxy-form" onSubmit={async (e) => { e.preventDefault(); if (await props.onSave(form) && !props.initial.id) setForm(emptyForm()); }}>
      <div class="grid-3">
        <TextField label="Server" value={form.server} onValue={(server) => set({ server })} required placeholder="http://proxy.example:3128" spellcheck={false} />
        <TextField label="Label" value={form.label ?? ''} onValue={(label) => set({ label })} />
        <TextField label="Username" value={form.username ?? ''} onValue={(username) => set({ username })} autoComplete="off" />
        <TextField label="Password" type="password" value={form.password ?? ''} onValue={(password) => set({ password })} autoComplete="new-password"
          hint={props.initial.id ? 'Leave ******** to keep the stored password.' : undefined} />
        <TextField label="Estimated pool size" type="number" min={0} value={form.estimatedPoolSize ?? ''}
          onValue={(v) => set({ estimatedPoolSize: v === '' ? undefined : Number(v) })} />
      </div>
      <CheckField label="Rotating pool gateway" checked={form.isRotatingPool === true} onChecked={(isRotatingPool) => set({ isRotatingPool })} />
      <div class="actions-row">
        <button type="submit" class="btn primary" disabled={props.busy || !form.server.trim()}>{props.initial.id ? 'Save proxy' : 'Add proxy'}</button>
        {props.onCancel && <Button variant="ghost" onClick={props.onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}

/** Proxies: add, import, edit, delete, and how runs rotate through them. */
export function ProxiesSection() {
  const settings = useAsync(() => get<ProxySettings>('/api/settings/proxies'), []);
  const [editing, setEditing] = useState<string | null>(null);
  const [importText, setImportText] = useState('');
  const action = useAction();
  const data = settings.data;

  const write = async (work: () => Promise<ProxySettings>, message: string) => {
    const answer = await action.run(work);
    if (answer) {
      settings.set(answer);
      announce(message);
    }
    return answer !== undefined;
  };
  const remove = async (proxy: Proxy) => {
    if (await confirmAction(`Delete the proxy ${proxy.label || proxy.server}?`, { confirmLabel: 'Delete' })) {
      await write(() => del<ProxySettings>(`/api/settings/proxies/${seg(proxy.id)}`), 'Proxy deleted');
    }
  };
  const runImport = async (event: Event) => {
    event.preventDefault();
    let proxies: unknown[];
    try {
      proxies = parseImport(importText);
    } catch (error) {
      return action.run(() => Promise.reject(new Error(`The import is not valid JSON: ${(error as Error).message}`)));
    }
    if (await write(() => post<ProxySettings>('/api/settings/proxies/import', { proxies }), `Imported ${proxies.length} proxies`)) setImportText('');
    return undefined;
  };

  return (
    <section id="proxies" class="card" aria-labelledby="proxies-title">
      <h2 id="proxies-title">Proxies</h2>
      <ErrorBox error={settings.error} onRetry={settings.reload} />
      <ErrorBox error={action.error} />
      {settings.loading && !data && <Loading />}
      {data && (
        <>
          <div class="table-wrap">
            <table class="data-table">
              <caption class="sr-only">Proxies</caption>
              <thead><tr><th scope="col">Label</th><th scope="col">Server</th><th scope="col">User</th><th scope="col">Pool</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {data.proxies.map((proxy) => (
                  <tr key={proxy.id}>
                    <th scope="row">{proxy.id === 'host' ? 'Host IP (no proxy)' : proxy.label || '—'}</th>
                    <td class="url">{proxy.id === 'host' ? '—' : proxy.server}</td>
                    <td>{proxy.username ?? ''}</td>
                    <td>{proxy.isRotatingPool ? `rotating${proxy.estimatedPoolSize ? ` (~${proxy.estimatedPoolSize})` : ''}` : ''}</td>
                    <td class="row-actions">
                      {proxy.id !== 'host' && <>
                        <Button variant="ghost" aria-label={`Edit ${proxy.label || proxy.server}`} onClick={() => setEditing(proxy.id)}>Edit</Button>
                        <Button variant="ghost" class="danger-text" aria-label={`Delete ${proxy.label || proxy.server}`} onClick={() => void remove(proxy)}>Delete</Button>
                      </>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {editing && data.proxies.some((p) => p.id === editing) && (
            <div class="subcard" role="region" aria-label="Edit proxy">
              <h3>Edit proxy</h3>
              <ProxyEditor key={editing} busy={action.busy} initial={data.proxies.find((p) => p.id === editing)!} onCancel={() => setEditing(null)}
                onSave={async (form) => { const ok = await write(() => put<ProxySettings>(`/api/settings/proxies/${seg(editing)}`, proxyBody(form)), 'Proxy saved'); if (ok) setEditing(null); return ok; }} />
            </div>
          )}
          <h3>Add a proxy</h3>
          <ProxyEditor initial={emptyForm()} busy={action.busy} onSave={(form) => write(() => post<ProxySettings>('/api/settings/proxies', proxyBody(form)), 'Proxy added')} />
          <h3>Import</h3>
          <form onSubmit={runImport}>
            <Field label="Proxies to import" hint="One per line (scheme://user:password@host:port), or a JSON array. Entries with a known server update it.">
              {(id, described) => <textarea id={id} aria-describedby={described} class="code" rows={4} spellcheck={false} value={importText}
                onInput={(e) => setImportText((e.currentTarget as HTMLTextAreaElement).value)} />}
            </Field>
            <button type="submit" class="btn" disabled={action.busy || !importText.trim()}>Import</button>
          </form>
          <h3>Rotation</h3>
          <div class="grid-3">
            <SelectField label="Default proxy" value={data.defaultProxyId}
              onValue={(id) => void write(() => post<ProxySettings>('/api/settings/proxies/rotation', { defaultProxyId: id === 'host' ? null : id }), 'Default proxy saved')}
              options={data.proxies.map((p): [string, string] => [p.id, p.id === 'host' ? 'Host IP (no proxy)' : p.label || p.server])} />
            <SelectField label="Rotation mode" value={data.rotationMode}
              onValue={(mode) => void write(() => post<ProxySettings>('/api/settings/proxies/rotation', { rotationMode: mode }), 'Rotation mode saved')}
              options={[['round-robin', 'Round robin'], ['random', 'Random']]} />
          </div>
          <CheckField label="Include the default proxy in rotation" checked={data.includeDefaultInRotation}
            onChecked={(on) => void write(() => post<ProxySettings>('/api/settings/proxies/rotation', { includeDefaultInRotation: on }), 'Rotation saved')} />
          <ProxyBlocks />
        </>
      )}
    </section>
  );
}
