import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { openJsonStorage } from '../../../providers/storage/json/index.js';
import { makeExecution, makeTask } from '../../../testing/storage/harness.js';
import { journalLines, tempDir } from './json-harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const writer = path.join(here, 'fixtures', 'crash-writer.ts');
const KILLS = 3;

/** Runs the writer until it has acknowledged `target` writes plus a random moment, then SIGKILLs it. */
async function runAndKill(dir: string, run: number, target: number): Promise<{ acks: string[]; compactions: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, String(run)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: string[] = [];
  let partial = '';
  let stderr = '';
  let killing = false;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.stdout.on('data', (chunk: Buffer) => {
    // The last piece has no newline yet (or was cut by the kill): wait for the rest of it.
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    acks.push(...lines);
    if (!killing && acks.length >= target) {
      killing = true;
      setTimeout(() => child.kill('SIGKILL'), Math.random() * 20);
    }
  });
  const signal = await exited;
  clearTimeout(timer);
  assert.equal(signal, 'SIGKILL', `the writer should die by SIGKILL, not on its own; stderr:\n${stderr}`);
  assert.ok(acks.length >= target, `only ${acks.length} acknowledged writes before the timeout; stderr:\n${stderr}`);
  const compactions = stderr.split('\n').filter((line) => line.startsWith('compacted ')).length;
  return { acks: acks.filter((line) => line !== 'ready'), compactions };
}

/** Asserts that every acknowledged write is visible in `storage`. */
async function assertAcknowledged(storage: StorageProvider, acks: string[]): Promise<void> {
  let maxHot = 0;
  for (const ack of acks) {
    const [kind, id, value] = ack.split(' ');
    if (kind === 'put' || kind === 'upd') {
      const task = await storage.tasks.get(id);
      assert.ok(task, `acknowledged task ${id} is missing`);
      assert.ok((task.n as number) >= Number(value ?? 0), `task ${id}: n=${task.n} but update to ${value} was acknowledged`);
    } else if (kind === 'hot') {
      maxHot = Math.max(maxHot, Number(id));
    } else if (kind === 'exe' || kind === 'exs') {
      const record = await storage.executions.get(id);
      assert.ok(record, `acknowledged execution ${id} is missing`);
      if (value === 'success') assert.equal(record.status, 'success', `execution ${id}`);
      if (value === 'running') assert.ok(['running', 'success'].includes(record.status), `execution ${id} is ${record.status}`);
    } else {
      assert.fail(`unexpected line from the writer: ${JSON.stringify(ack)}`);
    }
  }
  const hot = await storage.tasks.get('hot');
  assert.ok(hot && (hot.n as number) >= maxHot, `hot counter ${hot?.n} is below the acknowledged ${maxHot}`);
}

describe('json storage crash safety', () => {
  it(`keeps every acknowledged write across ${KILLS} kill -9s of a busy writer`, async (t) => {
    const dir = await tempDir();
    const acknowledged: string[] = [];
    try {
      for (let run = 0; run < KILLS; run++) {
        const { acks, compactions } = await runAndKill(dir, run, 300 + Math.floor(Math.random() * 700));
        acknowledged.push(...acks);
        t.diagnostic(`run ${run}: killed after ${acks.length} acknowledged writes and ${compactions} compactions`);

        const storage = await openJsonStorage({ dir });
        try {
          await assertAcknowledged(storage, acknowledged);
          await storage.check();
          // Readable and writable after the crash: a new write lands and survives a clean reopen.
          const task = makeTask({ id: `after-crash-${run}` });
          const record = makeExecution({ executionId: `after-crash-${run}` });
          await storage.tasks.put(task);
          await storage.executions.insert(record);
          await storage.close();
          const again = await openJsonStorage({ dir });
          assert.deepEqual(await again.tasks.get(task.id), task);
          assert.deepEqual(await again.executions.get(record.executionId), record);
          await again.close();
        } finally {
          await storage.close();
        }
        for (const file of ['tasks.jsonl', 'executions.jsonl']) await journalLines(path.join(dir, file));
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
