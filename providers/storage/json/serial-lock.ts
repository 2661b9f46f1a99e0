/**
 * Runs async critical sections one after another. The execution history needs it because its
 * read-modify-write reads the current record from disk, so it cannot happen in one synchronous step.
 */
export class SerialLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<R>(section: () => R | Promise<R>): Promise<R> {
    const result = this.tail.then(section);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every section queued so far has finished. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
