import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ProviderContext } from '../../../kernel/contracts/provider.js';
import { STORAGE_CONTRACT_VERSION } from '../../../kernel/contracts/storage.js';
import { jsonStorage, openJsonStorage } from '../../../providers/storage/json/index.js';
import { storageContract } from '../../../testing/storage.contract.js';
import { makeExecution, makeTask } from '../../../testing/storage/harness.js';
import { createJsonHarness, journalLines, recordingLogger, tempDir } from './json-harness.js';

storageContract('json', () => createJsonHarness());

/** Ways a crash can leave the end of a journal. */
const tornTails: Record<string, string> = {
  'half a line': '{"op":"put","doc":{"id":"torn","name":"half',
  'garbage bytes': '\u0000\u0000\u0007\u00ff garbage',
  'a garbage line then half a line': 'not json at all\n{"op":"put","doc":{"id":"torn"',
  'a complete line of zeros': '\u0000'.repeat(64) + '\n',
};

describe('json storage', () => {
  it('is the provider `json` and keeps its files under <dataDir>/store', async () => {
    assert.equal(jsonStorage.capability, 'storage');
    assert.equal(jsonStorage.id, 'json');
    assert.equal(jsonStorage.contractVersion, STORAGE_CONTRACT_VERSION);
    const dataDir = await tempDir();
    const ctx: ProviderContext = {
      config: {} as ProviderContext['config'],
      outbound: {} as ProviderContext['outbound'],
      logger: recordingLogger(),
      dataDir,
      signal: new AbortController().signal,
    };
    const storage = await jsonStorage.create(ctx);
    try {
      assert.equal(storage.kind, 'json');
      await storage.tasks.put(makeTask());
      const files = await fs.readdir(path.join(dataDir, 'store'));
      assert.ok(files.includes('tasks.jsonl'), `store files: ${files.join(', ')}`);
      assert.deepEqual(await fs.readdir(dataDir), ['store']);
    } finally {
      await storage.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  for (const [name, tail] of Object.entries(tornTails)) {
    it(`drops a torn last journal line (${name}) on reopen and stays writable`, async () => {
      const logger = recordingLogger();
      const h = await createJsonHarness({ logger });
      try {
        const tasks = [makeTask(), makeTask()];
        const runs = [makeExecution(), makeExecution()];
        for (const task of tasks) await h.storage.tasks.put(task);
        for (const run of runs) await h.storage.executions.insert(run);
        await h.storage.close();
        await fs.appendFile(path.join(h.dir, 'tasks.jsonl'), tail);
        await fs.appendFile(path.join(h.dir, 'executions.jsonl'), tail);

        const reopened = await h.reopen();
        assert.deepEqual(await reopened.tasks.list(), tasks);
        assert.deepEqual(await reopened.executions.list(), [...runs].reverse());
        assert.ok(logger.entries.some((e) => e.level === 'warn' && /torn tail/.test(e.msg ?? '')), 'a warning names the torn tail');

        const later = makeTask();
        const laterRun = makeExecution();
        await reopened.tasks.put(later);
        await reopened.executions.insert(laterRun);
        assert.equal((await journalLines(path.join(h.dir, 'tasks.jsonl'))).length, 3);

        const again = await h.reopen();
        assert.deepEqual(await again.tasks.list(), [...tasks, later]);
        assert.deepEqual(await again.executions.get(laterRun.executionId), laterRun);
        assert.equal(await again.executions.count(), 3);
      } finally {
        await h.cleanup();
      }
    });
  }

  it('skips an unreadable line in the middle of a journal, keeps the lines after it and warns', async () => {
    const logger = recordingLogger();
    const h = await createJsonHarness({ logger });
    try {
      const [a, b] = [makeTask(), makeTask()];
      await h.storage.tasks.put(a);
      await h.storage.close();
      await fs.appendFile(path.join(h.dir, 'tasks.jsonl'), `{"op":"put","doc":{"id":"cut\n${JSON.stringify({ op: 'put', doc: b })}\n`);
      const reopened = await h.reopen();
      assert.deepEqual(await reopened.tasks.list(), [a, b]);
      assert.ok(logger.entries.some((e) => e.level === 'warn' && /skipped/.test(e.msg ?? '')));
    } finally {
      await h.cleanup();
    }
  });

  it('refuses to open a directory that is already open in this process', async () => {
    const h = await createJsonHarness();
    try {
      await assert.rejects(openJsonStorage({ dir: h.dir }), /already open in this process/);
      await h.storage.tasks.put(makeTask());
      assert.equal(await h.storage.tasks.count(), 1);
    } finally {
      await h.cleanup();
    }
  });

  it('check() rejects with the reason when the directory is gone or a journal was replaced', async () => {
    const h = await createJsonHarness();
    try {
      await h.storage.check();
      const tasksFile = path.join(h.dir, 'tasks.jsonl');
      await fs.writeFile(`${tasksFile}.new`, '');
      await fs.rename(`${tasksFile}.new`, tasksFile);
      await assert.rejects(h.storage.check(), /tasks\.jsonl was replaced while open/);
      await fs.rm(h.dir, { recursive: true, force: true });
      await assert.rejects(h.storage.check(), /is not readable and writable \(ENOENT\)/);
    } finally {
      await h.cleanup();
    }
  });

  it('after close, calls reject naming the closed store', async () => {
    const h = await createJsonHarness();
    try {
      await h.storage.close();
      await assert.rejects(h.storage.tasks.list(), (error: Error & { code?: string }) => error.code === 'STORAGE_UNAVAILABLE' && /is closed/.test(error.message));
      await assert.rejects(h.storage.executions.get('x'), /is closed/);
    } finally {
      await h.cleanup();
    }
  });

  it('writes one JSON line per change and resolves writes only once they are in the file', async () => {
    const h = await createJsonHarness();
    try {
      const task = makeTask();
      await Promise.all([h.storage.tasks.put(task), h.storage.settings.set('a', 1), h.storage.executions.insert(makeExecution())]);
      assert.deepEqual(await journalLines(path.join(h.dir, 'tasks.jsonl')), [{ op: 'put', doc: task }]);
      assert.deepEqual(await journalLines(path.join(h.dir, 'settings.jsonl')), [{ op: 'put', doc: { id: 'a', value: 1 } }]);
      assert.equal((await journalLines(path.join(h.dir, 'executions.jsonl'))).length, 1);
    } finally {
      await h.cleanup();
    }
  });

  it('group-commits concurrent writes: 200 concurrent puts share a few fsyncs', async () => {
    const h = await createJsonHarness();
    const probe = await fs.open(path.join(h.dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
    await probe.close();
    const original = proto.datasync;
    let fsyncs = 0;
    proto.datasync = function (this: unknown) {
      fsyncs += 1;
      return original.call(this);
    };
    try {
      const tasks = Array.from({ length: 200 }, () => makeTask());
      await Promise.all(tasks.map((task) => h.storage.tasks.put(task)));
      assert.ok(fsyncs >= 1 && fsyncs <= 10, `${fsyncs} fsyncs for 200 concurrent writes`);
      assert.equal((await journalLines(path.join(h.dir, 'tasks.jsonl'))).length, 200);
    } finally {
      proto.datasync = original;
      await h.cleanup();
    }
  });
});
