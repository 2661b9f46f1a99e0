import crypto from 'node:crypto';
import os from 'node:os';

/**
 * Instance leases: each instance sharing a database keeps a lease in `storage.settings` (one key holding every
 * lease) and renews it while it runs. A lapsed lease, or one whose process is known to be gone, marks an instance
 * whose queued and running executions can never finish. Pure functions; instance.ts does the I/O.
 */

/** The settings key of the lease map `{ [instanceId]: InstanceLease }`. */
export const INSTANCE_LEASES_KEY = 'instanceLeases';

export interface InstanceLease {
  /** `os.hostname()` of the holder. */
  host: string;
  pid: number;
  /** Random per process: tells the process holding a lease from an earlier one with the same id. */
  process: string;
  /** Epoch ms of the last renewal, on the storage's clock where it has one (`StorageProvider.clock`), else the holder's. */
  renewedAtMs: number;
  /** Epoch ms, on the same clock, after which the lease has lapsed (set to the stop time on a clean stop). */
  expiresAtMs: number;
  /** Where the other instances reach this one (INSTANCE_URL, or the address it listens on), once it listens. */
  url?: string;
}

export type InstanceLeases = Record<string, InstanceLease>;

/** Who is asking: the current process. */
export interface LeaseViewer {
  host: string;
  pid: number;
  process: string;
  nowMs: number;
  /** Whether a process id is alive on this host. */
  pidAlive(pid: number): boolean;
}

/** Why a lease no longer holds (undefined while it does): it lapsed (or a clean stop ended it), or its process is gone. */
export type LeaseEnd = 'lapsed' | 'process-gone';

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

export function currentViewer(processToken: string): LeaseViewer {
  return { host: os.hostname(), pid: process.pid, process: processToken, nowMs: Date.now(), pidAlive };
}

/** The current process, its time read on the storage's clock when it has one, as the instances write their leases. */
export async function currentViewerOn(processToken: string, clock?: () => Promise<number>): Promise<LeaseViewer> {
  return { ...currentViewer(processToken), ...(clock ? { nowMs: await clock() } : {}) };
}

/**
 * Whether `lease` has ended, seen by `viewer`. On the viewer's own host a lease whose process is not running (or
 * is the viewer's own pid under another process token, as after a container restart) has ended at once; this
 * relies on instances on different machines having different host names, as Docker and Kubernetes give them.
 */
export function leaseEnd(lease: InstanceLease, viewer: LeaseViewer): LeaseEnd | undefined {
  if (lease.expiresAtMs <= viewer.nowMs) return 'lapsed';
  if (lease.process === viewer.process) return undefined;
  if (lease.host === viewer.host && (lease.pid === viewer.pid || !viewer.pidAlive(lease.pid))) return 'process-gone';
  return undefined;
}

/** A lease map read from settings, with anything malformed left out. */
export function validLeases(value: unknown): InstanceLeases {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const leases: InstanceLeases = {};
  for (const [id, lease] of Object.entries(value as Record<string, Partial<InstanceLease>>)) {
    if (typeof lease?.expiresAtMs === 'number' && typeof lease.host === 'string' && typeof lease.pid === 'number' && typeof lease.process === 'string') {
      leases[id] = lease as InstanceLease;
    }
  }
  return leases;
}

/** `<host name>-<6 hex>`: readable in logs, distinct for every start. */
export function generateInstanceId(hostname = os.hostname()): string {
  const host = hostname.replace(/[^A-Za-z0-9.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 48) || 'taskloom';
  return `${host}-${crypto.randomBytes(3).toString('hex')}`;
}
