import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { CheckUrlOptions, OutboundGuard, ResolvedAddress } from '../contracts/outbound.js';
import { OutboundBlockedError } from '../errors.js';

export type { CheckUrlOptions, OutboundGuard, ResolvedAddress } from '../contracts/outbound.js';

export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundGuardOptions {
  /** ALLOW_PRIVATE_NETWORKS: when true only the scheme is checked. */
  allowPrivateNetworks: boolean;
  /** Name resolution; defaults to the system resolver (`dns.lookup`, all addresses). */
  lookup?: HostLookup;
  /** Extra addresses to let through although not public (tests, an operator's allow-list). */
  allowAddress?: (ip: string) => boolean;
}

export { OutboundBlockedError } from '../errors.js';

/** Maps an OutboundBlockedError to the catalogue error an endpoint answers with; anything else passes through. */
export function asError(definition: NonNullable<CheckUrlOptions['errorAs']>, error: unknown): unknown {
  return error instanceof OutboundBlockedError ? definition({ reason: error.reason }, { cause: error }) : error;
}

const DEFAULT_PROTOCOLS = ['http:', 'https:'] as const;
const HINT = 'set ALLOW_PRIVATE_NETWORKS=true to allow it';

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function createOutboundGuard(options: OutboundGuardOptions): OutboundGuard {
  const { allowPrivateNetworks, allowAddress } = options;
  const lookup = options.lookup ?? systemLookup;

  function checkAddress(ip: string): boolean {
    if (allowPrivateNetworks) return true;
    const range = addressRange(ip);
    return range === 'unicast' || (allowAddress?.(ip) ?? false);
  }

  async function resolve(hostname: string): Promise<ResolvedAddress[]> {
    const host = unbracket(hostname);
    if (ipaddr.isValid(host)) {
      assertAllowed(host, `host ${hostname} is`);
      return [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await lookup(host);
    } catch {
      throw new OutboundBlockedError(`host ${hostname} could not be resolved`, { unresolved: true });
    }
    if (addresses.length === 0) throw new OutboundBlockedError(`host ${hostname} could not be resolved`, { unresolved: true });
    for (const { address } of addresses) assertAllowed(address, `host ${hostname} resolves to ${address},`);
    return addresses;
  }

  function assertAllowed(ip: string, subject: string): void {
    if (checkAddress(ip)) return;
    throw new OutboundBlockedError(`${subject} ${describeRange(addressRange(ip))} address; ${HINT}`);
  }

  async function checkUrl(raw: string, opts: CheckUrlOptions = {}): Promise<URL> {
    try {
      const url = parseUrl(raw, opts.protocols ?? DEFAULT_PROTOCOLS);
      if (!allowPrivateNetworks) {
        const host = normalisedHost(url);
        if (isLocalhostName(host)) throw new OutboundBlockedError(`host ${host} is the local machine; ${HINT}`);
        await resolve(host);
      }
      return url;
    } catch (error) {
      throw opts.errorAs ? asError(opts.errorAs, error) : error;
    }
  }

  return { allowPrivateNetworks, checkUrl, check: checkUrl, checkAddress, resolve, isLocalName: (host) => isLocalhostName(unbracket(host)) };
}

function parseUrl(raw: string, protocols: readonly string[]): URL {
  if (raw.trim() === '') throw new OutboundBlockedError('URL is empty');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Never echo `raw`: it may carry a password.
    throw new OutboundBlockedError('URL is not valid: write it like https://example.com/path');
  }
  if (!protocols.includes(url.protocol)) {
    const allowed = protocols.map((p) => p.replace(/:$/, '')).join(', ');
    throw new OutboundBlockedError(`scheme ${url.protocol.replace(/:$/, '')} is not allowed: use ${allowed}`);
  }
  if (url.hostname === '') throw new OutboundBlockedError('URL has no host');
  return url;
}

/** The host as an http URL would read it, so `socks5://0x7f.1` is seen as 127.0.0.1 like a resolver would. */
function normalisedHost(url: URL): string {
  try {
    return new URL(`http://${url.host}`).hostname;
  } catch {
    throw new OutboundBlockedError(`host ${url.hostname} is not a valid host name`);
  }
}

export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The ipaddr.js range of an address, looking through IPv4-mapped, IPv4-compatible and NAT64 forms to the
 * IPv4 inside (ipaddr.js calls `::7f00:1` unicast). Unparsable input is 'invalid'.
 */
export function addressRange(ip: string): string {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(unbracket(ip));
  } catch {
    return 'invalid';
  }
  if (address.kind() === 'ipv4') return address.range();
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  return embedded ? embedded.range() : v6.range();
}

/** IPv4-compatible (::a.b.c.d) and well-known-prefix NAT64 (64:ff9b::a.b.c.d) carry an IPv4 to judge. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const compatible = p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1);
  const nat64 = address.range() === 'rfc6052' && p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0);
  if (!compatible && !nat64) return null;
  return new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a shared (CGNAT)',
  private: 'a private',
  uniqueLocal: 'a unique-local (private)',
  reserved: 'a reserved',
  benchmarking: 'a benchmarking',
  rfc6052: 'a NAT64',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
  invalid: 'an invalid',
};

function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a special-purpose (${range})`;
}
