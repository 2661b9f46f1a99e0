import { get } from '../../api/client';
import { Button, ErrorBox } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

/** One site and proxy as GET /api/settings/proxies/blocks answers it. */
interface ProxyBlock {
  site: string;
  proxy: string;
  proxyId?: string;
  label?: string;
  runs: number;
  blocks: number;
  blockRate: number;
  blockedUntil?: string;
}

const percent = (rate: number) => `${Math.round(rate * 100)} %`;

/** Bot walls per site and proxy of rotated runs, and the blocks cooling down (this instance, since it started). */
export function ProxyBlocks() {
  const blocks = useAsync(() => get<{ coolDownMs: number; blocks: ProxyBlock[] }>('/api/settings/proxies/blocks'), []);
  const data = blocks.data;
  return (
    <div class="proxy-blocks">
      <h3>Bot walls by site</h3>
      <ErrorBox error={blocks.error} onRetry={blocks.reload} />
      {data && (
        <p class="muted">
          A rotated run that meets a bot wall blocks its proxy for that site for {Math.round(data.coolDownMs / 60_000)} min and runs again through another.{' '}
          <Button variant="ghost" onClick={blocks.reload}>Refresh</Button>
        </p>
      )}
      {data && data.blocks.length === 0 && <p class="muted">No rotated runs yet.</p>}
      {data && data.blocks.length > 0 && (
        <div class="table-wrap">
          <table class="data-table">
            <caption class="sr-only">Bot walls by site and proxy</caption>
            <thead><tr><th scope="col">Site</th><th scope="col">Proxy</th><th scope="col">Runs</th><th scope="col">Walls</th><th scope="col">Block rate</th><th scope="col">Blocked until</th></tr></thead>
            <tbody>
              {data.blocks.map((b) => (
                <tr key={`${b.site} ${b.proxy}`}>
                  <th scope="row">{b.site}</th>
                  <td>{b.proxy === 'host' ? 'Host IP (no proxy)' : b.label || b.proxy}</td>
                  <td>{b.runs}</td>
                  <td>{b.blocks}</td>
                  <td>{percent(b.blockRate)}</td>
                  <td>{b.blockedUntil ? formatDate(b.blockedUntil) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
