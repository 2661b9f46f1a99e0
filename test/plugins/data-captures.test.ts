import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Errors } from '../../kernel/errors.js';
import { makeTempDir, setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

/** A valid 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);
const SECRET = 'TOP-SECRET-MARKER-7f3a';

let svc: TestService, apiKey: string, cookie: string;
const captures = () => svc.service.app.captures;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
const exists = (file: string) => fs.stat(file).then(() => true, () => false);
const names = (list: Array<{ name: string }>) => list.map((c) => c.name);

/** Sends `rawPath` exactly as written (fetch would resolve `..` and `%2e%2e` first). */
function raw(method: string, rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(svc.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sets a capture's modification time to `T0 + seconds`, to control ordering. */
async function age(name: string, seconds: number): Promise<void> {
  const at = new Date(Date.UTC(2025, 0, 1) + seconds * 1000);
  await fs.utimes(captures().pathOf(name), at, at);
}

before(async () => {
  svc = await startService();
  ({ apiKey, cookie } = await setupAdmin(svc));
});
after(() => svc.close());
beforeEach(async () => {
  for (const entry of await fs.readdir(captures().dir)) await fs.rm(path.join(captures().dir, entry), { force: true });
});

describe('captures service (app.captures)', () => {
  it('saves under DATA_DIR/captures as <executionId>_<n>.<ext>, numbering each execution on its own', async () => {
    assert.equal(captures().dir, path.join(svc.dataDir, 'captures'));
    const a1 = await captures().save('exec_a', PNG, 'png');
    const a2 = await captures().save('exec_a', JPG, 'jpg');
    const b1 = await captures().save('exec_b', PNG, 'png');
    const a3 = await captures().save('exec_a', WEBM, 'webm');
    assert.deepEqual(names([a1, a2, b1, a3]), ['exec_a_1.png', 'exec_a_2.jpg', 'exec_b_1.png', 'exec_a_3.webm']);
    const { modified, ...rest } = a1;
    assert.deepEqual(rest, { name: 'exec_a_1.png', url: '/api/data/captures/exec_a_1.png', size: PNG.length, type: 'screenshot', runId: 'exec_a' });
    assert.ok(!Number.isNaN(Date.parse(modified)));
    assert.deepEqual([a2.type, a3.type], ['screenshot', 'recording']);
    assert.deepEqual(await fs.readFile(path.join(svc.dataDir, 'captures', 'exec_a_1.png')), PNG);
    assert.deepEqual((await fs.readdir(captures().dir)).filter((f) => f.startsWith('.')), [], 'a temporary file was left behind');
  });

  it('gives concurrent saves of one execution distinct numbers and never overwrites a file', async () => {
    await fs.writeFile(path.join(captures().dir, 'exec_c_2.png'), 'already here');
    const saved = await Promise.all(Array.from({ length: 8 }, () => captures().save('exec_c', PNG, 'png')));
    assert.deepEqual(names(saved).sort(), [1, 3, 4, 5, 6, 7, 8, 9].map((n) => `exec_c_${n}.png`).sort());
    assert.equal(await fs.readFile(path.join(captures().dir, 'exec_c_2.png'), 'utf8'), 'already here');
  });

  it('adopts a finished file (e.g. a video) by moving it into place', async () => {
    const dir = await makeTempDir();
    try {
      const video = path.join(dir, 'page@abc.webm');
      await fs.writeFile(video, WEBM);
      const adopted = await captures().adopt('exec_v', video, 'webm');
      assert.deepEqual([adopted.name, adopted.type, adopted.size], ['exec_v_1.webm', 'recording', WEBM.length]);
      assert.equal(await exists(video), false);
      assert.deepEqual(await fs.readFile(captures().pathOf(adopted.name)), WEBM);
      await assert.rejects(captures().adopt('exec_v', path.join(dir, 'missing.webm'), 'webm'), /ENOENT/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses execution ids, extensions and names that could leave the folder', async () => {
    const invalid = (e: unknown) => Errors.VALIDATION_ERROR.is(e);
    for (const id of ['', '../x', 'a/b', 'a\\b', '/etc', 'a\0b', 'a.b', 'x'.repeat(201)]) {
      await assert.rejects(captures().save(id, PNG, 'png'), invalid, JSON.stringify(id));
    }
    await assert.rejects(captures().save('exec_x', PNG, 'exe' as 'png'), invalid);
    await assert.rejects(captures().save('exec_x', PNG, 'png/../../x' as 'png'), invalid);
    for (const name of ['../x_1.png', '/etc/passwd', 'x_1.png/..', 'x_1.png\0', 'x_1.PNG', 'x.png', '.tmp-1', 'x_1.svg']) {
      assert.throws(() => captures().pathOf(name), invalid, name);
      await assert.rejects(captures().remove(name), invalid, name);
    }
    assert.equal(captures().pathOf('exec_1_2.png'), path.join(captures().dir, 'exec_1_2.png'));
    assert.deepEqual(await fs.readdir(captures().dir), []);
  });
});

describe('data: listing and serving captures', () => {
  it('lists every capture newest first, or one run\'s with runId, and screenshots only', async () => {
    const saved = [
      await captures().save('run_1', PNG, 'png'), await captures().save('run_1', WEBM, 'webm'),
      await captures().save('run_10', JPG, 'jpg'), await captures().save('run_1', PNG, 'png'),
    ];
    for (const [i, c] of saved.entries()) await age(c.name, [30, 40, 10, 20][i]!);
    await fs.writeFile(path.join(captures().dir, 'notes.txt'), 'not a capture');
    const all = await api('GET', '/api/data/captures');
    assert.equal(all.status, 200);
    assert.deepEqual(names(all.body), ['run_1_2.webm', 'run_1_1.png', 'run_1_3.png', 'run_10_1.jpg']);
    assert.deepEqual(all.body[1], { ...saved[0], modified: '2025-01-01T00:00:30.000Z' });
    const run = await api('GET', '/api/data/captures?runId=run_1');
    assert.deepEqual(names(run.body), ['run_1_2.webm', 'run_1_1.png', 'run_1_3.png']);
    assert.deepEqual((await api('GET', '/api/data/captures?runId=run_none')).body, []);
    const shots = await svc.request('GET', '/api/data/screenshots', { cookie });
    assert.deepEqual(names(shots.body), ['run_1_1.png', 'run_1_3.png', 'run_10_1.jpg']);
    assert.ok(shots.body.every((c: { type: string }) => c.type === 'screenshot'));
    assert.deepEqual(names((await api('GET', '/api/data/screenshots?runId=run_10')).body), ['run_10_1.jpg']);
  });

  it('serves the file with its content type to a session or the API key', async () => {
    const files = [[PNG, 'png', 'image/png'], [JPG, 'jpg', 'image/jpeg'], [WEBM, 'webm', 'video/webm']] as const;
    for (const [data, ext, type] of files) {
      const { url } = await captures().save('exec_s', data, ext);
      for (const headers of [{ 'x-api-key': apiKey }, { cookie }] as Record<string, string>[]) {
        const res = await fetch(svc.baseUrl + url, { headers });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), type);
        assert.equal(res.headers.get('content-length'), String(data.length));
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        assert.deepEqual(Buffer.from(await res.arrayBuffer()), data);
      }
    }
  });

  it('serves nothing to an anonymous caller or a wrong key, and 404 NOT_FOUND for a missing capture', async () => {
    const { url } = await captures().save('exec_p', PNG, 'png');
    for (const headers of [{}, { 'x-api-key': 'wrong' }, { cookie: 'taskloom_session=forged' }] as Record<string, string>[]) {
      const res = await fetch(svc.baseUrl + url, { headers });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).error, 'UNAUTHORIZED');
    }
    const missing = await api('GET', '/api/data/captures/exec_p_9.png');
    assert.deepEqual([missing.status, missing.body.error], [404, 'NOT_FOUND']);
    assert.match(missing.body.details, /exec_p_9\.png/);
  });

  it('never serves or deletes anything outside the captures folder', async () => {
    // Files a traversal would reach: one beside the folder and one at the root of DATA_DIR's parent.
    await fs.writeFile(path.join(svc.dataDir, 'leak_1.png'), SECRET);
    await fs.writeFile(path.join(captures().dir, 'real_1.png'), PNG);
    await fs.symlink(path.join(svc.dataDir, 'leak_1.png'), path.join(captures().dir, 'link_1.png'));
    const attempts = [
      '..%2Fleak_1.png', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2Fleak_1.png', '%2E%2E%2fleak_1.png', '%2e%2e', '..',
      '..%5Cleak_1.png', '%252e%252e%252fleak_1.png', '%2Fetc%2Fpasswd', encodeURIComponent(path.join(svc.dataDir, 'leak_1.png')),
      'real_1.png%00', 'real_1.png%00.png', 'real_1.png%2F..%2F..%2Fleak_1.png', '../leak_1.png', '../../leak_1.png',
      'x/../../leak_1.png', '.%2Freal_1.png',
    ];
    for (const attempt of attempts) {
      for (const method of ['GET', 'DELETE']) {
        const res = await raw(method, `/api/data/captures/${attempt}`, { 'x-api-key': apiKey });
        assert.ok([400, 404].includes(res.status), `${method} ${attempt} answered ${res.status}`);
        assert.ok(!res.body.includes(SECRET) && !res.body.includes('root:'), `${method} ${attempt} leaked a file`);
        assert.match(res.body, /"error":"(VALIDATION_ERROR|NOT_FOUND)"/, `${method} ${attempt}`);
      }
    }
    // A symbolic link planted in the folder is neither listed nor followed; deleting it removes the link only.
    assert.deepEqual(names((await api('GET', '/api/data/captures')).body), ['real_1.png'], 'a symbolic link was listed');
    const link = await api('GET', '/api/data/captures/link_1.png');
    assert.deepEqual([link.status, link.body.error], [404, 'NOT_FOUND']);
    assert.ok(!link.text.includes(SECRET));
    assert.equal((await api('DELETE', '/api/data/captures/link_1.png')).status, 200);
    assert.equal(await exists(path.join(captures().dir, 'link_1.png')), false);
    assert.equal(await fs.readFile(path.join(svc.dataDir, 'leak_1.png'), 'utf8'), SECRET);
    assert.ok(await exists(path.join(captures().dir, 'real_1.png')));
  });
});

describe('data: start-up', () => {
  it('removes stale temporary files a crash left in the captures folder, and keeps the captures and fresh ones', async () => {
    const dir = await makeTempDir();
    try {
      const first = await startService({}, dir);
      const kept = await first.service.app.captures.save('exec_k', PNG, 'png');
      const stale = path.join(first.service.app.captures.dir, '.tmp-0123456789abcdef');
      await fs.writeFile(stale, 'half a file');
      const longAgo = new Date(Date.now() - 5 * 60_000);
      await fs.utimes(stale, longAgo, longAgo);
      // Another instance on the same volume may be writing this one right now.
      await fs.writeFile(path.join(first.service.app.captures.dir, '.tmp-fedcba9876543210'), 'being written');
      await first.close();
      const second = await startService({}, dir);
      try {
        assert.deepEqual((await fs.readdir(second.service.app.captures.dir)).sort(), ['.tmp-fedcba9876543210', kept.name]);
        await fs.rm(path.join(second.service.app.captures.dir, '.tmp-fedcba9876543210'));
        assert.equal((await second.service.app.captures.save('exec_k', PNG, 'png')).name, 'exec_k_2.png');
      } finally {
        await second.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('data: deleting captures', () => {
  it('deletes one capture ({ success: true }), then answers 404; a malformed name is 400', async () => {
    const { name } = await captures().save('exec_d', PNG, 'png');
    const res = await svc.request('DELETE', `/api/data/captures/${name}`, { cookie });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    assert.equal(await exists(captures().pathOf(name)), false);
    const again = await api('DELETE', `/api/data/captures/${name}`);
    assert.deepEqual([again.status, again.body.error], [404, 'NOT_FOUND']);
    const malformed = await api('DELETE', '/api/data/captures/not-a-capture.txt');
    assert.deepEqual([malformed.status, malformed.body.error], [400, 'VALIDATION_ERROR']);
  });

  it('clear-screenshots deletes every png and jpg, keeps recordings, and counts', async () => {
    await captures().save('r1', PNG, 'png');
    await captures().save('r1', JPG, 'jpg');
    await captures().save('r2', PNG, 'png');
    const video = await captures().save('r1', WEBM, 'webm');
    const res = await api('POST', '/api/data/clear-screenshots');
    assert.deepEqual([res.status, res.body], [200, { success: true, deleted: 3 }]);
    assert.deepEqual(names((await api('GET', '/api/data/captures')).body), [video.name]);
    assert.deepEqual((await api('POST', '/api/data/clear-screenshots')).body, { success: true, deleted: 0 });
  });

  it('removeForExecution removes one execution\'s captures only (ids that share a prefix stay apart)', async () => {
    for (const id of ['exec_1', 'exec_1', 'exec_10', 'exec_1_2']) await captures().save(id, PNG, 'png');
    assert.equal(await captures().removeForExecution('exec_1'), 2);
    assert.deepEqual(names(await captures().list()).sort(), ['exec_10_1.png', 'exec_1_2_1.png']);
    assert.equal(await captures().removeForExecution('../exec_10'), 0);
    assert.equal(await captures().removeForExecutions(['exec_10', 'exec_1_2', 'nope']), 2);
  });

  it('answers 401 to an anonymous caller on every data route, and deletes nothing', async () => {
    const { name } = await captures().save('exec_z', PNG, 'png');
    const routes = svc.service.app.routeTable.filter((r) => r.url.startsWith('/api/data') && r.method !== 'HEAD');
    assert.equal(routes.length, 8);
    for (const route of routes) {
      const url = route.url.replace(':name', name).replace(':domain', 'example.com');
      const res = await svc.request(route.method, url);
      assert.deepEqual([res.status, res.body.error], [401, 'UNAUTHORIZED'], `${route.method} ${route.url}`);
    }
    assert.ok(await exists(captures().pathOf(name)));
  });
});
