// The headful session with USE_NOVNC=true on the real service: Xvfb, x11vnc and websockify started and
// supervised, the status and the VNC password, noVNC's page, a VNC handshake through noVNC, x11vnc
// restarted after a kill, a visible browser on the virtual display, and no process left after shutdown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { freePort } from '../../plugins/headful/process-readiness.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const HELPERS = ['Xvfb', 'x11vnc', 'websockify'];
const missing = HELPERS.filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
const skip = chromiumOrSkip().skip
  || (missing.length > 0 && `${missing.join(', ')} not installed (apt-get install xvfb x11vnc websockify novnc)`)
  || (!existsSync('/usr/share/novnc/vnc.html') && 'noVNC is not installed (apt-get install novnc)')
  || (!existsSync('/proc/self/stat') && 'needs /proc to follow the helper processes');

interface Proc { pid: number; ppid: number; comm: string }

/** Every process descending from this one (read from /proc; one gone meanwhile is skipped). */
function descendants(): Proc[] {
  const all = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((entry): Proc[] => {
    const stat = (() => { try { return readFileSync(`/proc/${entry}/stat`, 'utf8'); } catch { return ''; } })();
    const close = stat.lastIndexOf(')');
    return stat ? [{ pid: Number(entry), ppid: Number(stat.slice(close + 2).split(' ')[1]), comm: stat.slice(stat.indexOf('(') + 1, close) }] : [];
  });
  const tree = new Set([process.pid]);
  for (let size = 0; size !== tree.size;) {
    size = tree.size;
    for (const p of all) if (tree.has(p.ppid)) tree.add(p.pid);
  }
  return all.filter((p) => p.pid !== process.pid && tree.has(p.pid));
}

const helperNamed = (comm: string) => descendants().filter((p) => p.comm.toLowerCase().startsWith(comm.toLowerCase()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** VNC authentication's DES response. Node's OpenSSL keeps DES in its legacy provider, loaded by a flag. */
function vncResponse(challenge: Buffer, password: string): Buffer {
  const script = `const c=require('crypto');const [ch,pw]=process.argv.slice(1);`
    + `const k=Buffer.alloc(8);Buffer.from(pw).copy(k,0,0,8);for(let i=0;i<8;i++){let b=k[i],r=0;for(let j=0;j<8;j++)r|=((b>>j)&1)<<(7-j);k[i]=r}`
    + `const d=c.createCipheriv('des-ecb',k,null);d.setAutoPadding(false);`
    + `process.stdout.write(Buffer.concat([d.update(Buffer.from(ch,'hex')),d.final()]).toString('hex'))`;
  const out = spawnSync(process.execPath, ['--openssl-legacy-provider', '-e', script, challenge.toString('hex'), password], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`DES failed: ${out.stderr}`);
  return Buffer.from(out.stdout, 'hex');
}

/** An RFB 3.8 handshake with VNC authentication over noVNC's WebSocket; resolves to the security result (0 = ok). */
function vncHandshake(port: number, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/websockify`, ['binary']);
    let buffer = Buffer.alloc(0);
    let step = 0;
    const fail = (error: Error) => { clearTimeout(timer); socket.terminate(); reject(error); };
    const timer = setTimeout(() => fail(new Error(`VNC handshake stalled at step ${step}`)), 10_000);
    socket.on('error', fail);
    socket.on('message', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      if (step === 0 && buffer.length >= 12) {
        if (!/^RFB 003\.00\d\n$/.test(buffer.subarray(0, 12).toString())) return fail(new Error('not an RFB 3.x server'));
        socket.send(Buffer.from('RFB 003.008\n'));
        buffer = buffer.subarray(12);
        step = 1;
      }
      if (step === 1 && buffer.length >= 1 && buffer.length >= 1 + buffer[0]!) {
        const types = [...buffer.subarray(1, 1 + buffer[0]!)];
        // 2: VNC authentication; 1 (none) would let anyone in.
        if (!types.includes(2) || types.includes(1)) return fail(new Error(`security types offered: ${types}`));
        socket.send(Buffer.from([2]));
        buffer = buffer.subarray(1 + buffer[0]!);
        step = 2;
      }
      if (step === 2 && buffer.length >= 16) {
        socket.send(vncResponse(buffer.subarray(0, 16), password));
        buffer = buffer.subarray(16);
        step = 3;
      }
      if (step === 3 && buffer.length >= 4) {
        clearTimeout(timer);
        resolve(buffer.readUInt32BE(0));
        socket.terminate();
      }
    });
  });
}

describe('headful session with USE_NOVNC=true', { skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let novncPort: number;
  let password: string;
  const status = async () => (await svc.request('GET', '/api/headful/status', { apiKey })).body;
  const running = async () => ((await status()).isRunning === true ? true : undefined);

  before(async () => {
    novncPort = await freePort();
    pages = await startPagesServer();
    svc = await startService({ USE_NOVNC: 'true', NOVNC_PORT: String(novncPort), ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('starts the display, VNC server and noVNC, and says so in the status', async () => {
    await until('the display stack', running);
    assert.deepEqual(await status(), { useNovnc: true, novncPort, isRunning: true });
    for (const helper of ['Xvfb', 'x11vnc', 'websockify']) assert.equal(helperNamed(helper).length >= 1, true, `${helper} runs`);
  });

  it('answers the VNC password kept in the store, the same every time', async () => {
    const res = await svc.request('GET', '/api/headful/vnc-password', { apiKey });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['password']);
    assert.match(res.body.password, /^[A-Za-z0-9]{8}$/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    password = res.body.password;
    assert.equal(await svc.service.services.storage.settings.get('headful.vncPassword'), password);
    assert.equal((await svc.request('GET', '/api/headful/vnc-password', { apiKey })).body.password, password);
  });

  it('serves noVNC\'s page on NOVNC_PORT', async () => {
    const res = await fetch(`http://127.0.0.1:${novncPort}/vnc.html`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /noVNC/);
  });

  it('accepts a VNC handshake through noVNC with the password and refuses a wrong one', async () => {
    assert.equal(await vncHandshake(novncPort, password), 0);
    assert.equal(await vncHandshake(novncPort, password === 'wrongpw1' ? 'wrongpw2' : 'wrongpw1'), 1);
  });

  it('restarts x11vnc when it dies', async () => {
    const [before] = helperNamed('x11vnc');
    assert.ok(before, 'x11vnc runs');
    process.kill(before.pid, 'SIGKILL');
    const after = await until('a new x11vnc', () => helperNamed('x11vnc').find((p) => p.pid !== before.pid));
    assert.notEqual(after.pid, before.pid);
    await until('the display stack', running);
    assert.equal(await vncHandshake(novncPort, password), 0);
  });

  it('opens a headful browser on the virtual display, where headful runs happen', async () => {
    const res = await svc.request('POST', '/api/browser/open', { apiKey, body: {} });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.headless, false);
    const session = svc.service.app.browserSessions.get(res.body.sessionId);
    const args = readFileSync(`/proc/${session.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(!args.includes('--headless'), 'not headless');
    assert.match(readFileSync(`/proc/${session.pid}/environ`, 'utf8'), /(^|\0)DISPLAY=:\d+\0/);
    const outcome = await svc.service.app.headfulSession.withContext({}, async (context) => {
      const page = await context.newPage();
      await page.goto(`${pages.origin}/`, 10_000);
      return page.evaluate('return { title: document.title, width: window.outerWidth }', {});
    }, { timeoutMs: 20_000 });
    assert.equal(outcome.status, 'ok', outcome.status === 'ok' ? '' : outcome.error.message);
    const value = outcome.status === 'ok' ? outcome.value as { title: string; width: number } : undefined;
    assert.equal(value?.title, 'Fixture home');
    assert.ok((value?.width ?? 0) > 0, 'a real window');
    assert.equal(svc.service.app.browserSessions.current()?.id, res.body.sessionId, 'the run used the open session');
    await svc.service.app.browserSessions.close(res.body.sessionId);
  });

  it('skips the headful attempt with headless: true, display or not', async () => {
    const res = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.headless, true);
    const pid = svc.service.app.browserSessions.get(res.body.sessionId).pid;
    assert.ok(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--headless'));
  });

  it('leaves no Xvfb, x11vnc, websockify or Chromium process after shutdown', async () => {
    const before = descendants().filter((p) => /^(xvfb|x11vnc|websockify|chrom)/i.test(p.comm));
    assert.ok(before.some((p) => /^chrom/i.test(p.comm)), 'a browser runs before shutdown');
    await svc.close();
    // A zombie of ours would still be listed: an empty list means every helper ended and was reaped.
    assert.deepEqual(descendants().filter((p) => /^(xvfb|x11vnc|websockify|chrom)/i.test(p.comm)), []);
    // Dead and handed to init for reaping (state Z) counts as gone: it holds nothing but its pid.
    const running = (pid: number) => { try { return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; } };
    assert.deepEqual(before.filter((p) => running(p.pid)), [], 'every process that ran is gone');
  });
});
