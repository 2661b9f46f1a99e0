import crypto from 'node:crypto';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';
import {
  INSTANCE_LEASES_KEY, currentViewer, generateInstanceId, leaseEnd, validLeases, type InstanceLease, type InstanceLeases, type LeaseEnd,
} from './instance-lease.js';

/**
 * A lease lapses this long after its last renewal, on the storage's clock where it has one (PostgreSQL), so the
 * hosts' clocks need not agree; without one (the JSON store, MongoDB) on each host's clock.
 */
export const LEASE_TTL_MS = 30_000;
export const LEASE_RENEW_EVERY_MS = 10_000;
/** How often an instance checks that its own lease was renewed lately. */
const LEASE_WATCH_EVERY_MS = 1_000;

/** An instance whose lease has ended: its queued and running executions can never finish. */
export interface DeadInstance {
  id: string;
  lease: InstanceLease;
  reason: LeaseEnd;
}

/** This service among the instances sharing one storage (`services.instance`). */
export interface Instance {
  /** INSTANCE_ID, or generated at start. Recorded on the executions this instance queues and runs. */
  readonly id: string;
  /** Takes the lease and keeps renewing it; rejects when a running instance holds the same id. */
  start(): Promise<void>;
  /** Stops renewing and ends the lease now, so the others (or the next start) deal with what is left. Never throws. */
  stop(): Promise<void>;
  /** Ids of the instances whose lease holds, this one included. */
  live(): Promise<Set<string>>;
  /** Instances other than this one whose lease has ended. */
  dead(): Promise<DeadInstance[]>;
  /** Removes the leases of `ids` that have still ended (one renewed meanwhile stays). */
  forget(ids: string[]): Promise<void>;
  /** Records in the lease where the other instances reach this one (an http or https base URL). */
  advertise(url: string): Promise<void>;
  /** False from the moment the lease went unrenewed for half its time (storage unreachable) until renewed again. */
  readonly leaseHeld: boolean;
  /**
   * Calls `listener` each time the lease goes unrenewed for half its time: the other instances may take this one
   * for dead at the full time and mark its runs interrupted, so what it runs must stop before then.
   */
  onLeaseLost(listener: () => void): void;
  /** The URL an instance whose lease holds advertises; undefined when it has ended or advertises none. */
  urlOf(instanceId: string): Promise<string | undefined>;
}

export interface InstanceOptions {
  settings: SettingsStore;
  logger: Logger;
  /** Default: generated (`<host>-<6 hex>`). */
  id?: string;
  /** Default: `os.hostname()`. Tests running several instances in one process give each its own. */
  host?: string;
  ttlMs?: number;
  renewEveryMs?: number;
  /** The storage's clock (`StorageProvider.clock`): lease times are read on it; default: this host's clock. */
  clock?: () => Promise<number>;
}

export function createInstance(options: InstanceOptions): Instance {
  const { settings } = options;
  const id = options.id ?? generateInstanceId(options.host);
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const log = options.logger.child({ component: 'instance', instanceId: id });
  const token = crypto.randomBytes(8).toString('hex');
  // Storage time minus this host's, measured at each renewal: every lease time is written and judged in storage time.
  let offsetMs = 0;
  const viewer = () => {
    const current = currentViewer(token);
    return { ...current, nowMs: current.nowMs + offsetMs, ...(options.host === undefined ? {} : { host: options.host }) };
  };
  const syncClock = async () => {
    if (!options.clock) return;
    const sent = Date.now();
    const storageMs = await options.clock();
    offsetMs = storageMs - (sent + Date.now()) / 2;
  };
  let timer: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  let renewing: Promise<void> | undefined;
  let url: string | undefined;
  // Monotonic time at which the last successful renewal was sent (a renewal lands at or after it).
  let renewedAt = performance.now();
  let held = true;
  const lostListeners: Array<() => void> = [];
  const watchLease = () => {
    if (!held || performance.now() - renewedAt <= ttlMs / 2) return;
    held = false;
    log.error({ sinceRenewalMs: Math.round(performance.now() - renewedAt), ttlMs }, 'this instance could not renew its lease for half its time: stopping its runs before the others take it for dead');
    for (const listener of lostListeners) listener();
  };

  const fresh = (): InstanceLease => {
    const { host, pid, nowMs } = viewer();
    return { host, pid, process: token, renewedAtMs: nowMs, expiresAtMs: nowMs + ttlMs, ...(url === undefined ? {} : { url }) };
  };
  const read = async () => validLeases(await settings.get(INSTANCE_LEASES_KEY));

  async function renew(): Promise<void> {
    const sentAt = performance.now();
    const seen: { before?: InstanceLease } = {};
    await syncClock();
    await settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (current) => {
      const leases = validLeases(current);
      seen.before = leases[id];
      return { ...leases, [id]: fresh() };
    });
    renewedAt = Math.max(renewedAt, sentAt);
    if (!held) log.info('this instance renews its lease again');
    held = true;
    const { before } = seen;
    if (before && before.process !== token) {
      log.error({ host: before.host, pid: before.pid }, 'another process took this INSTANCE_ID: every instance needs its own');
    } else if (!before || before.expiresAtMs <= viewer().nowMs) {
      log.warn('this instance\'s lease had lapsed (storage unreachable?): other instances may have marked its runs interrupted');
    }
  }

  const tick = () => {
    renewing ??= renew()
      .catch((error: unknown) => log.warn({ err: error }, 'renewing the instance lease failed; retrying'))
      .finally(() => { renewing = undefined; });
  };

  return {
    id,

    async start() {
      let conflict: InstanceLease | undefined;
      await syncClock();
      renewedAt = performance.now();
      await settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (current) => {
        const leases = validLeases(current);
        const held = leases[id];
        if (held && held.process !== token && !leaseEnd(held, viewer())) {
          conflict = held;
          return leases;
        }
        return { ...leases, [id]: fresh() };
      });
      if (conflict) {
        const ago = Math.round((viewer().nowMs - conflict.renewedAtMs) / 1000);
        throw new Error(`INSTANCE_ID ${id} is held by a running instance (host ${conflict.host}, pid ${conflict.pid}, lease renewed ${ago} s ago): `
          + `give every instance its own INSTANCE_ID, or after a crash on another host wait ${Math.ceil(ttlMs / 1000)} s for its lease to lapse`);
      }
      timer = setInterval(tick, options.renewEveryMs ?? LEASE_RENEW_EVERY_MS);
      timer.unref();
      watch = setInterval(watchLease, Math.min(LEASE_WATCH_EVERY_MS, Math.max(10, Math.floor(ttlMs / 10))));
      watch.unref();
      log.info({ ttlMs, clockOffsetMs: Math.round(offsetMs), clock: options.clock ? 'storage' : 'host' }, 'instance lease taken');
    },

    async stop() {
      clearInterval(timer);
      clearInterval(watch);
      timer = undefined;
      await renewing;
      try {
        await settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (current) => {
          const leases = validLeases(current);
          const mine = leases[id];
          if (mine?.process !== token) return leases;
          return { ...leases, [id]: { ...mine, expiresAtMs: viewer().nowMs } };
        });
      } catch (error) {
        log.warn({ err: error }, `ending the instance lease failed: it lapses within ${Math.ceil(ttlMs / 1000)} s`);
      }
    },

    async live() {
      const leases = await read();
      const now = viewer();
      return new Set(Object.entries(leases).filter(([, lease]) => !leaseEnd(lease, now)).map(([leaseId]) => leaseId));
    },

    async dead() {
      const leases = await read();
      const now = viewer();
      const dead: DeadInstance[] = [];
      for (const [leaseId, lease] of Object.entries(leases)) {
        const end = leaseEnd(lease, now);
        if (!end || leaseId === id) continue;
        dead.push({ id: leaseId, lease, reason: end });
      }
      return dead;
    },

    get leaseHeld() {
      return held;
    },

    onLeaseLost(listener) {
      lostListeners.push(listener);
    },

    async advertise(advertised) {
      url = advertised;
      await renewing;
      await renew();
      log.info({ url }, 'the other instances reach this one here');
    },

    async urlOf(instanceId) {
      const lease = (await read())[instanceId];
      return lease && !leaseEnd(lease, viewer()) && typeof lease.url === 'string' ? lease.url : undefined;
    },

    async forget(ids) {
      if (ids.length === 0) return;
      await settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (current) => {
        const leases = validLeases(current);
        const now = viewer();
        for (const leaseId of ids) {
          if (leaseId !== id && leases[leaseId] && leaseEnd(leases[leaseId], now)) delete leases[leaseId];
        }
        return leases;
      });
    },
  };
}
