// Instance leases on the storage's clock, and an instance that cannot renew: leases are written and judged in
// storage time (a host clock 45 s off changes nothing), and an instance whose renewals fail tells its runs to stop
// at half the lease, before the others may take it for dead; renewed again, it holds its lease again.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type TestContext } from 'node:test';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { SettingsStore, StorageProvider } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import { createInstance } from '../../plugins/instances/instance.js';
import { INSTANCE_LEASES_KEY, type InstanceLeases } from '../../plugins/instances/instance-lease.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir } from '../support/service.js';

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };

async function openStorage(t: TestContext): Promise<StorageProvider> {
  const dir = await makeTempDir('taskloom-lease-clock-');
  const storage = await openJsonStorage({ dir, logger: silent });
  t.after(async () => {
    await storage.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return storage;
}

/** The settings store, failing as an unreachable database does while `down`. */
function switchable(settings: SettingsStore) {
  const state = { down: false };
  const fail = () => Promise.reject(Errors.STORAGE_UNAVAILABLE({ reason: 'test outage' }, { retryable: true }));
  const store: SettingsStore = {
    ...settings,
    get: (key) => (state.down ? fail() : settings.get(key)),
    update: (key, change) => (state.down ? fail() : settings.update(key, change)),
  } as SettingsStore;
  return { state, store };
}

describe('instance leases on the storage clock', () => {
  it('writes lease times in storage time, so an instance whose host clock is 45 s behind is still live to the others', async (t) => {
    const storage = await openStorage(t);
    const storageClock = async () => Date.now() + 45_000; // the database's clock; this host runs 45 s behind it
    const a = createInstance({ settings: storage.settings, logger: silent, id: 'a', host: 'host-a', clock: storageClock });
    const b = createInstance({ settings: storage.settings, logger: silent, id: 'b', host: 'host-b', ttlMs: 30_000, clock: storageClock });
    await a.start();
    await b.start();
    t.after(async () => { await a.stop(); await b.stop(); });
    const lease = (await storage.settings.get<InstanceLeases>(INSTANCE_LEASES_KEY))!.a!;
    const fromStorage = lease.expiresAtMs - (Date.now() + 45_000);
    assert.ok(fromStorage > 29_000 && fromStorage <= 30_000, `expires 30 s after the storage's now (${fromStorage} ms)`);
    assert.deepEqual([...(await b.live())].sort(), ['a', 'b']);
    // Judged on the host's clock, the same lease would look 45 s younger; a host 45 s ahead would have seen it lapsed.
    const ahead = createInstance({ settings: storage.settings, logger: silent, id: 'c', host: 'host-c', clock: async () => Date.now() + 45_000 });
    assert.deepEqual([...(await ahead.live())].sort(), ['a', 'b'], 'whatever the host clock, the storage clock judges');
  });

  it('an instance that cannot renew tells its runs to stop at half its lease; renewed again, it holds it again', async (t) => {
    // Lease 3 s, renewed every 250 ms: wide enough that a loaded machine's late timers do not blur the halves.
    const storage = await openStorage(t);
    const { state, store } = switchable(storage.settings);
    const a = createInstance({ settings: store, logger: silent, id: 'a', host: 'host-a', ttlMs: 3_000, renewEveryMs: 250 });
    const b = createInstance({ settings: storage.settings, logger: silent, id: 'b', host: 'host-b', ttlMs: 3_000, renewEveryMs: 250 });
    await a.start();
    await b.start();
    t.after(async () => { state.down = false; await a.stop(); await b.stop(); });
    const lost: number[] = [];
    a.onLeaseLost(() => lost.push(Date.now()));
    await sleep(800);
    assert.deepEqual([lost.length, a.leaseHeld], [0, true], 'renewing: nothing lost');
    const cutAt = Date.now();
    state.down = true;
    while (lost.length === 0 && Date.now() - cutAt < 6_000) await sleep(20);
    assert.equal(lost.length, 1, 'told once');
    const after = lost[0]! - cutAt;
    assert.ok(after >= 1_000 && after <= 2_400, `at half the lease after the last renewal (${after} ms after the cut, lease 3 s, renewed every 250 ms)`);
    assert.equal(a.leaseHeld, false);
    assert.ok((await b.live()).has('a'), 'when told, the others still see it live: its runs stop before it is taken for dead');
    const until = async (what: () => Promise<boolean>, ms: number) => {
      const end = Date.now() + ms;
      while (!(await what()) && Date.now() < end) await sleep(50);
      return what();
    };
    assert.ok(await until(async () => !(await b.live()).has('a'), 4_000), 'then its lease lapses for the others');
    assert.equal(lost.length, 1, 'told once per loss');
    state.down = false;
    assert.ok(await until(async () => a.leaseHeld, 3_000), 'renewed again');
    assert.ok((await b.live()).has('a'));
  });
});
