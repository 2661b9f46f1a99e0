import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../../api/client';
import { announce } from '../../components/dialogs';
import { Button, ErrorBox, Loading, TextField } from '../../components/ui';
import { useAction, useAsync } from '../../lib/use-async';

const SLOTS = [
  { slot: 'A', path: 'provider-a-api-key', field: 'providerAApiKeys', model: 'providerA', name: 'Provider A (Gemini)', secret: true },
  { slot: 'B', path: 'provider-b-api-key', field: 'providerBApiKeys', model: 'providerB', name: 'Provider B (OpenAI)', secret: true },
  { slot: 'C', path: 'provider-c-api-key', field: 'providerCApiKeys', model: 'providerC', name: 'Provider C (Anthropic)', secret: true },
  { slot: 'D', path: 'provider-d-api-key', field: 'providerDApiKeys', model: 'providerD', name: 'Provider D (self-hosted Ollama)', secret: false },
] as const;
type Slot = (typeof SLOTS)[number];
type Models = Record<'providerA' | 'providerB' | 'providerC' | 'providerD', string>;

/** One slot's keys: masked entries as the server shows them (sent back as is, they keep the stored key). */
function SlotKeys(props: { slot: Slot }) {
  const { slot } = props;
  const keys = useAsync(() => get<Record<string, string[]>>(`/api/settings/${slot.path}`).then((r) => r[slot.field] ?? []), []);
  const [entries, setEntries] = useState<string[]>([]);
  const [adding, setAdding] = useState('');
  const action = useAction();
  useEffect(() => { if (keys.data) setEntries(keys.data); }, [keys.data]);
  const dirty = JSON.stringify(entries) !== JSON.stringify(keys.data ?? []);

  const save = async () => {
    const answer = await action.run(() => post<Record<string, string[]>>(`/api/settings/${slot.path}`, { [slot.field]: entries }));
    if (answer) {
      keys.set(answer[slot.field] ?? []);
      announce(`${slot.name} keys saved`);
    }
  };

  return (
    <div class="slot">
      <h4>{slot.name}</h4>
      <ErrorBox error={keys.error} onRetry={keys.reload} />
      {keys.loading && !keys.data && <Loading />}
      <ul class="key-list" aria-label={`${slot.name} keys`}>
        {entries.length === 0 && <li class="muted">No keys: this slot is skipped.</li>}
        {entries.map((entry, i) => (
          <li key={`${i}-${entry}`}>
            <code>{entry}</code>
            <button type="button" class="btn ghost icon danger-text" aria-label={`Remove ${slot.name} entry ${i + 1}`} onClick={() => setEntries(entries.filter((_, j) => j !== i))}>✕</button>
          </li>
        ))}
      </ul>
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); if (adding.trim()) { setEntries([...entries, adding.trim()]); setAdding(''); } }}>
        <TextField label={slot.secret ? `New ${slot.name} key` : `New ${slot.name} address`} type={slot.secret ? 'password' : 'text'} autoComplete="off"
          value={adding} onValue={setAdding} placeholder={slot.secret ? '' : 'http://ollama.example:11434 or {"url":"…","model":"…"}'} />
        <button type="submit" class="btn" disabled={!adding.trim()}>Add</button>
      </form>
      <ErrorBox error={action.error} />
      {dirty && <Button variant="primary" busy={action.busy} onClick={() => void save()}>Save {slot.name} keys</Button>}
    </div>
  );
}

/** Keys per provider (tried A, B, C, D; each key in turn) and the default models. */
export function AiSection() {
  const models = useAsync(() => get<Models>('/api/settings/ai-models'), []);
  const [form, setForm] = useState<Models | null>(null);
  const action = useAction();
  useEffect(() => { if (models.data) setForm(models.data); }, [models.data]);

  const saveModels = async (event: Event) => {
    event.preventDefault();
    if (!form) return;
    const answer = await action.run(() => post<Models>('/api/settings/ai-models', form));
    if (answer) {
      models.set(answer);
      announce('Default models saved');
    }
  };

  return (
    <section id="ai" class="card" aria-labelledby="ai-title">
      <h2 id="ai-title">AI providers</h2>
      <p class="hint">Used to generate selectors and extraction scripts. Slots are tried in order A, B, C, D; inside a slot every key is tried in turn. Keys are shown masked.</p>
      <h3>Keys</h3>
      <div class="slots">{SLOTS.map((slot) => <SlotKeys key={slot.slot} slot={slot} />)}</div>
      <h3>Default models</h3>
      <ErrorBox error={models.error} onRetry={models.reload} />
      {form && (
        <form onSubmit={saveModels}>
          <div class="grid-2">
            {SLOTS.map((slot) => (
              <TextField key={slot.model} label={`${slot.name} model`} value={form[slot.model]} required
                onValue={(v) => setForm({ ...form, [slot.model]: v })} />
            ))}
          </div>
          <ErrorBox error={action.error} />
          <button type="submit" class="btn primary" disabled={action.busy}>Save models</button>
        </form>
      )}
    </section>
  );
}
