import { useState } from 'preact/hooks';
import { del, get, patch, post, seg } from '../../api/client';
import { EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, CheckField, Empty, ErrorBox, Loading, SelectField, StatusBadge, TextField } from '../../components/ui';
import { copyText } from '../../lib/copy';
import { formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';

/** A signing secret, shown this once (created or rotated). */
function FreshSecret(props: { secret: string; onDone: () => void }) {
  return (
    <div class="secret-once" role="region" aria-labelledby="fresh-webhook-secret-label">
      <label id="fresh-webhook-secret-label" for="fresh-webhook-secret">Signing secret: copy it now, it will not be shown again</label>
      <div class="input-with-button">
        <input id="fresh-webhook-secret" readOnly value={props.secret} spellcheck={false} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <Button onClick={() => void copyText(props.secret, 'Signing secret')}>Copy</Button>
        <Button variant="ghost" onClick={props.onDone}>Done</Button>
      </div>
    </div>
  );
}

function EndpointForm(props: { busy: boolean; onSave: (body: { url: string; events: string[]; taskIds?: string[] }) => Promise<boolean> }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['execution.succeeded', 'execution.failed']);
  const [tasks, setTasks] = useState('');
  const toggle = (event: string, on: boolean) => setEvents(on ? [...events, event] : events.filter((e) => e !== event));
  const submit = async (e: Event) => {
    e.preventDefault();
    const taskIds = tasks.split(',').map((t) => t.trim()).filter(Boolean);
    if (await props.onSave({ url, events, ...(taskIds.length ? { taskIds } : {}) })) { setUrl(''); setTasks(''); }
  };
  return (
    <form class="webhook-form" onSubmit={submit}>
      <TextField label="Endpoint URL" type="url" value={url} onValue={setUrl} required placeholder="https://hooks.example.com/taskloom" />
      <fieldset>
        <legend>Events</legend>
        <div class="grid-3">{EVENT_TYPES.map((event) => <CheckField key={event} label={event} checked={events.includes(event)} onChecked={(on) => toggle(event, on)} />)}</div>
      </fieldset>
      <TextField label="Only these task ids (optional)" value={tasks} onValue={setTasks} placeholder="task_abc, task_def" hint="Comma-separated; empty: every task." />
      <div class="actions-row"><button type="submit" class="btn primary" disabled={props.busy || events.length === 0}>Add endpoint</button></div>
    </form>
  );
}

function Deliveries(props: { endpoints: WebhookEndpoint[]; version: number }) {
  const [status, setStatus] = useState('');
  const list = useAsync(() => get<{ deliveries: WebhookDelivery[] }>(`/api/webhooks/deliveries?limit=50${status ? `&status=${status}` : ''}`), [status, props.version]);
  const action = useAction();
  const redeliver = async (d: WebhookDelivery) => {
    if (await action.run(() => post(`/api/webhooks/deliveries/${seg(d.id)}/redeliver`))) { announce('Delivery queued again'); list.reload(); }
  };
  return (
    <div class="webhook-deliveries">
      <div class="row-between">
        <h3>Deliveries</h3>
        <div class="row-actions">
          <SelectField label="Status" value={status} onValue={setStatus} options={[['', 'All'], ['pending', 'Pending'], ['delivered', 'Delivered'], ['failed', 'Failed']]} />
          <Button variant="ghost" onClick={list.reload}>Refresh</Button>
        </div>
      </div>
      <ErrorBox error={list.error} onRetry={list.reload} />
      <ErrorBox error={action.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.deliveries.length === 0 && <Empty>No deliveries yet.</Empty>}
      {list.data && list.data.deliveries.length > 0 && (
        <div class="table-wrap"><table class="data-table" aria-label="Webhook deliveries">
          <thead><tr><th>Event</th><th>Receiver</th><th>Status</th><th>Attempts</th><th>Last answer</th><th>Created</th><th><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {list.data.deliveries.map((d) => {
              const last = d.attempts.at(-1);
              return (
                <tr key={d.id}>
                  <td><code>{d.event}</code></td>
                  <td class="muted url">{d.target}</td>
                  <td><StatusBadge status={d.status} /></td>
                  <td>{d.attempts.length}</td>
                  <td title={last?.excerpt}>{last ? `${last.statusCode ?? last.error ?? ''} · ${last.latencyMs} ms` : '—'}</td>
                  <td>{formatDate(d.createdAt)}</td>
                  <td><Button variant="ghost" aria-label={`Redeliver ${d.id}`} onClick={() => void redeliver(d)}>Redeliver</Button></td>
                </tr>
              );
            })}
          </tbody>
        </table></div>
      )}
    </div>
  );
}

/** Webhook endpoints (signed event deliveries) and the delivery log. */
export function WebhooksSection() {
  const list = useAsync(() => get<{ endpoints: WebhookEndpoint[] }>('/api/webhooks'), []);
  const [fresh, setFresh] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const action = useAction();
  const changed = () => { list.reload(); setVersion(version + 1); };

  const create = async (body: { url: string; events: string[]; taskIds?: string[] }) => {
    const saved = await action.run(() => post<WebhookEndpoint>('/api/webhooks', body));
    if (saved) { setFresh(saved.secret); announce('Webhook endpoint added'); changed(); }
    return saved !== undefined;
  };
  const rotate = async (e: WebhookEndpoint) => {
    if (!(await confirmAction('Make a new signing secret? The current one keeps signing for 24 hours.', { confirmLabel: 'Rotate secret' }))) return;
    const saved = await action.run(() => post<WebhookEndpoint>(`/api/webhooks/${seg(e.id)}/rotate-secret`, {}));
    if (saved) { setFresh(saved.secret); changed(); }
  };
  const toggle = async (e: WebhookEndpoint, enabled: boolean) => {
    if (await action.run(() => patch(`/api/webhooks/${seg(e.id)}`, { enabled }))) changed();
  };
  const test = async (e: WebhookEndpoint) => {
    if (await action.run(() => post(`/api/webhooks/${seg(e.id)}/test`))) { announce('Test event sent'); changed(); }
  };
  const remove = async (e: WebhookEndpoint) => {
    if (!(await confirmAction(`Delete the webhook endpoint ${e.url}? Its pending deliveries fail.`, { confirmLabel: 'Delete' }))) return;
    if (await action.run(() => del(`/api/webhooks/${seg(e.id)}`))) { announce('Webhook endpoint deleted'); changed(); }
  };

  return (
    <section id="webhooks" class="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p class="hint">Events are signed (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) and retried for 24 hours.</p>
      <ErrorBox error={list.error} onRetry={list.reload} />
      <ErrorBox error={action.error} />
      {fresh && <FreshSecret secret={fresh} onDone={() => setFresh(null)} />}
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.endpoints.length === 0 && <Empty>No webhook endpoints yet.</Empty>}
      <ul class="credential-list">
        {(list.data?.endpoints ?? []).map((e) => (
          <li key={e.id} class="subcard">
            <div class="row-between">
              <div>
                <strong class="url">{e.url}</strong> <span class="muted">secret {e.secret}</span>
                <div>{e.events.map((event) => <span key={event} class="badge">{event}</span>)}</div>
              </div>
              <div class="row-actions">
                <CheckField label="Enabled" checked={e.enabled} onChecked={(on) => void toggle(e, on)} />
                <Button variant="ghost" aria-label={`Send a test event to ${e.url}`} onClick={() => void test(e)}>Send test</Button>
                <Button variant="ghost" aria-label={`Rotate the secret of ${e.url}`} onClick={() => void rotate(e)}>Rotate secret</Button>
                <Button variant="ghost" class="danger-text" aria-label={`Delete ${e.url}`} onClick={() => void remove(e)}>Delete</Button>
              </div>
            </div>
          </li>
        ))}
      </ul>
      <h3>Add an endpoint</h3>
      <EndpointForm busy={action.busy} onSave={create} />
      <Deliveries endpoints={list.data?.endpoints ?? []} version={version} />
    </section>
  );
}
