// Every await of the runner goes through these, so a cancelled run returns within milliseconds even when
// the page is wedged (`while (true) {}`): the losing promise is left to the pool, which closes the context.

/** An error naming what was awaited, in the engines' own words. */
export function timedOut(what: string, ms: number): Error {
  const error = new Error(`Timed out after ${ms} ms waiting for ${what}`);
  error.name = 'TimeoutError';
  return error;
}

/**
 * Settles like `work`, unless `signal` aborts first (rejects with `signal.reason`, unchanged, so the caller
 * can tell a cancel or a run timeout from a failed action) or `limitMs` passes (rejects with `onTimeout()`).
 * `limitMs` 0 or undefined: no limit of its own.
 */
export function guard<T>(work: Promise<T>, signal: AbortSignal, limitMs?: number, onTimeout?: () => Error): Promise<T> {
  work.catch(() => undefined); // a loser's late rejection is not an unhandled one
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (limitMs) {
      timer = setTimeout(() => {
        done();
        reject(onTimeout?.() ?? timedOut('the action', limitMs));
      }, limitMs);
    }
    work.then((value) => { done(); resolve(value); }, (error: unknown) => { done(); reject(error); });
  });
}

/** Waits `ms`, or rejects with `signal.reason` as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); });
  return guard(elapsed, signal).finally(() => clearTimeout(timer));
}
