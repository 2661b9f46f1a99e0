import crypto from 'node:crypto';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { SettingsStore } from '../../kernel/contracts/storage.js';
import {
  INSTANCE_LEASES_KEY, currentViewer, generateInstanceId, leaseEnd, validLeases, type InstanceLease, type InstanceLeases, type LeaseEnd,
} from './instance-lease.js';

/** A lease lapses this long after its last renewal. Instances' clocks are assumed to agree within a few seconds. */
export const LEASE_TTL_MS = 30_000;
export const LEASE_RENEW_EVERY_MS = 10_000;

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
}

export function createInstance(options: InstanceOptions): Instance {
  const { settings } = options;
  const id = options.id ?? generateInstanceId(options.host);
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const log = options.logger.child({ component: 'instance', instanceId: id });
  const token = crypto.randomBytes(8).toString('hex');
  const viewer = () => ({ ...currentViewer(token), ...(options.host === undefined ? {} : { host: options.host }) });
  let timer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> | undefined;
  let url: string | undefined;

  const fresh = (): InstanceLease => {
    const { host, pid, nowMs } = viewer();
    return { host, pid, process: token, renewedAtMs: nowMs, expiresAtMs: nowMs + ttlMs, ...(url === undefined ? {} : { url }) };
  };
  const read = async () => validLeases(await settings.get(INSTANCE_LEASES_KEY));

  async function renew(): Promise<void> {
    const seen: { before?: InstanceLease } = {};
    await settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (current) => {
      const leases = validLeases(current);
      seen.before = leases[id];
      return { ...leases, [id]: fresh() };
    });
    const { before } = seen;
    if (before && before.process !== token) {
      log.error({ host: before.host, pid: before.pid }, 'another process took this INSTANCE_ID: every instance needs its own');
    } else if (!before || before.expiresAtMs <= Date.now()) {
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
        const ago = Math.round((Date.now() - conflict.renewedAtMs) / 1000);
        throw new Error(`INSTANCE_ID ${id} is held by a running instance (host ${conflict.host}, pid ${conflict.pid}, lease renewed ${ago} s ago): `
          + `give every instance its own INSTANCE_ID, or after a crash on another host wait ${Math.ceil(ttlMs / 1000)} s for its lease to lapse`);
      }
      timer = setInterval(tick, options.renewEveryMs ?? LEASE_RENEW_EVERY_MS);
      timer.unref();
      log.info({ ttlMs }, 'instance lease taken');
    },

    async stop() {
      clearInterval(timer);
      timer = undefined;
      await renewing;
      try {
        await settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (current) => {
          const leases = validLeases(current);
          const mine = leases[id];
          if (mine?.process !== token) return leases;
          return { ...leases, [id]: { ...mine, expiresAtMs: Date.now() } };
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
