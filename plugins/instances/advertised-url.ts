import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** The machine's first external IPv4 address (a container's or a pod's own), else the loopback. */
function externalAddress(): string {
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return '127.0.0.1';
}

/**
 * Where the other instances reach this one when INSTANCE_URL is unset: the address the service listens on, or, when
 * it listens on every address (HOST=0.0.0.0), the machine's first external IPv4 address, which is what Docker and
 * Kubernetes give each container or pod. Plain http: instances talk to each other, not through the TLS proxy.
 */
export function listenUrl(address: AddressInfo | string | null): string | undefined {
  if (address === null || typeof address === 'string') return undefined; // a Unix socket: no peer can dial it by URL
  const host = WILDCARD.has(address.address) ? externalAddress() : address.address;
  return `http://${net.isIPv6(host) ? `[${host}]` : host}:${address.port}`;
}
