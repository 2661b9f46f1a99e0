/**
 * What the kernel hands providers and plugins for any request leaving the service (`context.outbound`): the
 * private-network rule (ALLOW_PRIVATE_NETWORKS) and the one HTTP client that applies it. Types only.
 */

/** One resolved address, as `dns.lookup(host, { all: true })` returns it. */
export interface ResolvedAddress { address: string; family: number }

export interface CheckUrlOptions {
  /** Accepted schemes with their colon; default `['http:', 'https:']`. Proxies add `'socks5:'`. */
  protocols?: readonly string[];
  /**
   * Throw the error this makes (a catalogue error of `taskloom/errors`, given `{ reason }`) instead of the guard's
   * own `OutboundBlockedError`.
   */
  errorAs?: (params: { reason: string }, options: { cause: unknown }) => Error;
}

/**
 * The outbound rule. Refusals throw `OutboundBlockedError` (of `taskloom/errors`; `reason`: plain words, never
 * credentials), or the error of `errorAs`.
 */
export interface OutboundGuard {
  /** ALLOW_PRIVATE_NETWORKS: when true only schemes are checked. */
  readonly allowPrivateNetworks: boolean;
  /** Parses `raw` and refuses a wrong scheme or a host that is, or resolves to, a non-public address. */
  checkUrl(raw: string, options?: CheckUrlOptions): Promise<URL>;
  /** The same as `checkUrl`. */
  check(raw: string, options?: CheckUrlOptions): Promise<URL>;
  /** True when a connection to `ip` is allowed (the connect-time check). Not an IP: false. */
  checkAddress(ip: string): boolean;
  /** Resolves `hostname` and refuses it when any address is not allowed. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  /** True when `host` names the local machine (`localhost` and its kin), refused whatever it resolves to. */
  isLocalName(host: string): boolean;
}

export interface OutboundRequestInit {
  method?: string;
  headers?: HeadersInit;
  /** Only bodies that can be sent again, since 307/308 redirects repeat them. */
  body?: string | Uint8Array | URLSearchParams | FormData | null;
  /** The caller's own cancellation; combined with the timeout. */
  signal?: AbortSignal;
  /** Whole request, redirects and body reading included, in milliseconds; default 30 000. */
  timeoutMs?: number;
  /** Redirects followed before giving up; default 5. */
  maxRedirects?: number;
  /** 'manual' returns the first 3xx response as it is. Default 'follow'. */
  redirect?: 'follow' | 'manual';
  /**
   * An undici Dispatcher (a proxy's ProxyAgent) every hop goes through instead of the client's pinned agent: each
   * hop's URL is still checked, but the connection is the dispatcher's, so the caller checks the proxy's address.
   */
  dispatcher?: object;
}

export interface OutboundClient {
  /**
   * fetch with the outbound rule applied to every hop and pinned at connect time. Throws OutboundBlockedError
   * when a hop is refused and OutboundRequestError on a timeout or too many redirects (a timeout while reading
   * the body rejects that read with the signal's TimeoutError, as fetch does). Credentials in the URL are sent
   * as Basic authorization, never as part of the URL.
   */
  request(url: string | URL, init?: OutboundRequestInit): Promise<Response>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

/** The guard and the client, as providers and plugins receive them. */
export interface OutboundServices { guard: OutboundGuard; client: OutboundClient }
