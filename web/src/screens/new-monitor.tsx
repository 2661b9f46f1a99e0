import { useState } from 'preact/hooks';
import { post, seg } from '../api/client';
import { ErrorBox, PageHeader, TextField } from '../components/ui';
import { linkClick } from '../lib/router';
import { useAction } from '../lib/use-async';

interface Made {
  task: { id: string; name: string };
  webhook?: { id: string; secret: string };
}

/**
 * "New monitor": the monitor template (`POST /api/monitors`, README "Run intelligence"). A page, the element whose
 * value is watched, how often, and where to be told of a change; the answer is a normal task, so everything else is
 * edited in the task editor.
 */
export function NewMonitorScreen() {
  const [form, setForm] = useState({ url: '', selector: '', name: '', everyMinutes: '60', webhookUrl: '' });
  const [made, setMade] = useState<Made | undefined>(undefined);
  const action = useAction();
  const set = (field: keyof typeof form) => (value: string) => setForm({ ...form, [field]: value });

  const submit = async (event: Event) => {
    event.preventDefault();
    const every = Number(form.everyMinutes);
    const body = {
      url: form.url.trim(), selector: form.selector.trim(),
      ...(form.name.trim() ? { name: form.name.trim() } : {}),
      ...(form.everyMinutes.trim() && Number.isInteger(every) ? { everyMinutes: every } : {}),
      ...(form.webhookUrl.trim() ? { webhookUrl: form.webhookUrl.trim() } : {}),
    };
    const answer = await action.run(() => post<Made>('/api/monitors', body));
    if (answer) setMade(answer);
  };

  if (made) {
    return (
      <section aria-labelledby="page-title">
        <PageHeader title="Monitor created" />
        <p>
          <a href={`/tasks/${seg(made.task.id)}`} onClick={linkClick}>{made.task.name}</a> reads the value on each run and
          compares it with the previous successful run's. Its runs show “changed” in the executions list.
        </p>
        {made.webhook && (
          <div class="notice" role="status">
            <p>Changes are sent to your webhook, signed with this secret. It is shown only now: keep it to verify the signatures.</p>
            <p><code>{made.webhook.secret}</code></p>
          </div>
        )}
        <p><a href={`/executions?taskId=${seg(made.task.id)}&changed=true`} onClick={linkClick}>Its changed runs</a></p>
      </section>
    );
  }

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="New monitor" />
      <p class="muted">Watch one value on a page (a price, a stock level, a status) and be told only when it changes.</p>
      <form class="card monitor-form" aria-label="New monitor" onSubmit={(e) => void submit(e)}>
        <TextField label="Page URL" type="url" required value={form.url} onValue={set('url')} placeholder="https://shop.example/kettle" />
        <TextField label="CSS selector of the value" required value={form.selector} onValue={set('selector')} placeholder=".price"
          hint="The element's text is the value (a form field: its value). A run fails when it is missing." />
        <TextField label="Name" value={form.name} onValue={set('name')} hint="Default: Monitor followed by the page's address" />
        <TextField label="Check every (minutes)" type="number" min={1} max={1440} value={form.everyMinutes} onValue={set('everyMinutes')} hint="Empty: no schedule, run it yourself" />
        <TextField label="Webhook URL" type="url" value={form.webhookUrl} onValue={set('webhookUrl')} hint="Optional: receives execution.changed of this monitor only" />
        <ErrorBox error={action.error} />
        <div><button type="submit" class="btn primary" disabled={action.busy}>Create monitor</button></div>
      </form>
    </section>
  );
}
