/**
 * Runs callbacks for one key one at a time (in call order) within this process. Compare-and-swap
 * handles other instances; this keeps an instance from racing itself, so `change` callbacks are
 * normally called once.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<R>(key: string, work: () => Promise<R>): Promise<R> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
