import crypto from 'node:crypto';
import { Errors } from '../../kernel/errors.js';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import type { ProxyEntry } from './entries.js';
import type { ProxyInput } from './schemas.js';

/** What every response shows instead of a stored password; sent back, it keeps the stored one. */
export const PASSWORD_MASK = '********';
export const HOST_ID = 'host';
export const HOST_ENTRY = { id: HOST_ID, server: 'host_ip', label: 'Host IP (no proxy)' } as const;
export const PROXY_PROTOCOLS = ['http:', 'https:', 'socks5:'] as const;

/** A checked proxy without its id. `password` may still be the mask, resolved against a stored proxy. */
export type ProxyFields = Omit<ProxyEntry, 'id'>;

export const newProxyId = () => 'px_' + crypto.randomBytes(9).toString('base64url');

/** True for the built-in entry as a client may send it back (an exported list imported again). */
export const isHostEntry = (input: ProxyInput) => input.id === HOST_ID || input.server.trim() === HOST_ENTRY.server;

const decode = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * Turns a submitted proxy into stored fields: the server becomes `scheme://host[:port]` (no scheme means
 * http; credentials written into it move to `username`/`password` unless those are given), empty strings
 * are dropped, and the address passes the outbound guard (400 INVALID_URL). `where` names the entry.
 */
export async function checkProxyInput(input: ProxyInput, guard: OutboundGuard, where = 'body'): Promise<ProxyFields> {
  const raw = input.server.trim();
  let url: URL;
  try {
    url = await guard.check(raw.includes('://') ? raw : `http://${raw}`, {
      protocols: PROXY_PROTOCOLS,
      errorAs: Errors.INVALID_URL,
    });
  } catch (error) {
    throw Errors.INVALID_URL.is(error) ? Errors.INVALID_URL({ reason: `${where}.server: ${error.message}` }) : error;
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw Errors.INVALID_URL({ reason: `${where}.server has a path or query: write a proxy as scheme://host:port` });
  }
  const fields: ProxyFields = { server: `${url.protocol}//${url.host}` };
  const username = input.username ?? decode(url.username);
  const password = input.password ?? decode(url.password);
  const label = input.label?.trim();
  if (username) fields.username = username;
  if (password) fields.password = password;
  if (label) fields.label = label;
  if (input.isRotatingPool !== undefined) fields.isRotatingPool = input.isRotatingPool;
  if (input.estimatedPoolSize !== undefined) fields.estimatedPoolSize = input.estimatedPoolSize;
  return fields;
}

/** `fields` with a masked password replaced by `stored`'s (or dropped when there is none). */
export function keepMaskedPassword(fields: ProxyFields, stored: ProxyEntry | undefined): ProxyFields {
  if (fields.password !== PASSWORD_MASK) return fields;
  const { password: _mask, ...rest } = fields;
  return stored?.password === undefined ? rest : { ...rest, password: stored.password };
}

/** A stored proxy as answered: the password, when there is one, is the mask. */
export function maskProxy(proxy: ProxyEntry): ProxyEntry {
  return proxy.password === undefined ? { ...proxy } : { ...proxy, password: PASSWORD_MASK };
}
