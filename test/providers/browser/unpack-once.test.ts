// Unpacking once into a folder, with real processes: reuse, a crash mid-way, leftovers, two processes racing.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unpackOnce } from '../../../providers/browser/shared/unpack-once.js';

const CHILD = path.resolve('test/providers/browser/fixtures/unpack-child.ts');

/** Starts the fixture; resolves its output lines as they come. */
function child(mode: 'hang' | 'gate', dir: string): { process: ChildProcess; lines: Array<Record<string, unknown>>; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { process: proc, lines, exited };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`still waiting for ${what}`);
}

describe('unpackOnce', () => {
  let root: string;
  before(async () => { root = await mkdtemp(path.join(os.tmpdir(), 'taskloom-unpack-')); });
  after(() => rm(root, { recursive: true, force: true }));

  const marker = {
    name: 'result',
    isComplete: async (dir: string) => existsSync(path.join(dir, 'done')),
  };

  it('unpacks on the first call and reuses the result after', async () => {
    const parentDir = path.join(root, 'reuse');
    let unpacks = 0;
    const options = { ...marker, parentDir, unpack: async (dir: string) => { unpacks++; await writeFile(path.join(dir, 'done'), 'x'); } };
    assert.deepEqual(await unpackOnce(options), { dir: path.join(parentDir, 'result'), unpacked: true });
    assert.deepEqual(await unpackOnce(options), { dir: path.join(parentDir, 'result'), unpacked: false });
    assert.equal(unpacks, 1);
    assert.deepEqual(await readdir(parentDir), ['result']);
  });

  it('a failing unpack leaves nothing behind, and the next call unpacks', async () => {
    const parentDir = path.join(root, 'failing');
    await assert.rejects(unpackOnce({ ...marker, parentDir, unpack: async (dir) => {
      await writeFile(path.join(dir, 'half'), 'x');
      throw new Error('disk full');
    } }), /disk full/);
    assert.deepEqual(await readdir(parentDir), []);
    const result = await unpackOnce({ ...marker, parentDir, unpack: (dir) => writeFile(path.join(dir, 'done'), '') });
    assert.equal(result.unpacked, true);
  });

  it('a process killed mid-unpack leaves no half result, and its leftover is removed by the next start', async () => {
    const parentDir = path.join(root, 'crash');
    const crashing = child('hang', parentDir);
    await until(() => crashing.lines.length > 0, 'the unpack to start');
    const temp = String(crashing.lines[0]!.started);
    crashing.process.kill('SIGKILL');
    await crashing.exited;
    assert.ok(existsSync(temp), 'the crash left its temporary folder');
    assert.ok(!existsSync(path.join(parentDir, 'result')), 'and no result');
    const result = await unpackOnce({ ...marker, parentDir, unpack: (dir) => writeFile(path.join(dir, 'done'), '') });
    assert.equal(result.unpacked, true);
    assert.deepEqual(await readdir(parentDir), ['result']);
  });

  it('removes leftovers of gone processes, of an earlier process with this pid and old ones from other hosts; keeps live ones', async () => {
    const parentDir = path.join(root, 'leftovers');
    const host = os.hostname();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    const names = {
      gone: `.unpacking-${host}-${gone}-aa`,
      samePid: `.unpacking-${host}-${process.pid}-bb`,
      oldElsewhere: '.unpacking-other-host-1234-cc',
      freshElsewhere: '.unpacking-other-host-1234-dd',
      live: `.unpacking-${host}-${process.ppid}-ee`,
    };
    for (const name of Object.values(names)) {
      await mkdir(path.join(parentDir, name), { recursive: true });
      await writeFile(path.join(parentDir, name, 'partial'), 'x');
    }
    await utimes(path.join(parentDir, names.oldElsewhere), hourAgo, hourAgo);
    await unpackOnce({ ...marker, parentDir, unpack: (dir) => writeFile(path.join(dir, 'done'), '') });
    assert.deepEqual((await readdir(parentDir)).sort(), [names.freshElsewhere, names.live, 'result'].sort());
  });

  it('a folder there but incomplete (damaged by hand) is replaced', async () => {
    const parentDir = path.join(root, 'damaged');
    await mkdir(path.join(parentDir, 'result'), { recursive: true });
    await writeFile(path.join(parentDir, 'result', 'stray'), 'x');
    const result = await unpackOnce({ ...marker, parentDir, unpack: (dir) => writeFile(path.join(dir, 'done'), '') });
    assert.equal(result.unpacked, true);
    assert.deepEqual(await readdir(path.join(parentDir, 'result')), ['done']);
  });

  it('two processes racing both end with the one complete result', async () => {
    const parentDir = path.join(root, 'race');
    const racers = [child('gate', parentDir), child('gate', parentDir)];
    // Both are mid-unpack at once before either may finish.
    await until(() => racers.every((racer) => racer.lines.length > 0), 'both unpacks to start');
    await writeFile(path.join(parentDir, 'go'), '');
    assert.deepEqual(await Promise.all(racers.map((racer) => racer.exited)), [0, 0]);
    const results = racers.map((racer) => racer.lines[1] as { dir: string; unpacked: boolean });
    assert.deepEqual(results.map((r) => r.dir), [path.join(parentDir, 'result'), path.join(parentDir, 'result')]);
    assert.deepEqual(results.map((r) => r.unpacked).sort(), [false, true], 'one unpacked it, the other used it');
    const winner = racers[results.findIndex((r) => r.unpacked)]!.process.pid;
    assert.equal(await readFile(path.join(parentDir, 'result', 'owner'), 'utf8'), String(winner));
    assert.deepEqual((await readdir(parentDir)).sort(), ['go', 'result']);
  });
});
