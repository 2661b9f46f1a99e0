import { after, afterEach, beforeEach, describe } from 'node:test';
import { counterCases } from './storage/counter-cases.js';
import { documentCases } from './storage/document-cases.js';
import { executionCases } from './storage/execution-cases.js';
import type { StorageFactory, StorageHarness } from './storage/harness.js';
import { lifecycleCases } from './storage/lifecycle-cases.js';
import { retentionCases } from './storage/retention-cases.js';
import { settingsClaimCases } from './storage/settings-claim-cases.js';
import { taskBatchCases } from './storage/task-batch-cases.js';
import { userSessionCases } from './storage/user-session-cases.js';

export type { StorageFactory, StorageHarness } from './storage/harness.js';

/**
 * The storage contract suite: every storage provider runs it (json, postgres, mongodb and third-party
 * ones). `factory` must return a fresh, empty, isolated instance for each test; the suite calls
 * `cleanup()` after every test.
 */
export function storageContract(name: string, factory: StorageFactory): void {
  describe(`storage contract: ${name}`, () => {
    let harness: StorageHarness | undefined;
    const current = (): StorageHarness => {
      if (!harness) throw new Error('no storage harness: the factory did not run');
      return harness;
    };

    const release = async () => {
      const done = harness;
      harness = undefined;
      await done?.cleanup();
    };
    // Released before the next test and after the last too: node:test (20) runs no afterEach for a test that skips.
    beforeEach(async () => {
      await release();
      harness = await factory();
    });
    afterEach(release);
    after(release);

    documentCases(current);
    taskBatchCases(current);
    userSessionCases(current);
    settingsClaimCases(current);
    counterCases(current);
    executionCases(current);
    retentionCases(current);
    lifecycleCases(current);
  });
}
