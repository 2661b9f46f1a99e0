// Chromium profiles live in DATA_DIR/browser-profiles, named after the service that made them: a service
// killed with -9 mid-run leaves its profile behind, and the next start removes it (never one of a live
// service sharing the folder); nothing is left in the system's temporary folder (Playwright's own folder is
// in the profile too).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { profilesDir, removeLeftoverProfiles } from '../../providers/browser/shared/profile-folders.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { waitFor } from '../../testing/browser/chromium-processes.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie } from '../support/service.js';

const chromium = chromiumOrSkip();
/** Profiles in the temporary folder made by these processes (other tests may make their own meanwhile). */
const inTmp = (pids: number[]) => readdirSync(os.tmpdir())
  .filter((name) => pids.some((pid) => name.startsWith(`taskloom-chromium-${os.hostname()}-${pid}-`)));
const profiles = (dataDir: string) => (existsSync(profilesDir(dataDir)) ? readdirSync(profilesDir(dataDir)) : []);

/** Processes whose command line names `text` (the Chromium processes of one profile). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
    } catch {
      return false;
    }
  }).map(Number);
}

describe('leftover profiles (unit)', () => {
  it('removes the folders of processes that are gone, keeps those of live ones', async () => {
    const dataDir = await makeTempDir();
    const live = spawn('sleep', ['30']);
    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    try {
      const dir = profilesDir(dataDir);
      const host = os.hostname();
      const names = [`chromium-${host}-${live.pid}-0a1b2c3d`, `chromium-${host}-${gone.pid}-0a1b2c3d`, `chromium-other-host-${gone.pid}-0a1b2c3d`, 'unrelated'];
      for (const name of names) await mkdir(path.join(dir, name), { recursive: true });
      assert.deepEqual(await removeLeftoverProfiles(dataDir), [names[1]]);
      assert.deepEqual(readdirSync(dir).sort(), [names[0], names[2], names[3]].sort());
    } finally {
      live.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a service killed with -9 mid-run', { skip: chromium.skip }, () => {
  let service: ServiceProcess | undefined;
  let dataDir: string;
  after(async () => {
    await service?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves its profile in DATA_DIR, which the next start removes; nothing lands in /tmp', { timeout: 120_000 }, async () => {
    dataDir = await makeTempDir();
    const env = { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' };
    service = await spawnService(env);
    const setup = await request(service.baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
    assert.equal(setup.status, 200, setup.text);
    const cookie = sessionCookie(setup.headers);
    const { apiKey } = (await request(service.baseUrl, 'POST', '/api/settings/api-key', { cookie })).body;
    const createTask = async (actions: unknown[]) => {
      const res = await request(service!.baseUrl, 'POST', '/api/tasks', {
        apiKey, body: { name: 'profile', mode: 'agent', url: `${service!.baseUrl}/api/health`, actions },
      });
      assert.equal(res.status, 200, res.text);
      return res.body.id as string;
    };
    const hanging = await createTask([{ type: 'wait', value: '60000' }]);
    void request(service.baseUrl, 'POST', `/api/tasks/${hanging}/api`, { apiKey }).catch(() => undefined);
    await waitFor(() => profiles(dataDir).length === 1, 30_000, 'the run\'s browser profile');
    const [left] = profiles(dataDir);
    assert.match(left!, new RegExp(`^chromium-${os.hostname()}-${service.child.pid}-[0-9a-f]+$`));

    const profile = path.join(profilesDir(dataDir), left!);
    // Playwright keeps its own folder there too, not in /tmp.
    await waitFor(() => existsSync(profile) && readdirSync(profile).some((name) => name.startsWith('playwright-artifacts')), 30_000,
      'Playwright\'s folder in the profile');
    const first = service.child.pid!;
    await service.stop('SIGKILL');
    // Its Chromium quits as its DevTools pipe closes.
    await waitFor(() => processesNaming(profile).length === 0, 20_000, 'the orphaned Chromium to quit');
    assert.ok(existsSync(profile), 'a kill -9 removes nothing');

    service = await spawnService(env);
    await waitFor(() => !existsSync(profile), 10_000, 'the leftover profile to be removed at start');
    const run = await request(service.baseUrl, 'POST', `/api/tasks/${await createTask([])}/api`, { apiKey });
    assert.equal(run.body.status, 'success', run.text);
    const now = profiles(dataDir);
    assert.equal(now.length, 1);
    assert.match(now[0]!, new RegExp(`^chromium-${os.hostname()}-${service.child.pid}-`));
    assert.deepEqual(inTmp([first, service.child.pid!]), [], 'no profile in the temporary folder');
  });
});
