/** A promise with its settle functions exposed; the journal hands one per batch to every waiting writer. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function createDeferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch may fail with nobody awaiting it (e.g. a fire-and-forget sweep); that must not crash the process.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
