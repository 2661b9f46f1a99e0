import path from 'node:path';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import { OutboundBlockedError } from '../../kernel/outbound/index.js';
import type { Check } from './devtools-policy.js';

export interface CheckContext {
  /** The session's downloads folder (absolute), owned by the browser's user. */
  downloadsDir: string;
  guard: OutboundGuard;
  /** Sessions attached to a page of the browser's own interface (see internalTarget): kept by the relay. */
  internalSessions: Set<string>;
}

/**
 * A target of the browser's own interface (the omnibox popup, a chrome: or devtools: page) runs with bindings
 * into the browser a web page lacks: a client may see it, not drive it.
 */
export function internalTarget(info: { type?: unknown; url?: unknown } | undefined): boolean {
  if (!info) return false;
  return info.type === 'browser_ui' || (typeof info.url === 'string' && /^(chrome|chrome-untrusted|chrome-search|chrome-extension|devtools|view-source|file):/i.test(info.url));
}

export type Params = Record<string, unknown>;
/** Resolves to why the message is refused, or undefined once `params` is fit to forward (perhaps rewritten). */
export type CheckFn = (params: Params, context: CheckContext) => Promise<string | undefined>;

// Playwright's connectOverCDP points downloads at a folder of its own machine (mkdtemp of this prefix).
const PLAYWRIGHT_ARTIFACTS = /^playwright-artifacts-[A-Za-z0-9]{6}$/;
const DOWNLOADS_ONLY = 'downloads go to the session\'s own folder only: give a relative downloadPath (it is made inside it)';

/** A path inside the downloads folder (relative ones are taken from it), else undefined. */
function inDownloads(raw: unknown, context: CheckContext): string | undefined {
  if (typeof raw !== 'string' || raw === '' || raw.includes('\0')) return undefined;
  const resolved = path.resolve(context.downloadsDir, raw);
  return resolved === context.downloadsDir || resolved.startsWith(context.downloadsDir + path.sep) ? resolved : undefined;
}

const downloads: CheckFn = async (params, context) => {
  const behavior = params.behavior;
  if (behavior === 'deny') {
    delete params.downloadPath;
    return undefined;
  }
  // `default` is the browser's own Downloads folder, outside the session's: downloads are allowed into the latter.
  if (behavior === 'default') params.behavior = 'allow';
  else if (behavior !== 'allow' && behavior !== 'allowAndName') return `behavior ${String(behavior)} is not one this relay knows`;
  const raw = params.downloadPath;
  const isPlaywrights = typeof raw === 'string' && path.isAbsolute(raw) && PLAYWRIGHT_ARTIFACTS.test(path.basename(raw));
  const inside = raw === undefined || behavior === 'default' || isPlaywrights ? context.downloadsDir : inDownloads(raw, context);
  if (inside === undefined) return DOWNLOADS_ONLY;
  params.downloadPath = inside;
  return undefined;
};

const files: CheckFn = async (params, context) => {
  const holder = (params.data !== undefined ? params.data : params) as Params | undefined;
  const list = holder?.files;
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return 'files must be a list';
  const inside = list.map((file) => inDownloads(file, context));
  if (inside.some((file) => file === undefined)) return 'files come from the session\'s own downloads folder only';
  holder!.files = inside;
  return undefined;
};

/** Refusal for an http(s) URL the outbound rule does not allow, else undefined. */
async function outboundRefusal(url: string, context: CheckContext): Promise<string | undefined> {
  try {
    await context.guard.checkUrl(url);
    return undefined;
  } catch (error) {
    if (error instanceof OutboundBlockedError) return error.reason;
    throw error;
  }
}

const NAVIGABLE = 'pages here open http, https, data:, blob: and about:blank';

const navigation: CheckFn = async (params, context) => {
  const raw = params.url === '' ? 'about:blank' : params.url;
  if (typeof raw !== 'string') return 'url must be a string';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a valid absolute URL';
  }
  // Chromium reads the URL as parsed here, so no spelling can mean one thing to this check and another to it.
  params.url = url.href;
  switch (url.protocol) {
    case 'http:':
    case 'https:':
      return outboundRefusal(url.href, context);
    case 'data:':
      return undefined;
    case 'about:':
      // about:version and the like are chrome: pages under another name.
      return ['blank', 'srcdoc'].includes(url.pathname) ? undefined : `${url.protocol}${url.pathname} is not allowed: ${NAVIGABLE}`;
    case 'blob:': {
      const inner = url.pathname.split('/')[0];
      return inner === 'null' || /^https?:$/.test(inner!) ? undefined : `a blob: of ${inner} is not allowed: ${NAVIGABLE}`;
    }
    default:
      return `scheme ${url.protocol.replace(/:$/, '')} is not allowed: ${NAVIGABLE}`;
  }
};

const networkUrl: CheckFn = async (params, context) => {
  if (params.url === undefined) return undefined;
  if (typeof params.url !== 'string') return 'url must be a string';
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    return 'url is not a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `scheme ${url.protocol.replace(/:$/, '')} is not allowed: use http or https`;
  params.url = url.href;
  return outboundRefusal(url.href, context);
};

const PROXY_SCHEMES = ['http:', 'https:', 'socks:', 'socks4:', 'socks5:'];

const browserContext: CheckFn = async (params, context) => {
  const origins = params.originsWithUniversalNetworkAccess;
  if (Array.isArray(origins) ? origins.length > 0 : origins !== undefined) {
    return 'originsWithUniversalNetworkAccess lifts the same-origin rule, which no client here needs';
  }
  const proxy = params.proxyServer;
  if (proxy === undefined || proxy === '') {
    delete params.proxyBypassList; // nothing to bypass without a proxy of its own
    return undefined;
  }
  // One proxy for everything (Chromium's per-scheme lists and direct:// are not accepted).
  if (typeof proxy !== 'string' || !/^([a-z0-9]+:\/\/)?[^\s;,=/]+\/?$/i.test(proxy)) return 'proxyServer must be one proxy: scheme://host:port';
  let refusal: string | undefined;
  try {
    const url = await context.guard.checkUrl(proxy.includes('://') ? proxy : `http://${proxy}`, { protocols: PROXY_SCHEMES });
    // Pinned to the address just checked, so the name cannot resolve to the loopback when Chromium dials it
    // (an https proxy keeps its name: its certificate is checked against it).
    if (!context.guard.allowPrivateNetworks && url.protocol !== 'https:') {
      const [first] = await context.guard.resolve(url.hostname);
      const host = first!.family === 6 ? `[${first!.address}]` : first!.address;
      params.proxyServer = `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`;
    }
  } catch (error) {
    if (!(error instanceof OutboundBlockedError)) throw error;
    refusal = `proxyServer: ${error.reason}`;
  }
  // Chromium sends loopback and the bypass list around a context's proxy, straight from the host: not here.
  params.proxyBypassList = '<-loopback>';
  return refusal;
};

const tracing: CheckFn = async (params) => {
  params.tracingBackend = 'chrome';
  return undefined;
};

/** The implementations of the checks; `nested` is the filter's own (it re-enters the whole list). */
export const CHECKS: Readonly<Record<Exclude<Check, 'nested'>, CheckFn>> = {
  downloads,
  files,
  navigation,
  'network-url': networkUrl,
  'browser-context': browserContext,
  tracing,
};
