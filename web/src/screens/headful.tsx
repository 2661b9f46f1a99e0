import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { HeadfulStatus } from '../api/types';
import { Button, ErrorBox, isNotAvailable, Loading, NotAvailable, PageHeader } from '../components/ui';
import { useAction, useAsync } from '../lib/use-async';

/**
 * The headful session through noVNC. The password is fetched when the viewer opens and handed to noVNC in the
 * URL fragment (never sent to a server, never shown on the page).
 */
export function HeadfulScreen() {
  const status = useAsync(() => get<HeadfulStatus>('/api/headful/status'), []);
  const [viewer, setViewer] = useState<string | null>(null);
  const action = useAction();

  const open = async () => {
    const answer = await action.run(() => get<{ password: string }>('/api/headful/vnc-password'));
    if (!answer || !status.data?.novncPort) return;
    const params = new URLSearchParams({ autoconnect: 'true', resize: 'scale', reconnect: 'true' });
    const fragment = new URLSearchParams({ password: answer.password });
    setViewer(`${location.protocol}//${location.hostname}:${status.data.novncPort}/vnc.html?${params}#${fragment}`);
  };
  const browser = async (what: 'open' | 'close') => {
    if (await action.run(() => post(`/api/browser/${what}`, what === 'open' ? { headless: false } : {}))) status.reload();
  };

  if (isNotAvailable(status.error)) return <section><PageHeader title="Headful browser" /><NotAvailable what="The headful session" /></section>;
  const s = status.data;
  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Headful browser">
        <Button onClick={status.reload}>Refresh</Button>
        {s?.useNovnc && <Button onClick={() => void browser(s.isRunning ? 'close' : 'open')}>{s.isRunning ? 'Close browser' : 'Open browser'}</Button>}
      </PageHeader>
      <ErrorBox error={status.error} onRetry={status.reload} />
      <ErrorBox error={action.error} what="The headful session" />
      {status.loading && !s && <Loading />}
      {s && !s.useNovnc && (
        <p class="notice">The noVNC viewer is off. Start the service with <code>USE_NOVNC=true</code> (and optionally <code>NOVNC_PORT</code>) to watch headful runs here.</p>
      )}
      {s?.useNovnc && (
        <>
          <p>Session: <strong>{s.isRunning ? 'running' : 'not running'}</strong> · noVNC on port {s.novncPort}</p>
          {viewer
            ? <>
                <Button variant="ghost" onClick={() => setViewer(null)}>Hide viewer</Button>
                <iframe class="vnc" src={viewer} title="Headful browser (noVNC)" allow="clipboard-read; clipboard-write" />
              </>
            : <Button variant="primary" busy={action.busy} onClick={() => void open()}>Show viewer</Button>}
        </>
      )}
    </section>
  );
}
