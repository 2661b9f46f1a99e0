import type { BrowserCookie } from '../../kernel/contracts/browser.js';
import type { CdpConnection, CookieStore, WithCdp } from '../../kernel/contracts/browser-pool.js';

const CDP_MS = 5000;

interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  session?: boolean;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/**
 * The cookies of the browser's own window (its default context, where a person logs in over VNC), as the
 * pool's cookie store: a run in the session starts with them and its changes go back, so a login done by
 * hand carries into the task and what the task changes is what the person then sees.
 */
export function windowCookieStore({ withCdp }: { withCdp: WithCdp }): CookieStore {
  return {
    get: () => withCdp(CDP_MS, async (cdp) => (await read(cdp)).map(fromCdp)),
    update: (change) => withCdp(CDP_MS, async (cdp) => {
      const current = new Map((await read(cdp)).map((c) => [cookieKey(c), fromCdp(c)]));
      const next = change([...current.values()]);
      const wanted = new Set(next.map(cookieKey));
      const changed = next.filter((c) => !same(current.get(cookieKey(c)), c));
      // Writing a cookie that has already expired deletes the stored one.
      const removed = [...current.values()].filter((c) => !wanted.has(cookieKey(c))).map((c) => ({ ...c, expires: 1 }));
      if (changed.length + removed.length === 0) return;
      await cdp.send('Storage.setCookies', { cookies: [...removed, ...changed].map(toCdp) });
    }),
  };
}

const cookieKey = (c: Pick<BrowserCookie, 'name' | 'domain' | 'path'>) => `${c.name}\u0000${c.domain}\u0000${c.path}`;

async function read(cdp: CdpConnection): Promise<CdpCookie[]> {
  // No browserContextId: the default context.
  return (await cdp.send<{ cookies: CdpCookie[] }>('Storage.getCookies')).cookies;
}

function fromCdp(c: CdpCookie): BrowserCookie {
  const cookie: BrowserCookie = {
    name: c.name, value: c.value, domain: c.domain, path: c.path,
    expires: c.session || !(c.expires > 0) ? -1 : c.expires,
    httpOnly: c.httpOnly ?? false, secure: c.secure ?? false,
  };
  if (c.sameSite) cookie.sameSite = c.sameSite;
  return cookie;
}

/** A host-only cookie (no leading dot) is written through a URL: a `domain` would widen it to subdomains. */
function toCdp(c: BrowserCookie): Record<string, unknown> {
  const where = c.domain.startsWith('.')
    ? { domain: c.domain, path: c.path }
    : { url: `${c.secure ? 'https' : 'http'}://${c.domain}${c.path}`, path: c.path };
  return {
    name: c.name, value: c.value, ...where, httpOnly: c.httpOnly ?? false, secure: c.secure ?? false,
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    ...(c.expires > 0 ? { expires: c.expires } : {}),
  };
}

function same(a: BrowserCookie | undefined, b: BrowserCookie): boolean {
  return a !== undefined && a.value === b.value && Math.round(a.expires) === Math.round(b.expires) &&
    Boolean(a.httpOnly) === Boolean(b.httpOnly) && Boolean(a.secure) === Boolean(b.secure) && a.sameSite === b.sameSite;
}
