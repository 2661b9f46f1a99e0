import { describe } from 'node:test';
import { freshHarnessEach } from './fresh-harness.js';
import { clockCases } from './storage/clock-cases.js';
import { counterCases } from './storage/counter-cases.js';
import { deliveryCases } from './storage/delivery-cases.js';
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
    const current: () => StorageHarness = freshHarnessEach('storage', factory);

    documentCases(current);
    taskBatchCases(current);
    userSessionCases(current);
    settingsClaimCases(current);
    counterCases(current);
    clockCases(current);
    deliveryCases(current);
    executionCases(current);
    retentionCases(current);
    lifecycleCases(current);
  });
}
