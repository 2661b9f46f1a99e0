// Admission's host figures (issue 24, 4): cgroup v2 and v1 files read through a fake root (TASKLOOM_CGROUP_ROOT's
// seam), the machine's figures when there is no limit, and the computed run limit falling with the memory.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readHostResources } from '../../plugins/runs/host-limits/host-resources.js';
import { processTreeRss } from '../../plugins/runs/host-limits/process-tree-rss.js';
import { computeRunLimit, defaultReserveMb } from '../../plugins/runs/host-limits/run-limits.js';

const MB = 1024 * 1024;

async function fakeRoot(files: Record<string, string>): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'taskloom-cgroup-'));
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fs.writeFile(path.join(root, name), `${text}\n`);
  }
  return root;
}

describe('host resources', () => {
  it('reads a cgroup v2 memory.max and cpu.max', async () => {
    const root = await fakeRoot({ 'memory.max': String(1024 * MB), 'cpu.max': '50000 100000' });
    const host = readHostResources(root);
    assert.deepEqual(host.memoryBytes, { value: 1024 * MB, source: path.join(root, 'memory.max') });
    assert.deepEqual(host.cpus, { value: 0.5, source: path.join(root, 'cpu.max') });
  });

  it('reads cgroup v1 files, and takes v1\'s huge "no limit" and v2\'s "max" for the machine\'s figures', async () => {
    const v1 = readHostResources(await fakeRoot({
      'memory/memory.limit_in_bytes': String(768 * MB), 'cpu/cpu.cfs_quota_us': '100000', 'cpu/cpu.cfs_period_us': '100000',
    }));
    assert.equal(v1.memoryBytes.value, 768 * MB);
    assert.equal(v1.cpus.value, 1);
    const unlimitedV1 = readHostResources(await fakeRoot({ 'memory/memory.limit_in_bytes': '9223372036854771712', 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' }));
    assert.deepEqual(unlimitedV1.memoryBytes, { value: os.totalmem(), source: 'os.totalmem()' });
    assert.deepEqual(unlimitedV1.cpus, { value: os.availableParallelism(), source: 'os.availableParallelism()' });
    const unlimitedV2 = readHostResources(await fakeRoot({ 'memory.max': 'max', 'cpu.max': 'max 100000' }));
    assert.equal(unlimitedV2.memoryBytes.source, 'os.totalmem()');
    assert.equal(unlimitedV2.cpus.source, 'os.availableParallelism()');
  });

  it('takes the smallest limit from the process\'s own cgroup up to the root (a parent\'s limit applies)', async () => {
    const root = await fakeRoot({
      'memory.max': 'max', 'app/memory.max': String(900 * MB), 'app/web/memory.max': 'max',
      'cpu.max': 'max 100000', 'app/cpu.max': '150000 100000', 'app/web/cpu.max': '50000 100000',
    });
    const host = readHostResources(root, '0::/app/web\n');
    assert.deepEqual(host.memoryBytes, { value: 900 * MB, source: path.join(root, 'app/memory.max') });
    assert.deepEqual(host.cpus, { value: 0.5, source: path.join(root, 'app/web/cpu.max') });
    const v1 = readHostResources(await fakeRoot({
      'memory/memory.limit_in_bytes': '9223372036854771712', 'memory/pod/memory.limit_in_bytes': String(700 * MB),
    }), '4:memory:/pod\n');
    assert.equal(v1.memoryBytes.value, 700 * MB);
  });

  it('computes fewer runs at once as the memory shrinks, never fewer than 1, and says how', () => {
    const cpus = { value: 8, source: 'cpu.max' };
    const limitFor = (memoryMb: number) => computeRunLimit({
      resources: { memoryBytes: { value: memoryMb * MB, source: 'memory.max' }, cpus }, perRunMb: 512, reserveMb: defaultReserveMb(memoryMb * MB),
    });
    assert.equal(limitFor(32_768).limit, 8, 'plenty of memory: the CPUs bound it');
    assert.equal(limitFor(4096).limit, 6, '(4096 - 1024) / 512');
    assert.equal(limitFor(2048).limit, 3, '(2048 - 512) / 512');
    const tiny = limitFor(600);
    assert.equal(tiny.limit, 1);
    assert.equal(tiny.byMemory, 0);
    assert.match(tiny.explanation, /600 MB from memory\.max - 512 MB reserve\) \/ 512 MB a run/);
    assert.match(tiny.explanation, /at least 1/);
  });

  it('measures the resident memory of a process tree from /proc', { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
    const own = processTreeRss(process.pid)!;
    assert.ok(own > 10 * MB && Number.isInteger(own), `this process holds ${own} bytes`);
    assert.equal(processTreeRss(2 ** 22 + 12345), undefined, 'a pid that does not exist');
  });
});
