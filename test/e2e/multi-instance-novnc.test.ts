// noVNC through either of two taskloom processes (USE_NOVNC=true, one PostgreSQL database): a viewer of either
// instance's noVNC port sees the display of the instance holding the open browser session, and its own display
// when none is open elsewhere. Which display answered is read from the VNC desktop name, which names the process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { freePort } from '../../plugins/headful/process-readiness.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';

const chromium = chromiumOrSkip();
const missing = ['Xvfb', 'x11vnc', 'websockify'].filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
const skip = (await postgresUnavailable()) || chromium.skip
  || (missing.length > 0 && `${missing.join(', ')} not installed (apt-get install xvfb x11vnc websockify novnc)`)
  || (!existsSync('/usr/share/novnc/vnc.html') && 'noVNC is not installed (apt-get install novnc)');

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

/** An RFB 3.8 session over noVNC's WebSocket on `port`, through VNC authentication to ServerInit: the desktop name. */
function desktopName(port: number, password: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/websockify`, ['binary']);
    let buffer = Buffer.alloc(0);
    let step = 0;
    const fail = (error: Error) => { clearTimeout(timer); socket.terminate(); reject(error); };
    const timer = setTimeout(() => fail(new Error(`VNC session stalled at step ${step}`)), 15_000);
    socket.on('error', fail);
    socket.on('message', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      if (step === 0 && buffer.length >= 12) {
        socket.send(Buffer.from('RFB 003.008\n'));
        buffer = buffer.subarray(12);
        step = 1;
      }
      if (step === 1 && buffer.length >= 1 + buffer[0]!) {
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
        if (buffer.readUInt32BE(0) !== 0) return fail(new Error('VNC authentication failed'));
        socket.send(Buffer.from([1])); // ClientInit: shared
        buffer = buffer.subarray(4);
        step = 4;
      }
      if (step === 4 && buffer.length >= 24 && buffer.length >= 24 + buffer.readUInt32BE(20)) {
        clearTimeout(timer);
        resolve(buffer.subarray(24, 24 + buffer.readUInt32BE(20)).toString('utf8'));
        socket.terminate();
      }
    });
  });
}

describe('noVNC through either of two instances', { skip, timeout: 180_000 }, () => {
  let db: TestDatabase;
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  const ports: number[] = [];
  let apiKey = '';
  let password = '';
  const SECRETS_KEY = randomBytes(32).toString('base64');
  const call = (i: number, method: string, url: string, body?: unknown) => request(procs[i]!.baseUrl, method, url, { apiKey, body });
  const pidIn = (name: string) => Number(/pid (\d+)\)/.exec(name)?.[1]);
  const viewerOf = async (i: number) => pidIn(await desktopName(ports[i]!, password));

  before(async () => {
    db = await createTestDatabase('taskloom_novnc');
    for (const id of ['alpha', 'beta']) {
      const dir = await makeTempDir(`taskloom-${id}-`);
      dirs.push(dir);
      ports.push(await freePort());
      procs.push(await spawnService({
        STORAGE: 'postgres', DATABASE_URL: db.url(), DATA_DIR: dir, SECRETS_KEY, INSTANCE_ID: id, ALLOW_PRIVATE_NETWORKS: 'true',
        USE_NOVNC: 'true', NOVNC_PORT: String(ports.at(-1)), BROWSER_EXECUTABLE_PATH: chromium.path!, DISPLAY: '',
      }));
    }
    const setup = await call(0, 'POST', '/api/auth/setup', ADMIN);
    assert.equal(setup.status, 200, setup.text);
    apiKey = (await request(procs[0]!.baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey;
    password = (await call(1, 'GET', '/api/headful/vnc-password')).body.password;
    for (let i = 0; i < 2; i++) {
      for (let waited = 0; (await call(i, 'GET', '/api/headful/status')).body.isRunning !== true; waited += 200) {
        if (waited > 30_000) throw new Error(`the display of instance ${i} did not come up`);
        await sleep(200);
      }
    }
  });

  after(async () => {
    await Promise.all(procs.map((proc) => proc.stop('SIGTERM')));
    await db?.drop();
    await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  it('with no browser open, each noVNC shows its own instance\'s display', async () => {
    assert.equal((await call(0, 'GET', '/api/headful/vnc-password')).body.password, password, 'one password for all');
    assert.deepEqual([await viewerOf(0), await viewerOf(1)], [procs[0]!.child.pid, procs[1]!.child.pid]);
  });

  it('with the browser open on A, B\'s noVNC shows A\'s display, where it is; after its close through B, B\'s own again', async () => {
    const open = await call(0, 'POST', '/api/browser/open', { headless: false });
    assert.equal(open.status, 200, open.text);
    assert.equal(open.body.headless, false, 'a window on A\'s virtual display');
    assert.deepEqual([await viewerOf(0), await viewerOf(1)], [procs[0]!.child.pid, procs[0]!.child.pid]);
    assert.match(procs[1]!.output(), /VNC viewer shown the display of the instance holding the browser/);
    assert.equal((await call(1, 'POST', '/api/browser/close', { sessionId: open.body.sessionId })).status, 200);
    assert.equal(await viewerOf(1), procs[1]!.child.pid);
  });
});
