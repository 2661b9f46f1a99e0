import { useState } from 'preact/hooks';
import { get, post } from '../../api/client';
import { confirmAction } from '../../components/dialogs';
import { Button, ErrorBox, Loading } from '../../components/ui';
import { useAction, useAsync } from '../../lib/use-async';
import { copyText } from '../../lib/copy';

/** The system API key: generated here, shown this once (it is stored only as a hash). */
export function ApiKeySection() {
  const status = useAsync(() => get<{ configured: boolean; preview: string | null }>('/api/settings/api-key'), []);
  const [fresh, setFresh] = useState<string | null>(null);
  const action = useAction();

  const generate = async () => {
    if (status.data?.configured && !(await confirmAction('Generate a new API key? The current key stops working at once.', { confirmLabel: 'Generate new key' }))) return;
    const answer = await action.run(() => post<{ apiKey: string }>('/api/settings/api-key'));
    if (answer) {
      setFresh(answer.apiKey);
      status.reload();
    }
  };
  const copy = async () => {
    if (fresh) await copyText(fresh, 'API key');
  };

  return (
    <section id="api-key" class="card" aria-labelledby="api-key-title">
      <h2 id="api-key-title">System API key</h2>
      <p class="hint">External callers send it as <code>x-api-key</code> (or <code>Authorization: Bearer</code>).</p>
      <ErrorBox error={status.error} onRetry={status.reload} />
      {status.loading && !status.data && <Loading />}
      {status.data && (
        <p>{status.data.configured ? <>A key is set{status.data.preview && <> (<code>{status.data.preview}</code>)</>}.</> : 'No key yet.'}</p>
      )}
      {fresh && (
        <div class="secret-once" role="region" aria-labelledby="fresh-key-label">
          <label id="fresh-key-label" for="fresh-key">Your new API key: copy it now, it will not be shown again</label>
          <div class="input-with-button">
            <input id="fresh-key" readOnly value={fresh} spellcheck={false} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
            <Button onClick={() => void copy()}>Copy</Button>
            <Button variant="ghost" onClick={() => setFresh(null)}>Done</Button>
          </div>
        </div>
      )}
      <ErrorBox error={action.error} />
      <Button variant="primary" busy={action.busy} onClick={() => void generate()}>{status.data?.configured ? 'Generate a new key' : 'Generate a key'}</Button>
    </section>
  );
}
