/** The value of `promise` if it settles within `ms`, else `timedOut`. A rejection becomes `failed(error)`. */
export async function settleWithin<T, F, O>(
  promise: Promise<T>,
  ms: number,
  timedOut: O,
  failed: (error: unknown) => F,
): Promise<T | F | O> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<O>((resolve) => { timer = setTimeout(() => resolve(timedOut), ms); });
  try {
    return await Promise.race([promise.catch(failed), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
