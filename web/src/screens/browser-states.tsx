import { useState } from 'preact/hooks';
import { del, get, post, seg } from '../api/client';
import type { BrowserState } from '../api/types';
import { announce, confirmAction } from '../components/dialogs';
import { Button, Empty, ErrorBox, isNotAvailable, Loading, NotAvailable, PageHeader, TextField } from '../components/ui';
import { formatDate, formatSize } from '../lib/format';
import { useAction, useAsync } from '../lib/use-async';

/** Named browser states (README "Browser states"): summaries only, delete, and save one from the open browser session. */
export function BrowserStatesScreen() {
  const list = useAsync(() => get<{ states: BrowserState[] }>('/api/browser-states').then((r) => r.states), []);
  const action = useAction();
  const [name, setName] = useState('');
  const [sessionId, setSessionId] = useState('');

  const remove = async (state: BrowserState) => {
    if (!(await confirmAction(`Delete the browser state ${state.name}? Tasks that use it will fail until it is saved again.`, { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/browser-states/${seg(state.name)}`))) { announce(`Deleted ${state.name}`); list.reload(); }
  };
  // Opens the managed browser, or answers the one already open (there is at most one): its id is the session to save from.
  const findSession = async () => {
    const answer = await action.run(() => post<{ sessionId: string }>('/api/browser/open', { headless: false }));
    if (answer) setSessionId(answer.sessionId);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const saved = await action.run(() => post<BrowserState>('/api/browser-states', { name, fromSession: sessionId }));
    if (saved) { announce(`Saved ${saved.name}: ${saved.cookieCount} cookies`); setName(''); list.reload(); }
  };

  if (isNotAvailable(list.error)) return <section><PageHeader title="Browser states" /><NotAvailable what="Browser states" /></section>;
  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Browser states"><Button onClick={list.reload}>Refresh</Button></PageHeader>
      <p class="hint">A login kept under a name: the cookies and local storage of a browser. Tasks and runs choose one to start logged in. Contents are never shown.</p>
      <ErrorBox error={list.error} onRetry={list.reload} />
      <ErrorBox error={action.error} what="Browser states" />
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.length === 0 && <Empty>No browser states saved yet.</Empty>}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table class="data-table">
            <caption class="sr-only">Browser states</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Sites</th><th scope="col">Cookies</th><th scope="col">Size</th><th scope="col">Saved from</th><th scope="col">Updated</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {list.data.map((state) => (
                <tr key={state.name}>
                  <th scope="row"><code>{state.name}</code></th>
                  <td class="url">{state.origins.join(', ') || '—'}</td>
                  <td>{state.cookieCount}</td>
                  <td>{formatSize(state.sizeBytes)}</td>
                  <td>{state.source ?? '—'}</td>
                  <td>{formatDate(state.updatedAt)}</td>
                  <td class="row-actions">
                    <Button variant="ghost" class="danger-text" aria-label={`Delete ${state.name}`} onClick={() => void remove(state)}>Delete</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="card" onSubmit={(e) => void save(e)} aria-labelledby="save-state-title">
        <h2 id="save-state-title">Save from a live session</h2>
        <p class="hint">Log in by hand in the browser session (the Headful view, or any client of <code>POST /api/browser/open</code>), then save what it holds under a name. A state of the same name is replaced.</p>
        <TextField label="Name" value={name} onValue={setName} required maxLength={64} hint="Letters, digits, '.', '_' and '-'" />
        <TextField label="Browser session" value={sessionId} onValue={setSessionId} required maxLength={256} hint="The sessionId of the open browser session" />
        <div class="row-actions">
          <Button onClick={() => void findSession()} busy={action.busy}>Use the open session</Button>
          <button type="submit" class="btn primary" disabled={action.busy || !name || !sessionId} aria-busy={action.busy || undefined}>Save state</button>
        </div>
      </form>
    </section>
  );
}
