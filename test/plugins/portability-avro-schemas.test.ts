import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import avro from 'avsc';
import type { ExecutionRecord, TaskRecord } from '../../kernel/contracts/records.js';
import {
  avroSchemas, executionFromAvro, executionToAvro, taskFromAvro, taskToAvro, type SchemaHistory,
} from '../../plugins/portability/avro/index.js';
import { makeTempDir } from '../support/service.js';

const typeOf = (schema: object) => avro.Type.forSchema(schema as avro.Schema);

const finished: ExecutionRecord = {
  executionId: 'exec_1', taskId: 'task_1', taskName: 'Prices', status: 'success', trigger: 'schedule',
  startedAt: '2025-03-01T09:00:00.000Z', finishedAt: '2025-03-01T09:00:02.500Z', durationMs: 2500,
  result: { data: { items: [{ title: 'A', price: 1.5 }], total: null }, finalUrl: 'https://example.com/', title: 'Shop', captures: ['exec_1_1.png'], pageCount: 2 },
  logs: [{ at: '2025-03-01T09:00:00.100Z', level: 'info', message: 'navigate', actionIndex: 0 }, { at: '2025-03-01T09:00:02.500Z', level: 'info', message: 'done' }],
  sessionId: 'sess_9',
};
const failed: ExecutionRecord = {
  executionId: 'exec_2', taskId: 'task_1', taskName: 'Prices', status: 'error', trigger: 'api',
  startedAt: '2025-03-01T10:00:00.000Z', finishedAt: '2025-03-01T10:00:01.000Z', durationMs: 1000,
  result: { data: null, error: Object.assign({ message: 'selector ".x" not found', actionIndex: 3, screenshot: 'exec_2_1.png' }, { code: 'E_WAIT' }), trace: 'exec_2_2.zip' },
  logs: [], attempt: 3, variables: { page: 'deals', limit: 5 },
};
const running: ExecutionRecord = {
  executionId: 'exec_3', taskId: 'task_2', taskName: 'Other', status: 'running', trigger: 'dashboard',
  startedAt: '2025-03-01T11:00:00.000Z', durationMs: 0, result: {}, logs: [],
};

const task: TaskRecord = {
  id: 'task_1', name: 'Prices', description: 'daily prices', url: 'https://example.com/{$page}', mode: 'agent',
  actions: [
    { type: 'navigate', value: 'https://example.com/' },
    { id: 'a2', type: 'wait_selector', selector: '.price', timeoutMs: 5000, disabled: false },
  ],
  variables: { page: 'deals', limit: 5, nested: { on: true } },
  schedule: { enabled: true, frequency: 'weekly', hour: 9, minute: 30, daysOfWeek: [1, 3], timezone: 'Europe/Berlin', lastRun: '2025-03-01T09:00:00.000Z', lastRunStatus: 'success', lastRunDurationMs: 2500 },
  extractionScript: 'return document.title', viewport: { width: 1280, height: 720 }, rotateProxies: false,
  createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-02-01T00:00:00.000Z',
  versions: [{ id: 'ver_1', savedAt: '2025-02-01T00:00:00.000Z', snapshot: { id: 'task_1', name: 'Old', url: 'https://example.com/', mode: 'scrape', actions: [], createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' } }],
};
const bareTask: TaskRecord = {
  id: 'task_2', name: 'Bare', url: 'https://example.org/', mode: 'scrape', actions: [],
  createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', versions: [],
};

/** Writes `values` into an Avro container file with `schema`, as the export does. */
async function writeContainer(file: string, schema: object, values: unknown[]): Promise<void> {
  const encoder = new avro.streams.BlockEncoder(schema as avro.Schema, { codec: 'deflate', writeHeader: 'always' } as never);
  const out = (await fs.open(file, 'w')).createWriteStream();
  encoder.pipe(out);
  for (const value of values) encoder.write(value);
  encoder.end();
  await once(out, 'close');
}

async function readContainer(file: string, readerSchema?: object): Promise<unknown[]> {
  const values: unknown[] = [];
  const decoder = avro.createFileDecoder(file, readerSchema ? { readerSchema: readerSchema as avro.Schema } : {});
  for await (const value of decoder) values.push(value);
  return values;
}

describe('Avro schemas', () => {
  const dirs: string[] = [];
  after(async () => { for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true }); });

  for (const [name, history] of Object.entries(avroSchemas) as [string, SchemaHistory][]) {
    it(`${name}: every version is a valid schema, and each later version reads every earlier one`, () => {
      assert.equal(history.latest, history.versions[history.latestVersion - 1]);
      assert.ok(history.latestVersion >= 2);
      const types = history.versions.map(typeOf);
      for (let reader = 0; reader < types.length; reader++) {
        for (let writer = 0; writer <= reader; writer++) {
          assert.doesNotThrow(() => types[reader]!.createResolver(types[writer]!), `v${reader + 1} reads v${writer + 1}`);
        }
      }
    });
  }

  it('round-trips executions through the latest schema: finished, failed, running, extra fields', () => {
    const type = typeOf(avroSchemas.execution.latest);
    for (const record of [finished, failed, running]) {
      const decoded = type.fromBuffer(type.toBuffer(executionToAvro(record)));
      assert.deepEqual(executionFromAvro(decoded), record);
    }
  });

  it('round-trips tasks through the latest schema, dropping only the live nextRun', () => {
    const type = typeOf(avroSchemas.task.latest);
    for (const record of [task, bareTask]) {
      assert.deepEqual(taskFromAvro(type.fromBuffer(type.toBuffer(taskToAvro(record)))), record);
    }
    const withNextRun = { ...task, schedule: { ...task.schedule!, nextRun: 1_767_000_000_000 } };
    assert.deepEqual(taskFromAvro(type.fromBuffer(type.toBuffer(taskToAvro(withNextRun)))), task);
  });

  it('encodes a stored record of odd shape instead of throwing', () => {
    const odd = { executionId: 'exec_odd', taskId: 7, status: 'success', startedAt: '2025-01-01T00:00:00Z', durationMs: 12.6, result: null, logs: [null] };
    const value = executionToAvro(odd as unknown as ExecutionRecord);
    const type = typeOf(avroSchemas.execution.latest);
    assert.ok(type.isValid(value));
    assert.deepEqual([value.taskId, value.taskName, value.durationMs, value.logs.length], ['7', '', 13, 1]);
  });

  it('reads an execution file written with v1 using the latest schema (renamed field via its alias, defaults filled)', async () => {
    const dir = await makeTempDir('taskloom-avro-');
    dirs.push(dir);
    const file = path.join(dir, 'v1.avro');
    // What a version 1 export wrote: `result.data` under its old name, no extraJson fields.
    const { dataJson, extraJson: _r, ...result } = executionToAvro(finished).result;
    const { extraJson: _e, ...v1 } = { ...executionToAvro(finished), result: { ...result, data: dataJson } };
    await writeContainer(file, avroSchemas.execution.versions[0]!, [v1]);

    const [asWritten] = await readContainer(file);
    assert.equal((asWritten as { result: { data: string } }).result.data, JSON.stringify(finished.result.data));

    const [read] = await readContainer(file, avroSchemas.execution.latest) as Parameters<typeof executionFromAvro>[0][];
    assert.equal(read!.result.dataJson, JSON.stringify(finished.result.data));
    assert.equal(read!.result.extraJson, null);
    assert.equal(read!.extraJson, null);
    const { sessionId: _s, ...withoutExtra } = finished;
    const { pageCount: _p, ...resultWithoutExtra } = finished.result;
    assert.deepEqual(executionFromAvro(read!), { ...withoutExtra, result: resultWithoutExtra });
  });

  it('reads an execution file written with v2 using the latest schema (no attempt, variables, trace or screenshot)', async () => {
    const dir = await makeTempDir('taskloom-avro-');
    dirs.push(dir);
    const file = path.join(dir, 'v2.avro');
    // What a version 2 export wrote: the newer fields in extraJson, the error's screenshot lost.
    const v3 = executionToAvro(failed);
    const { attempt: _a, variablesJson: _v, ...v3Top } = v3;
    const v2 = {
      ...v3Top, extraJson: JSON.stringify({ attempt: failed.attempt, variables: failed.variables }),
      result: { ...v3.result, trace: undefined, extraJson: JSON.stringify({ trace: failed.result.trace }), error: { message: v3.result.error!.message, actionIndex: 3 } },
    };
    await writeContainer(file, avroSchemas.execution.versions[1]!, [v2]);
    const [read] = await readContainer(file, avroSchemas.execution.latest) as Parameters<typeof executionFromAvro>[0][];
    assert.deepEqual(JSON.parse(JSON.stringify([read!.attempt, read!.variablesJson, read!.result.trace, read!.result.error])), [null, null, null, { message: failed.result.error!.message, actionIndex: 3, screenshot: null, extraJson: null }]);
    const { screenshot: _s, code: _c, ...errorAsV2 } = failed.result.error! as Record<string, unknown>;
    assert.deepEqual(executionFromAvro(read!), { ...failed, result: { ...failed.result, error: errorAsV2 } }, 'what v2 kept comes back, from extraJson');
  });

  it('reads a task written with v1 using the latest schema (variables -> variablesJson, no options or versions)', () => {
    const v1Type = typeOf(avroSchemas.task.versions[0]!);
    const latest = typeOf(avroSchemas.task.latest);
    const { variablesJson, optionsJson: _o, versions: _v, ...rest } = taskToAvro(task);
    const buffer = v1Type.toBuffer({ ...rest, variables: variablesJson });
    const read = latest.fromBuffer(buffer, latest.createResolver(v1Type));
    assert.equal(read.variablesJson, JSON.stringify(task.variables));
    assert.deepEqual([read.optionsJson, read.versions], [null, []]);
    const { extractionScript: _x, viewport: _w, rotateProxies: _r, ...seedFields } = task;
    assert.deepEqual(taskFromAvro(read), { ...seedFields, versions: [] });
  });
});
