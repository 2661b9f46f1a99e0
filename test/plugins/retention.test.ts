// Retention on the real service: executions older than RETENTION_DAYS (or the setting saved through the API) go at
// start-up or at once when the setting changes, with their capture files; recent ones stay; unset keeps all.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import { makeTempDir, setupAdmin, startService, type TestService } from '../support/service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Executions started this many days ago; each has a screenshot written when it ran. */
const AGES = { old: 40, middle: 15, recent: 0.01 };
type Age = keyof typeof AGES;

const idOf = (age: Age) => `exec_retention_${age}`;
const captureOf = (age: Age) => `${idOf(age)}_1.png`;
/** A capture whose record is already gone (another instance on the same database pruned it). */
const ORPHAN = 'exec_retention_orphan_1.png';

async function seed(svc: TestService): Promise<void> {
  const captures = path.join(svc.dataDir, 'captures');
  for (const [age, days] of Object.entries(AGES) as Array<[Age, number]>) {
    const startedAt = new Date(Date.now() - days * DAY_MS);
    const record: ExecutionRecord = {
      executionId: idOf(age), taskId: 'task_retention', taskName: 'Retention', status: 'success', trigger: 'api',
      startedAt: startedAt.toISOString(), finishedAt: startedAt.toISOString(), durationMs: 800,
      result: { data: null, captures: [captureOf(age)] }, logs: [],
    };
    await svc.service.services.storage.executions.insert(record);
    await fs.writeFile(path.join(captures, captureOf(age)), 'png bytes');
    await fs.utimes(path.join(captures, captureOf(age)), startedAt, startedAt);
  }
  const orphanTime = new Date(Date.now() - 50 * DAY_MS);
  await fs.writeFile(path.join(captures, ORPHAN), 'png bytes');
  await fs.utimes(path.join(captures, ORPHAN), orphanTime, orphanTime);
}

/** Which of the seeded executions and captures are still there. */
async function present(svc: TestService, apiKey: string): Promise<{ executions: string[]; captures: string[] }> {
  const listed = await svc.request('GET', '/api/executions?limit=1000', { apiKey });
  assert.equal(listed.status, 200, listed.text);
  const files = await fs.readdir(path.join(svc.dataDir, 'captures'));
  return {
    executions: (listed.body as ExecutionRecord[]).map((e) => e.executionId).sort(),
    captures: files.filter((name) => name.startsWith('exec_retention_')).sort(),
  };
}

const only = (...ages: Age[]) => ({ executions: ages.map(idOf).sort(), captures: ages.map(captureOf).sort() });

describe('retention', () => {
  let dataDir: string;
  let svc: TestService | undefined;
  let apiKey: string;
  /** Restarts the service on the same data with this environment. */
  const restart = async (env: Record<string, string> = {}) => {
    await svc?.close();
    svc = await startService(env, dataDir);
    return svc;
  };

  before(async () => {
    dataDir = await makeTempDir();
    const first = await restart();
    ({ apiKey } = await setupAdmin(first));
    await seed(first);
  });
  after(async () => {
    await svc?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('keeps everything when RETENTION_DAYS is unset', async () => {
    const current = await restart();
    const policy = await current.request('GET', '/api/settings/retention', { apiKey });
    assert.deepEqual(policy.body, { days: 0, source: 'environment' });
    assert.deepEqual(await present(current, apiKey), {
      executions: only('old', 'middle', 'recent').executions,
      captures: [...only('old', 'middle', 'recent').captures, ORPHAN].sort(),
    });
  });

  it('prunes executions older than RETENTION_DAYS and their captures at start-up', async () => {
    const current = await restart({ RETENTION_DAYS: '30' });
    const policy = await current.request('GET', '/api/settings/retention', { apiKey });
    assert.deepEqual(policy.body, { days: 30, source: 'environment' });
    // The orphan is older than the cutoff too: it goes by its age.
    assert.deepEqual(await present(current, apiKey), only('middle', 'recent'));
    const gone = await current.request('GET', `/api/executions/${idOf('old')}`, { apiKey });
    assert.equal(gone.status, 404);
  });

  it('a setting saved through the API overrides the environment, prunes at once and survives a restart', async () => {
    let current = svc!;
    const saved = await current.request('POST', '/api/settings/retention', { apiKey, body: { days: 10 } });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body, { days: 10, source: 'setting', pruned: 1 });
    assert.deepEqual(await present(current, apiKey), only('recent'));

    current = await restart({ RETENTION_DAYS: '30' });
    assert.deepEqual((await current.request('GET', '/api/settings/retention', { apiKey })).body, { days: 10, source: 'setting' });
    const reset = await current.request('POST', '/api/settings/retention', { apiKey, body: { days: null } });
    assert.deepEqual(reset.body, { days: 30, source: 'environment', pruned: 0 });
    const forever = await current.request('POST', '/api/settings/retention', { apiKey, body: { days: 0 } });
    assert.deepEqual(forever.body, { days: 0, source: 'setting', pruned: 0 });
    assert.deepEqual(await present(current, apiKey), only('recent'));
  });

  it('refuses a retention that is not a whole number of days, and an anonymous caller', async () => {
    const current = svc!;
    for (const days of [-1, 1.5, '7', 36_501]) {
      const res = await current.request('POST', '/api/settings/retention', { apiKey, body: { days } });
      assert.equal(res.status, 400, JSON.stringify(days));
      assert.equal(res.body.error, 'VALIDATION_ERROR');
      assert.match(res.body.details, /days/);
    }
    assert.equal((await current.request('GET', '/api/settings/retention')).status, 401);
    assert.equal((await current.request('POST', '/api/settings/retention', { body: { days: 1 } })).status, 401);
  });

  it('refuses a bad RETENTION_DAYS at start-up with a line naming it', async () => {
    const { loadConfig } = await import('../../kernel/config.js');
    const { readModuleConfig } = await import('../../kernel/module-config.js');
    const { retentionPlugin } = await import('../../plugins/retention/index.js');
    const days = (env: Record<string, string>) =>
      (readModuleConfig(retentionPlugin, loadConfig(env).variables, { required: true }) as { RETENTION_DAYS: number }).RETENTION_DAYS;
    assert.throws(() => days({ RETENTION_DAYS: 'a week' }), /Invalid configuration: RETENTION_DAYS is "a week"; expected a whole number from 0 to 36500/);
    assert.throws(() => days({ RETENTION_DAYS: '-3' }), /RETENTION_DAYS/);
    assert.equal(days({}), 0);
  });
});
