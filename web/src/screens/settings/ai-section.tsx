import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../../api/client';
import { announce, confirmAction } from '../../components/dialogs';
import { ErrorBox, Loading, TextField } from '../../components/ui';
import { useLeaveGuard } from '../../lib/router';
import { useAction, useAsync } from '../../lib/use-async';

const SLOTS = [
  { slot: 'A', path: 'provider-a-api-key', field: 'providerAApiKeys', model: 'providerA', name: 'Provider A (Gemini)', secret: true },
  { slot: 'B', path: 'provider-b-api-key', field: 'providerBApiKeys', model: 'providerB', name: 'Provider B (OpenAI)', secret: true },
  { slot: 'C', path: 'provider-c-api-key', field: 'providerCApiKeys', model: 'providerC', name: 'Provider C (Anthropic)', secret: true },
  { slot: 'D', path: 'provider-d-api-key', field: 'providerDApiKeys', model: 'providerD', name: 'Provider D (self-hosted Ollama)', secret: false },
] as const;
type Slot = (typeof SLOTS)[number];
type Models = Record<'providerA' | 'providerB' | 'providerC' | 'providerD', string>;

/**
 * One slot's keys, as the server shows them (masked). Add and remove store at once: the list sent holds the
 * masked entries, which keep the stored keys they mask. Typed text not yet added is guarded against leaving.
 */
function SlotKeys(props: { slot: Slot }) {
  const { slot } = props;
  const keys = useAsync(() => get<Record<string, string[]>>(`/api/settings/${slot.path}`).then((r) => r[slot.field] ?? []), []);
  const [adding, setAdding] = useState('');
  const [note, setNote] = useState('');
  const action = useAction();
  const what = slot.secret ? 'key' : 'address';
  useLeaveGuard(adding.trim() !== '', `The ${slot.name} ${what} you typed has not been added.`);

  /** Stores `entries` as the slot's whole list; answers the stored list, or undefined (the error is shown). */
  const store = async (entries: string[]): Promise<string[] | undefined> => {
    setNote('');
    const answer = await action.run(() => post<Record<string, string[]>>(`/api/settings/${slot.path}`, { [slot.field]: entries }));
    if (!answer) return undefined;
    const stored = answer[slot.field] ?? [];
    keys.set(stored);
    return stored;
  };
  const say = (text: string) => { setNote(text); announce(text); };

  const add = async (event: Event) => {
    event.preventDefault();
    const entry = adding.trim();
    const before = keys.data;
    if (!entry || !before) return;
    const stored = await store([...before, entry]);
    if (!stored) return; // the typed text stays, to be corrected
    setAdding('');
    say(stored.length > before.length ? `${slot.name} ${what} added and saved.` : `That ${what} was already saved for ${slot.name}.`);
  };

  const remove = async (index: number) => {
    const before = keys.data ?? [];
    const ok = await confirmAction(`Remove ${slot.name} ${what} ${index + 1} (${before[index]})? It is deleted at once.`, { confirmLabel: `Remove ${what}` });
    if (ok && (await store(before.filter((_, j) => j !== index)))) say(`${slot.name} ${what} removed.`);
  };

  return (
    <div class="slot">
      <h4>{slot.name}</h4>
      <ErrorBox error={keys.error} onRetry={keys.reload} />
      {keys.loading && !keys.data && <Loading />}
      <ul class="key-list" aria-label={`${slot.name} keys`}>
        {keys.data?.length === 0 && <li class="muted">No keys: this slot is skipped.</li>}
        {keys.data?.map((entry, i) => (
          <li key={`${i}-${entry}`}>
            <code>{entry}</code>
            <button type="button" class="btn ghost icon danger-text" aria-label={`Remove ${slot.name} entry ${i + 1}`}
              disabled={action.busy} onClick={() => void remove(i)}>✕</button>
          </li>
        ))}
      </ul>
      <form class="inline-form" onSubmit={add}>
        <TextField label={slot.secret ? `New ${slot.name} key` : `New ${slot.name} address`} type={slot.secret ? 'password' : 'text'} autoComplete="off"
          value={adding} onValue={(v) => { setAdding(v); setNote(''); }} placeholder={slot.secret ? '' : 'http://ollama.example:11434 or {"url":"…","model":"…"}'} />
        <button type="submit" class="btn" disabled={action.busy || !adding.trim() || !keys.data} aria-busy={action.busy || undefined}>Add</button>
      </form>
      <ErrorBox error={action.error} what={`Saving the ${slot.name} ${what}s`} />
      <p class="muted" role="status">{note}</p>
    </div>
  );
}

/** Keys per provider (tried A, B, C, D; each key in turn) and the default models. */
export function AiSection() {
  const models = useAsync(() => get<Models>('/api/settings/ai-models'), []);
  const [form, setForm] = useState<Models | null>(null);
  const action = useAction();
  useEffect(() => { if (models.data) setForm(models.data); }, [models.data]);
  useLeaveGuard(form !== null && JSON.stringify(form) !== JSON.stringify(models.data), 'The default models you changed are not saved.');

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
