import type { Dispatcher } from 'undici';
import type { OutboundGuard } from '../../../kernel/contracts/outbound.js';
import type { ProxyChoice } from '../../settings/decorators.js';

/** The protocols a proxy may speak (decisions.md "Outbound requests"). */
const PROXY_PROTOCOLS = ['http:', 'https:', 'socks5:'];

/**
 * The dispatcher a browserless run sends its request through when the task has a proxy. The proxy's own address
 * meets the outbound rule here (the client checks the target URL of every hop). A plain-http target goes to an
 * http proxy as an absolute-form GET, as a browser does; https (and socks5) tunnel.
 */
export async function proxyDispatcher(guard: OutboundGuard, proxy: ProxyChoice): Promise<Dispatcher> {
  const server = await guard.checkUrl(proxy.server, { protocols: PROXY_PROTOCOLS });
  // undici loads with the first request (as the outbound client's does).
  const { ProxyAgent } = await import('undici');
  const token = proxy.username === undefined ? undefined
    : `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}`;
  return new ProxyAgent({ uri: server.href, proxyTunnel: false, ...(token && server.protocol !== 'socks5:' ? { token } : {}),
    ...(server.protocol === 'socks5:' && proxy.username !== undefined ? { username: proxy.username, password: proxy.password ?? '' } : {}) } as ConstructorParameters<typeof ProxyAgent>[0]);
}
