import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import type { KernelConfig } from '../../kernel/config.js';
import { Errors, type TaskloomError } from '../../kernel/errors.js';

/** A Host header split into a lower-case name (IPv6 without brackets) and its port. */
export interface ParsedHost {
  hostname: string;
  port?: number;
}

const NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/;

/** Undefined for a Host that is neither a name, an IPv4 nor a bracketed IPv6 address, with an optional port. */
export function parseHost(host: string): ParsedHost | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!match) return undefined;
  const name = match[1]!;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  const hostname = name.startsWith('[') ? name.slice(1, -1) : name.replace(/\.$/, '');
  if (name.startsWith('[') ? !net.isIPv6(hostname) : !NAME.test(name)) return undefined;
  return { hostname, port };
}

export interface HostRule {
  /** The service answers a request naming `hostname` (lower case, IPv6 without brackets). */
  allows(hostname: string): boolean;
  /** `hostname` is a name the operator configured (HOST, ALLOWED_HOSTS) or a loopback name, not merely accepted. */
  named(hostname: string): boolean;
}

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/**
 * Which Host names the service answers to. DNS rebinding makes a browser send the attacker's own domain name to
 * this address, so IP literals and `localhost` names are always safe to accept; any other name must be HOST,
 * this machine's name, or listed in ALLOWED_HOSTS (`*.example.com` covers subdomains; `*` accepts any).
 */
export function createHostRule(config: Pick<KernelConfig, 'host' | 'allowedHosts'>): HostRule {
  const configured = new Set([...LOOPBACK_NAMES, ...config.allowedHosts.filter((h) => !h.startsWith('*'))]);
  const bind = config.host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (!WILDCARD_BINDS.has(config.host)) configured.add(bind);
  const suffixes = config.allowedHosts.filter((h) => h.startsWith('*.')).map((h) => h.slice(1));
  const anyHost = config.allowedHosts.includes('*');
  const machine = os.hostname().toLowerCase();
  const named = (hostname: string) => configured.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix));
  return {
    named,
    allows: (hostname) =>
      anyHost || named(hostname) || net.isIP(hostname) !== 0 || hostname === machine ||
      hostname === 'localhost' || hostname.endsWith('.localhost'),
  };
}

/**
 * Every host name a request carries: its Host header and, with TRUST_PROXY, each X-Forwarded-Host entry. All are
 * checked, not only the one Fastify uses: a rebinding page is same-origin and may add X-Forwarded-Host itself,
 * which a proxy that does not set that header passes on.
 */
export function hostsNamedBy(headers: IncomingHttpHeaders, trustProxy: boolean): string[] {
  const forwarded = trustProxy ? [headers['x-forwarded-host'] ?? []].flat().flatMap((value) => value.split(',')) : [];
  return [headers.host ?? '', ...forwarded.map((host) => host.trim())];
}

/** HOST_NOT_ALLOWED for the first of `hosts` the rule does not allow (an empty Host: none sent), else undefined. */
export function hostRefusal(rule: HostRule, hosts: string[]): TaskloomError | undefined {
  for (const host of hosts) {
    // HTTP/1.0 may send no Host at all: no browser does, so there is nothing to rebind.
    if (host === '') continue;
    const parsed = parseHost(host);
    if (!parsed || !rule.allows(parsed.hostname)) return Errors.HOST_NOT_ALLOWED({ host: host.slice(0, 100) });
  }
  return undefined;
}
