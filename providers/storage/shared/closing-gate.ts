import { Errors } from '../../../kernel/errors.js';

/**
 * What the database providers owe the contract around close(): calls after it reject, and it waits
 * for the calls already started before ending the client. A failed call's error goes through
 * `translate` (the product's "connection failure becomes STORAGE_UNAVAILABLE"); a call that throws
 * before it has started rejects with that error as it is.
 */
export class ClosingGate {
  private readonly pending = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(
    /** Names the store in the "closed" reason, e.g. `the postgres store at db.example:5432/taskloom`. */
    private readonly store: string,
    private readonly translate: (error: unknown) => unknown,
  ) {}

  get isClosed(): boolean {
    return this.closing !== undefined;
  }

  run<R>(work: () => Promise<R>): Promise<R> {
    if (this.closing) return Promise.reject(Errors.STORAGE_UNAVAILABLE({ reason: `${this.store} is closed` }));
    let running: Promise<R>;
    try {
      running = work().catch((error: unknown) => {
        throw this.translate(error);
      });
    } catch (error) {
      return Promise.reject(error);
    }
    const forget = (): void => void this.pending.delete(running);
    this.pending.add(running);
    running.then(forget, forget);
    return running;
  }

  /** Ends the client once the calls already started have settled; every call gets the same promise. */
  close(end: () => Promise<void>): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.pending]);
      await end();
    })();
    return this.closing;
  }
}
