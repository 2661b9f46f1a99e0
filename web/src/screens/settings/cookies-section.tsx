import { del, get, seg } from '../../api/client';
import type { Cookie } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, Empty, ErrorBox, Loading } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';

/** The browser profile's cookies (values masked by the server): clear one domain or all. */
export function CookiesSection() {
  const list = useAsync(() => get<{ cookies: Cookie[] }>('/api/data/cookies').then((r) => r.cookies), []);
  const action = useAction();
  const domains = [...new Set((list.data ?? []).map((c) => c.domain.replace(/^\./, '')))].sort();

  const clearDomain = async (domain: string) => {
    if (!(await confirmAction(`Delete the cookies of ${domain}?`, { confirmLabel: 'Delete' }))) return;
    const answer = await action.run(() => del<{ deleted: number }>(`/api/data/cookies/${seg(domain)}`));
    if (answer) { announce(`Deleted ${answer.deleted} cookies`); list.reload(); }
  };
  const clearAll = async () => {
    if (!(await confirmAction('Delete every stored cookie? Sites will see a new browser.', { confirmLabel: 'Delete all' }))) return;
    const answer = await action.run(() => del<{ deleted: number }>('/api/data/cookies'));
    if (answer) { announce(`Deleted ${answer.deleted} cookies`); list.reload(); }
  };

  return (
    <section id="cookies" class="card" aria-labelledby="cookies-title">
      <h2 id="cookies-title">Cookies</h2>
      <p class="hint">Runs keep their cookies between runs unless started with <code>statelessExecution</code>. Values are never shown.</p>
      <ErrorBox error={list.error} onRetry={list.reload} />
      <ErrorBox error={action.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.length === 0 && <Empty>No cookies stored.</Empty>}
      {domains.length > 0 && (
        <>
          <ul class="cookie-domains">
            {domains.map((domain) => {
              const cookies = (list.data ?? []).filter((c) => c.domain.replace(/^\./, '') === domain);
              return (
                <li key={domain}>
                  <details>
                    <summary><strong>{domain}</strong> <span class="muted">({cookies.length})</span></summary>
                    <ul class="compact">{cookies.map((c) => <li key={`${c.name}${c.path}${c.domain}`}><code>{c.name}</code> {c.path} · {c.expires > 0 ? `expires ${formatDate(c.expires * 1000)}` : 'session'}</li>)}</ul>
                  </details>
                  <Button variant="ghost" class="danger-text" aria-label={`Delete the cookies of ${domain}`} onClick={() => void clearDomain(domain)}>Delete</Button>
                </li>
              );
            })}
          </ul>
          <Button variant="danger" onClick={() => void clearAll()}>Delete all cookies</Button>
        </>
      )}
    </section>
  );
}
