import type { Dispatcher } from 'undici';
import type { OutboundClient } from '../../../kernel/contracts/outbound.js';

/** The most a browserless run reads of a page (a browser would not hold more either). */
export const MAX_PAGE_BYTES = 20 * 1024 * 1024;

export interface FetchedPage {
  html: string;
  /** After redirects. */
  finalUrl: string;
  status: number;
}

export interface FetchPageOptions {
  timeoutMs: number;
  signal: AbortSignal;
  userAgent?: string;
  dispatcher?: Dispatcher;
}

/**
 * GETs `url` through the outbound client (the private-network rule on every hop, redirects followed). Throws
 * with plain words for an answer that is not a page: an error status, a body that is not HTML or text, too large.
 */
export async function fetchPage(client: OutboundClient, url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' };
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  const response = await client.request(url, {
    headers, timeoutMs: options.timeoutMs, signal: options.signal, ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const finalUrl = response.url || url;
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`The page answered HTTP ${response.status}`);
  }
  const type = (response.headers.get('content-type') ?? 'text/html').toLowerCase();
  if (!/html|xml|text\/plain/.test(type)) {
    await response.body?.cancel();
    throw new Error(`The page is not HTML (content-type ${type}): mode http reads only HTML`);
  }
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_PAGE_BYTES) {
    await response.body?.cancel();
    throw new Error(`The page is larger than ${MAX_PAGE_BYTES} bytes`);
  }
  const html = await response.text();
  if (html.length > MAX_PAGE_BYTES) throw new Error(`The page is larger than ${MAX_PAGE_BYTES} bytes`);
  return { html, finalUrl, status: response.status };
}
