import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { JobQueue } from '../../../kernel/contracts/queue.js';
import { CONTRACT_VERSIONS } from '../../../kernel/contracts/provider.js';
import { pgBossScheduler } from '../../../providers/scheduler/pg-boss/index.js';
import { schedulerContract } from '../../../testing/scheduler.contract.js';
import { createRecordingLogger } from '../../../testing/loggers.js';
import { createTestDatabase, postgresUnavailable } from '../../support/postgres-database.js';
import { engineSchedulerFactory } from './engine-fixture.js';
import { providerCases } from './engine-provider.js';
import { openRemoteQueue } from './remote-queue.js';

const unavailable = await postgresUnavailable();
if (unavailable) {
  describe('pg-boss scheduler', () => { it('needs PostgreSQL', (t) => { t.skip(unavailable); }); });
} else {
  // One database for the file, and its pg-boss in a helper process: the contract mocks this process's clock.
  const db = await createTestDatabase('taskloom_schedules');
  const queue: JobQueue = await openRemoteQueue({ engine: 'pg-boss', url: db.url() });
  const recorded = createRecordingLogger();
  after(async () => {
    await queue.stop();
    await db.drop();
  });

  schedulerContract('pg-boss', engineSchedulerFactory('pg-boss', queue, recorded, { engine: 'pg-boss', url: db.url() }));

  describe('pg-boss scheduler', () => {
    it('is the provider `pg-boss` of the scheduler capability, speaking the kernel contract version', () => {
      assert.deepEqual([pgBossScheduler.capability, pgBossScheduler.id, pgBossScheduler.contractVersion], ['scheduler', 'pg-boss', CONTRACT_VERSIONS.scheduler]);
    });
    providerCases('pg-boss', pgBossScheduler, queue, recorded);
  });
}
