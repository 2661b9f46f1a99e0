// Screenshot comparison (task option compare.screenshots) on a real service and Chromium: a screenshot action's
// capture is compared with the same action's of the previous successful run, with pixelmatch; the execution
// stores the share of differing pixels and a diff image (a capture of the run), and a change counts into
// `changed`, which the executions list filters on. The page is served locally and changes between runs.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

/** The page as it is now: `box` moves the red box; `tall` makes the page taller than the viewport. */
const look = { box: 20, tall: false };
const page = () => `<!doctype html><html><body style="margin:0;background:#fff">
<div style="position:absolute;left:${look.box}px;top:20px;width:200px;height:100px;background:#d00"></div>
${look.tall ? '<div style="height:2000px"></div>' : ''}</body></html>`;

interface Shot { actionIndex: number; capture: string; baseline?: string; differentPct?: number; sizes?: string; diff?: string; changed?: boolean; note?: string }

describe('runs: screenshot comparison', { skip: chromium.skip }, () => {
  let svc: TestService;
  let site: http.Server;
  let origin: string;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  const run = async (taskId: string) => {
    const res = await api('POST', `/api/tasks/${taskId}/api`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'success', res.text);
    return (await api('GET', `/api/executions/${res.body.executionId}`)).body;
  };
  const png = async (name: string): Promise<PNG> => {
    const res = await fetch(`${svc.baseUrl}/api/data/captures/${name}`, { headers: { 'x-api-key': apiKey } });
    assert.equal(res.status, 200);
    return PNG.sync.read(Buffer.from(await res.arrayBuffer()));
  };

  before(async () => {
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page()));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('refuses a bad compare.screenshots with 400 VALIDATION_ERROR', async () => {
    for (const screenshots of [{ pixelThreshold: 2 }, { minChangedPct: -1 }, { actions: ['1'] }, { nope: true }]) {
      const res = await api('POST', '/api/tasks', { body: { name: 'bad', mode: 'agent', url: `${origin}/`, actions: [], compare: { screenshots } } });
      assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], JSON.stringify(screenshots));
    }
  });

  it('compares each screenshot with the previous successful run\'s: share of pixels, diff image, changed, sizes', async () => {
    Object.assign(look, { box: 20, tall: false });
    const created = await api('POST', '/api/tasks', { body: {
      name: 'shot compare', mode: 'agent', url: `${origin}/`, viewport: { width: 800, height: 600 },
      actions: [{ type: 'wait', value: '10' }, { type: 'screenshot', value: 'full' }],
      compare: { screenshots: {} },
    } });
    assert.equal(created.status, 200, created.text);
    const taskId = created.body.id as string;

    const first = await run(taskId);
    const [firstShot] = first.screenshots as Shot[];
    assert.deepEqual(first.screenshots, [{ actionIndex: 1, capture: firstShot!.capture }], 'a first run keeps its screenshot as the next baseline');
    assert.equal(first.changed, undefined);

    const same = await run(taskId);
    const [sameShot] = same.screenshots as Shot[];
    assert.equal(sameShot!.baseline, firstShot!.capture);
    assert.deepEqual([sameShot!.differentPct, sameShot!.changed, same.changed], [0, false, false]);
    assert.ok(same.result.captures.includes(sameShot!.diff), 'the diff image is a capture of the run');

    look.box = 300; // the box moves: 2 x 200 x 100 pixels of 800 x 600 differ
    const moved = await run(taskId);
    const [movedShot] = moved.screenshots as Shot[];
    assert.equal(movedShot!.baseline, sameShot!.capture);
    assert.equal(movedShot!.changed, true);
    assert.equal(moved.changed, true);
    assert.ok(movedShot!.differentPct! > 5 && movedShot!.differentPct! < 10, String(movedShot!.differentPct));
    const diff = await png(movedShot!.diff!);
    assert.deepEqual([diff.width, diff.height], [800, 600]);
    const at = (x: number, y: number) => [...diff.data.subarray((y * 800 + x) * 4, (y * 800 + x) * 4 + 3)];
    assert.deepEqual(at(100, 50), [255, 0, 0], 'where the box was is marked red');
    assert.deepEqual(at(400, 50), [255, 0, 0], 'where the box is now is marked red');
    assert.notDeepEqual(at(700, 500), [255, 0, 0], 'the unchanged background is not');

    look.tall = true; // the full-page screenshot grows
    const grown = await run(taskId);
    const [grownShot] = grown.screenshots as Shot[];
    assert.equal(grownShot!.sizes, `800x600 → 800x${(await png(grownShot!.capture)).height}`);
    assert.equal(grownShot!.changed, true);
    const grownDiff = await png(grownShot!.diff!);
    assert.equal(grownDiff.height, (await png(grownShot!.capture)).height, 'the diff image is the larger size');
    const uncovered = (grownDiff.height - 10) * grownDiff.width * 4;
    assert.deepEqual([...grownDiff.data.subarray(uncovered, uncovered + 3)], [255, 0, 255], 'the area only the new one covers is magenta');
    assert.ok(grown.logs.some((l: { message: string }) => /Action 2 \(screenshot\) changed: .*% of pixels differ \(sizes 800x600/.test(l.message)));

    // The executions list: the changed column and filter.
    const changed = await api('GET', `/api/executions/list?taskId=${taskId}&changed=true`);
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body.executions.map((e: { executionId: string }) => e.executionId), [grown.executionId, moved.executionId]);
    assert.deepEqual(changed.body.executions.map((e: { changed: boolean }) => e.changed), [true, true]);
    const unchanged = await api('GET', `/api/executions?taskId=${taskId}&changed=false`);
    assert.deepEqual(unchanged.body.map((e: { executionId: string }) => e.executionId), [same.executionId]);
    const counted = await api('GET', `/api/executions/count?taskId=${taskId}&changed=true`);
    assert.equal(counted.body.total, 2);
    assert.equal((await api('GET', '/api/executions/list?changed=maybe')).status, 400);
  });

  it('minChangedPct: a difference below the share is not a change; only the listed actions are compared', async () => {
    Object.assign(look, { box: 20, tall: false });
    const created = await api('POST', '/api/tasks', { body: {
      name: 'shot threshold', mode: 'agent', url: `${origin}/`, viewport: { width: 800, height: 600 },
      actions: [{ type: 'screenshot' }, { type: 'screenshot' }],
      compare: { screenshots: { actions: [1], minChangedPct: 20 } },
    } });
    assert.equal(created.status, 200, created.text);
    const taskId = created.body.id as string;
    await run(taskId);
    look.box = 300;
    const moved = await run(taskId);
    const shots = moved.screenshots as Shot[];
    assert.deepEqual(shots.map((s) => s.actionIndex), [1], 'action 0 is not compared');
    assert.ok(shots[0]!.differentPct! > 5, String(shots[0]!.differentPct));
    assert.deepEqual([shots[0]!.changed, moved.changed], [false, false], 'under 20 % of the pixels: no change');
  });
});
