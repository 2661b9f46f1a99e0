// The headful helpers (Xvfb, x11vnc, websockify) do not outlive a service killed with SIGKILL, which runs
// no shutdown code: each watches a pipe from the service and ends when it closes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { freePort } from '../../plugins/headful/process-readiness.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { makeTempDir } from '../support/service.js';

const missing = ['Xvfb', 'x11vnc', 'websockify'].filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
const skip = (missing.length > 0 && `${missing.join(', ')} not installed (apt-get install xvfb x11vnc websockify novnc)`)
  || (!existsSync('/usr/share/novnc/vnc.html') && 'noVNC is not installed (apt-get install novnc)')
  || (!existsSync('/proc/self/stat') && 'needs /proc to follow the helper processes');

/** pid -> [ppid, comm, state] of every process, from /proc. */
function processTable(): Map<number, [number, string, string]> {
  const table = new Map<number, [number, string, string]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), [Number(ppid), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), state!]);
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function descendantsOf(root: number): number[] {
  const table = processTable();
  const tree = new Set([root]);
  for (let size = 0; size !== tree.size;) {
    size = tree.size;
    for (const [pid, [ppid]] of table) if (tree.has(ppid)) tree.add(pid);
  }
  tree.delete(root);
  return [...tree];
}

describe('headful helpers after the service is killed', { skip }, () => {
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  after(async () => {
    await service?.stop('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('end on their own', async () => {
    const novncPort = await freePort();
    service = await spawnService({ USE_NOVNC: 'true', NOVNC_PORT: String(novncPort), DATA_DIR: (dataDir = await makeTempDir()) });
    const deadline = Date.now() + 20_000;
    while (!(await fetch(`http://127.0.0.1:${novncPort}/vnc.html`).then((res) => res.ok, () => false))) {
      assert.ok(Date.now() < deadline, 'noVNC did not come up');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const helpers = descendantsOf(service.child.pid!);
    const names = new Set(helpers.map((pid) => processTable().get(pid)?.[1]));
    for (const name of ['Xvfb', 'x11vnc', 'websockify']) assert.ok(names.has(name), `${name} runs (${[...names]})`);

    await service.stop('SIGKILL');
    const running = () => helpers.filter((pid) => {
      const entry = processTable().get(pid);
      return entry !== undefined && entry[2] !== 'Z'; // a zombie has ended; init reaps it
    });
    const until = Date.now() + 10_000;
    while (running().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(running().map((pid) => processTable().get(pid)?.[1]), []);
    assert.equal(await fetch(`http://127.0.0.1:${novncPort}/vnc.html`).then(() => 'served', () => 'refused'), 'refused');
  });
});
