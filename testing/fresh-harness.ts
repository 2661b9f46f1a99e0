import { after, afterEach, beforeEach } from 'node:test';

/**
 * Gives every test of the enclosing suite a fresh harness from `factory` and cleans it up afterwards; resolves to a
 * getter of the current one. Released before the next test and after the last too: node:test (20) runs no
 * afterEach for a test that skips, which would leave a schema or open files behind.
 */
export function freshHarnessEach<H extends { cleanup(): Promise<void> }>(kind: string, factory: () => Promise<H>): () => H {
  let harness: H | undefined;
  const release = async () => {
    const done = harness;
    harness = undefined;
    await done?.cleanup();
  };
  beforeEach(async () => {
    await release();
    harness = await factory();
  });
  afterEach(release);
  after(release);
  return () => {
    if (!harness) throw new Error(`no ${kind} harness: the factory did not run`);
    return harness;
  };
}
