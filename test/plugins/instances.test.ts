// Instance leases (plugins/instances) on a real store: how instances sharing one database tell the live from the
// stopped, and why a second process may not take a running instance's INSTANCE_ID.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type TestContext } from 'node:test';
import { ConfigError, loadConfig } from '../../kernel/config.js';
import { readModuleConfig } from '../../kernel/module-config.js';
import { instancesPlugin } from '../../plugins/instances/index.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { createInstance } from '../../plugins/instances/instance.js';
import { INSTANCE_LEASES_KEY, generateInstanceId, type InstanceLease, type InstanceLeases } from '../../plugins/instances/instance-lease.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir } from '../support/service.js';

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };

async function openStorage(t: TestContext): Promise<StorageProvider> {
  const dir = await makeTempDir('taskloom-instance-');
  const storage = await openJsonStorage({ dir, logger: silent });
  t.after(async () => {
    await storage.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return storage;
}

/** A lease as another process would have written it. */
const lease = (over: Partial<InstanceLease>): InstanceLease => ({
  host: 'elsewhere', pid: 4242, process: 'p-other', renewedAtMs: Date.now(), expiresAtMs: Date.now() + 30_000, ...over,
});
const writeLeases = (storage: StorageProvider, leases: InstanceLeases) => storage.settings.update<InstanceLeases>(INSTANCE_LEASES_KEY, (cur) => ({ ...cur, ...leases }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('instance leases', () => {
  it('start takes a lease that names the host and process; live() lists it, dead() does not', async (t) => {
    const storage = await openStorage(t);
    const a = createInstance({ settings: storage.settings, logger: silent, id: 'instance-a' });
    await a.start();
    t.after(() => a.stop());
    const stored = (await storage.settings.get<InstanceLeases>(INSTANCE_LEASES_KEY))!['instance-a']!;
    assert.deepEqual([stored.host, stored.pid], [os.hostname(), process.pid]);
    assert.ok(stored.expiresAtMs > Date.now() + 25_000 && stored.expiresAtMs <= Date.now() + 30_000);
    assert.deepEqual([...(await a.live())], ['instance-a']);
    assert.deepEqual(await a.dead(), []);
  });

  it('tells a lapsed lease and a gone process on this host from live ones; forget drops only leases still ended', async (t) => {
    const storage = await openStorage(t);
    const expiredAt = Date.now() - 5_000;
    await writeLeases(storage, {
      lapsed: lease({ expiresAtMs: expiredAt }),
      'gone-here': lease({ host: 'this-host', pid: deadPid() }),
      'restarted-container': lease({ host: 'this-host', pid: process.pid }),
      'alive-here': lease({ host: 'this-host', pid: process.ppid }),
      'alive-elsewhere': lease({ host: 'elsewhere', pid: deadPid() }),
    });
    const me = createInstance({ settings: storage.settings, logger: silent, id: 'me', host: 'this-host' });
    await me.start();
    t.after(() => me.stop());
    assert.deepEqual([...(await me.live())].sort(), ['alive-elsewhere', 'alive-here', 'me']);
    const dead = await me.dead();
    assert.deepEqual(dead.map((d) => [d.id, d.reason]).sort(), [
      ['gone-here', 'process-gone'],
      ['lapsed', 'lapsed'],
      ['restarted-container', 'process-gone'],
    ]);
    assert.equal(dead.find((d) => d.id === 'lapsed')!.lease.expiresAtMs, expiredAt);
    await writeLeases(storage, { lapsed: lease({}) }); // it came back meanwhile: its lease stays
    await me.forget(dead.map((d) => d.id));
    const left = Object.keys((await storage.settings.get<InstanceLeases>(INSTANCE_LEASES_KEY))!).sort();
    assert.deepEqual(left, ['alive-elsewhere', 'alive-here', 'lapsed', 'me']);
  });

  it('refuses an INSTANCE_ID a running instance holds, naming it; takes it once that lease has lapsed', async (t) => {
    const storage = await openStorage(t);
    await writeLeases(storage, { shared: lease({ host: 'node-7', pid: 31 }) });
    const second = createInstance({ settings: storage.settings, logger: silent, id: 'shared' });
    await assert.rejects(second.start(), (error: Error) => {
      assert.match(error.message, /^INSTANCE_ID shared is held by a running instance \(host node-7, pid 31, lease renewed \d+ s ago\): give every instance its own INSTANCE_ID/);
      return true;
    });
    assert.equal((await storage.settings.get<InstanceLeases>(INSTANCE_LEASES_KEY))!.shared!.host, 'node-7', 'the holder keeps its lease');
    await writeLeases(storage, { shared: lease({ host: 'node-7', pid: 31, expiresAtMs: Date.now() - 1 }) });
    await second.start();
    t.after(() => second.stop());
    assert.equal((await storage.settings.get<InstanceLeases>(INSTANCE_LEASES_KEY))!.shared!.pid, process.pid);
  });

  it('renews the lease while it runs; stop ends it at once, and the others see it gone', async (t) => {
    const storage = await openStorage(t);
    const a = createInstance({ settings: storage.settings, logger: silent, id: 'a', host: 'host-a', ttlMs: 300, renewEveryMs: 50 });
    const b = createInstance({ settings: storage.settings, logger: silent, id: 'b', host: 'host-b', ttlMs: 300, renewEveryMs: 50 });
    await a.start();
    await b.start();
    t.after(() => b.stop());
    await sleep(700); // more than twice the TTL: only renewals keep them
    assert.deepEqual([...(await b.live())].sort(), ['a', 'b']);
    const stoppedAt = Date.now();
    await a.stop();
    assert.deepEqual([...(await b.live())], ['b']);
    const [gone] = await b.dead();
    assert.deepEqual([gone!.id, gone!.reason], ['a', 'lapsed']);
    assert.ok(Math.abs(gone!.lease.expiresAtMs - stoppedAt) < 1_000, 'the lease ended when it stopped, not 300 ms later');
    await sleep(150);
    assert.deepEqual(await a.dead(), [], 'a stopped instance renews nothing and sees nothing as its own leftovers');
  });
});

/** INSTANCE_ID as start-up reads it: the environment through the instances plugin's variables. */
const instanceIdOf = (env: Record<string, string>) =>
  (readModuleConfig(instancesPlugin, loadConfig(env).variables, { required: true }) as { INSTANCE_ID?: string }).INSTANCE_ID;

describe('instance ids', () => {
  it('are generated as <host>-<6 hex> when INSTANCE_ID is not set, different at every start', () => {
    assert.match(generateInstanceId('web-1.example'), /^web-1\.example-[0-9a-f]{6}$/);
    assert.match(generateInstanceId('_weird host!'), /^weird-host--[0-9a-f]{6}$/);
    assert.notEqual(generateInstanceId('h'), generateInstanceId('h'));
    assert.equal(instanceIdOf({}), undefined);
  });

  it('INSTANCE_ID is kept as given, and a bad one stops start-up with one line naming it', () => {
    assert.equal(instanceIdOf({ INSTANCE_ID: ' web-1_a.b ' }), 'web-1_a.b');
    for (const bad of ['-leading', 'has space', 'x'.repeat(65), 'sl/ash']) {
      assert.throws(() => instanceIdOf({ INSTANCE_ID: bad }), (error: Error) =>
        error instanceof ConfigError && /^Invalid configuration: INSTANCE_ID is ".*"; expected up to 64 letters, digits/.test(error.message));
    }
  });
});
