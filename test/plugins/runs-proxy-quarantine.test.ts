// Proxy quarantine with real Chromium and two local proxies: one answers every page itself, the other (an exit
// every site has flagged) answers 403 with a bot manager's block page. With rotation on, a run that meets the
// wall through the flagged proxy blocks it for that site and runs again through the other one; later runs to
// that site pass over it while it cools down, other sites still get it; the settings view and the metrics show
// the block rate per site and proxy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startBlockingProxy, type BlockingProxy } from '../support/anti-bot-pages.js';
import { startCountingProxy, type CountingProxy } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

describe('proxy quarantine after a bot wall', { skip: chromium.skip }, () => {
  let svc: TestService;
  let good: CountingProxy;
  let flagged: BlockingProxy;
  let apiKey: string;
  let flaggedId: string;
  const api = (method: string, url: string, body?: unknown) => svc.request(method, url, { apiKey, ...(body === undefined ? {} : { body }) });

  before(async () => {
    [good, flagged] = await Promise.all([startCountingProxy(), startBlockingProxy()]);
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    // The flagged proxy first: round-robin starts with it.
    for (const [server, label] of [[flagged.server, 'flagged'], [good.server, 'good']]) {
      const added = await api('POST', '/api/settings/proxies', { server, label });
      assert.equal(added.status, 200, added.text);
    }
    flaggedId = (await api('GET', '/api/settings/proxies')).body.proxies.find((p: { label?: string }) => p.label === 'flagged').id;
  });
  after(async () => {
    await svc?.close();
    await Promise.all([good?.close(), flagged?.close()]);
  });

  async function run(url: string, extra: Record<string, unknown> = {}) {
    const task = await api('POST', '/api/tasks', { name: url, mode: 'agent', url, actions: [], rotateProxies: true, antiBot: { waitMs: 0 }, timeoutMs: 60_000, ...extra });
    assert.equal(task.status, 200, task.text);
    const answer = await api('POST', `/api/tasks/${task.body.id}/api`);
    assert.equal(answer.status, 200, answer.text);
    return (await api('GET', `/api/executions/${answer.body.executionId}`)).body;
  }
  const messages = (execution: { logs: Array<{ message: string }> }) => execution.logs.map((line) => line.message);

  it('a wall through the flagged proxy blocks it for the site and the run goes again through the other proxy', async () => {
    const execution = await run('http://shop.test/');
    assert.deepEqual([execution.status, execution.outcome], ['success', 'success'], JSON.stringify(execution.result));
    assert.equal(execution.result.title, 'Proxied shop.test');
    assert.deepEqual([flagged.hosts.filter((h) => h === 'shop.test').length > 0, good.hosts.includes('shop.test')], [true, true]);
    const log = messages(execution);
    assert.ok(log.some((m) => m === `proxy ${flagged.server} is blocked for shop.test for 30 min`), log.join('\n'));
    assert.ok(log.some((m) => /^met a bot wall \(the page answered 403 with .*\): running again through another proxy \(1 of 1\)$/.test(m)), log.join('\n'));
  });

  it('while it cools down, rotation passes over the flagged proxy for that site, not for others', async () => {
    const before = flagged.hosts.length;
    for (let i = 0; i < 2; i++) {
      const execution = await run('http://shop.test/again');
      assert.equal(execution.outcome, 'success');
    }
    assert.equal(flagged.hosts.length, before, 'no request went through the blocked proxy for shop.test');
    const other = await run('http://news.test/', { antiBot: { waitMs: 0, proxyRetries: 0 } });
    // Round-robin gives news.test the flagged proxy at some turn: with no proxy retries, a wall ends the run.
    const viaFlagged = flagged.hosts.includes('news.test');
    assert.equal(other.outcome, viaFlagged ? 'anti_bot' : 'success', JSON.stringify(other.result));
  });

  it('without retries left the run ends anti_bot; the settings view and the metrics show the block rate per site and proxy', async () => {
    const walled = await run('http://walled.test/', { antiBot: { waitMs: 0, proxyRetries: 0 } });
    const second = walled.outcome === 'anti_bot' ? undefined : await run('http://walled.test/', { antiBot: { waitMs: 0, proxyRetries: 0 } });
    const blockedRun = second ?? walled;
    assert.deepEqual([blockedRun.status, blockedRun.outcome], ['error', 'anti_bot']);
    assert.match(blockedRun.result.error.message, /^The site put up a bot wall: the page answered 403/);

    const view = await api('GET', '/api/settings/proxies/blocks');
    assert.equal(view.status, 200, view.text);
    assert.equal(view.body.coolDownMs, 30 * 60_000);
    const shop = view.body.blocks.find((b: { site: string; proxy: string }) => b.site === 'shop.test' && b.proxy === flagged.server);
    assert.deepEqual([shop.proxyId, shop.label, shop.runs, shop.blocks, shop.blockRate], [flaggedId, 'flagged', 1, 1, 1]);
    assert.ok(Date.parse(shop.blockedUntil) > Date.now());
    const shopGood = view.body.blocks.find((b: { site: string; proxy: string }) => b.site === 'shop.test' && b.proxy === good.server);
    assert.deepEqual([shopGood.runs, shopGood.blocks, shopGood.blockRate, shopGood.blockedUntil], [3, 0, 0, undefined]);

    const metrics = (await api('GET', '/api/metrics')).text;
    assert.match(metrics, new RegExp(`taskloom_proxy_runs_total\\{site="shop.test",proxy="${flagged.server}"\\} 1\\b`));
    assert.match(metrics, new RegExp(`taskloom_proxy_blocks_total\\{site="shop.test",proxy="${flagged.server}"\\} 1\\b`));
    assert.match(metrics, new RegExp(`taskloom_proxy_runs_total\\{site="shop.test",proxy="${good.server}"\\} 3\\b`));
    assert.match(metrics, new RegExp(`taskloom_proxy_blocks_total\\{site="shop.test",proxy="${good.server}"\\} 0\\b`));
    assert.equal((await svc.request('GET', '/api/settings/proxies/blocks')).status, 401);
  });
});
