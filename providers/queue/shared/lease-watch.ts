/** Why a held job's handler was told to stop (its `QueueJob.signal` reason). */
export class LeaseLost extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeaseLost';
  }
}

/**
 * The leases of the jobs a worker holds, as the worker renews them: a job whose lease goes unrenewed for half of
 * it (the engine unreachable), or that the engine says is no longer this worker's, has its handler's signal
 * aborted, before the engine may give it to another worker. Times are monotonic, taken when a renewal is known.
 */
export function createLeaseWatch(leaseMs: number, onLost: (jobId: string, why: string) => void) {
  const leases = new Map<string, { renewedAt: number; controller: AbortController }>();
  const lose = (jobId: string, why: string) => {
    const lease = leases.get(jobId);
    if (!lease || lease.controller.signal.aborted) return;
    onLost(jobId, why);
    lease.controller.abort(new LeaseLost(`the job's lease is lost: ${why}`));
  };
  const watch = setInterval(() => {
    const now = performance.now();
    for (const [jobId, lease] of leases) if (now - lease.renewedAt > leaseMs / 2) lose(jobId, `not renewed for ${Math.round(now - lease.renewedAt)} ms`);
  }, Math.max(100, Math.min(1000, Math.floor(leaseMs / 10))));
  watch.unref();

  return {
    /** A job held from now (its lease just taken, at `takenAt`); resolves to its handler's signal. */
    hold(jobId: string, takenAt = performance.now()): AbortSignal {
      const controller = new AbortController();
      leases.set(jobId, { renewedAt: takenAt, controller });
      return controller.signal;
    },
    release(jobId: string): void {
      leases.delete(jobId);
    },
    /** These jobs' leases were renewed by a renewal sent at `sentAt`. */
    renewed(jobIds: Iterable<string>, sentAt = performance.now()): void {
      for (const jobId of jobIds) {
        const lease = leases.get(jobId);
        if (lease) lease.renewedAt = Math.max(lease.renewedAt, sentAt);
      }
    },
    lose,
    get size(): number {
      return leases.size;
    },
    stop(): void {
      clearInterval(watch);
    },
  };
}
