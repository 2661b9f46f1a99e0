// The proxy quarantine without a browser: blocks per proxy and site that end with the cool-down (in this process
// when the storage has no shared counters, in the counters when it has), the figures per site and proxy, and the
// rotation passing over a blocked member for that site only, or using the first when every member is blocked.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { ProxyEntry, StoredProxySettings } from '../../plugins/settings/decorators.js';
import { createProxyQuarantine } from '../../plugins/settings/proxy-quarantine.js';
import { createProxyRotation } from '../../plugins/settings/proxy-rotation.js';
import { openTestStorage } from '../../testing/open-test-storage.js';
import { makeTempDir } from '../support/service.js';

const P1: ProxyEntry = { id: 'px_1', server: 'http://1.1.1.1:8080', label: 'one' };
const P2: ProxyEntry = { id: 'px_2', server: 'http://2.2.2.2:8080' };
const settings: StoredProxySettings = { proxies: [P1, P2], defaultProxyId: 'host', includeDefaultInRotation: false, rotationMode: 'round-robin' };

describe('proxy quarantine', () => {
  it('blocks a proxy for one site until the cool-down ends (in this process without shared counters)', async () => {
    const quarantine = createProxyQuarantine(undefined, 300);
    await quarantine.record(P1.server, 'shop.test', true);
    assert.ok(await quarantine.blockedFor(P1.server, 'shop.test') > 0);
    assert.equal(await quarantine.blockedFor(P1.server, 'news.test'), 0);
    assert.equal(await quarantine.blockedFor(P2.server, 'shop.test'), 0);
    await sleep(400);
    assert.equal(await quarantine.blockedFor(P1.server, 'shop.test'), 0);
  });

  it('keeps the block in the storage counters when the storage has them (every instance sees it)', async (t) => {
    const dir = await makeTempDir();
    const storage = await openTestStorage(dir);
    t.after(async () => {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    });
    assert.ok(storage.counters, 'the test storage has counters');
    const one = createProxyQuarantine(storage.counters, 60_000);
    const other = createProxyQuarantine(storage.counters, 60_000);
    await one.record(P1.server, 'shop.test', true);
    const ms = await other.blockedFor(P1.server, 'SHOP.test');
    assert.ok(ms > 55_000 && ms <= 60_000, `${ms}`);
    assert.equal(await other.blockedFor(P2.server, 'shop.test'), 0);
  });

  it('counts runs and walls per site and proxy, most walls first', async () => {
    const quarantine = createProxyQuarantine(undefined, 60_000);
    for (const blocked of [true, false, false, true]) await quarantine.record(P1.server, 'shop.test', blocked);
    await quarantine.record(P2.server, 'shop.test', false);
    const [first, second] = quarantine.stats();
    assert.deepEqual({ ...first, blockedUntil: typeof first!.blockedUntil }, { site: 'shop.test', proxy: P1.server, runs: 4, blocks: 2, blockRate: 0.5, blockedUntil: 'string' });
    assert.deepEqual(second, { site: 'shop.test', proxy: P2.server, runs: 1, blocks: 0, blockRate: 0 });
  });

  it('rotation passes over a member blocked for the site, and uses the first when all are', async () => {
    const quarantine = createProxyQuarantine(undefined, 60_000);
    const rotation = createProxyRotation(async () => settings, Math.random, undefined, quarantine);
    await rotation.reportRun({ server: P1.server }, 'shop.test', true);
    const log: string[] = [];
    const picks = [];
    for (let i = 0; i < 3; i++) picks.push((await rotation.pick({ site: 'shop.test', log: (m) => log.push(m) }))?.server);
    assert.deepEqual(picks, [P2.server, P2.server, P2.server]);
    assert.match(log[0]!, /^proxy http:\/\/1\.1\.1\.1:8080 \(px_1\) is blocked for shop\.test for \d+ more min after a bot wall; trying the next proxy of the rotation$/);
    // Another site still gets the blocked proxy in its turn, without a word in the log.
    const newsLog: string[] = [];
    const news = [await rotation.pick({ site: 'news.test', log: (m) => newsLog.push(m) }), await rotation.pick({ site: 'news.test', log: (m) => newsLog.push(m) })];
    assert.deepEqual(news.map((choice) => choice?.server).sort(), [P1.server, P2.server]);
    assert.deepEqual(newsLog, []);
    await rotation.reportRun({ server: P2.server }, 'shop.test', true);
    const fallback: string[] = [];
    const chosen = await rotation.pick({ site: 'shop.test', log: (m) => fallback.push(m) });
    assert.ok(chosen && [P1.server, P2.server].includes(chosen.server));
    assert.match(fallback.at(-1)!, /^every proxy of the rotation is blocked for shop\.test: using the first one anyway$/);
  });
});
