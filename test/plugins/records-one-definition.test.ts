import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import * as records from '../../kernel/contracts/records.js';
import { namedSchemas } from '../../kernel/http/named-schema.js';
import { SetupBody, User } from '../../plugins/auth/schemas.js';
import { Credential, CredentialBody, CredentialUpdateBody } from '../../plugins/credentials/schemas.js';
import { Capture } from '../../plugins/data/schemas.js';
import { Execution, ExecutionSummary } from '../../plugins/executions/schemas.js';
import { TaskBundle } from '../../plugins/portability/schemas.js';
import { RunAnswer } from '../../plugins/runs/schemas.js';
import { Proxy, ProxyBody } from '../../plugins/settings/schemas.js';
import { Action, Task, TaskBody, TaskPatchBody } from '../../plugins/tasks/schemas.js';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';

// Each record is one schema (kernel/contracts/records.ts): the API, the export bundle, the OpenAPI document, the
// dashboard and the CLI all take it from there.

const RECORD_COMPONENTS = [
  'Action', 'Schedule', 'Task', 'TaskSummary', 'TaskVersion', 'LogLine', 'RunResult', 'Execution', 'ExecutionSummary',
  'RunAnswer', 'Capture', 'Proxy', 'Credential',
] as const;

describe('records: one definition each', () => {
  it('the plugins answer with the records themselves, and the bundle carries the API\'s Task', () => {
    assert.equal(Task, records.Task);
    assert.equal(Action, records.Action);
    assert.equal(TaskBundle.properties.tasks.items, records.Task, 'the bundle\'s task is the API\'s');
    assert.equal(TaskBundle.properties.tasks.items.properties.actions.items, records.Action, 'the bundle\'s action is the API\'s');
    assert.equal(Execution, records.Execution);
    assert.equal(ExecutionSummary, records.ExecutionSummary);
    assert.equal(RunAnswer, records.RunAnswer);
    assert.equal(Capture, records.Capture);
    assert.equal(Proxy, records.Proxy);
    assert.equal(Credential, records.Credential);
    assert.equal(User, records.User);
  });

  it('the request bodies are made from the records\' fields, not written again', () => {
    for (const key of ['name', 'url', 'mode', 'actions', 'schedule', 'viewport', 'output'] as const) {
      assert.equal(TaskBody.properties[key], Task.properties[key], `TaskBody.${key}`);
    }
    assert.equal(TaskBody.properties.actions.items, records.Action);
    assert.deepEqual(TaskPatchBody.properties.viewport.anyOf[0], records.Viewport, 'a patch takes the record\'s viewport, or null');
    assert.equal(ProxyBody.properties.server, Proxy.properties.server);
    assert.equal(CredentialBody.properties.config, records.CredentialRecord.properties.config);
    assert.deepEqual(CredentialUpdateBody.properties.name, records.CredentialRecord.properties.name, 'a PUT\'s name is the record\'s, optional');
    assert.equal(SetupBody.properties.email, records.UserRecord.properties.email);
  });

  it('the OpenAPI components of the records are the records', () => {
    for (const name of RECORD_COMPONENTS) {
      const record = (records as unknown as Record<string, unknown>)[name];
      assert.ok(record, `records.ts exports ${name}`);
      assert.equal(namedSchemas().get(name), record, `component ${name}`);
    }
  });
});

describe('records: the document and the bundle, over HTTP', () => {
  let svc: TestService;
  let apiKey: string;
  const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });
  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
  });
  after(() => svc.close());

  it('one Task and one Action in the OpenAPI document, used by the task routes and by the bundle', async () => {
    const doc = (await api('GET', '/api/openapi.json')).body;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const operation = (id: string) => Object.values(doc.paths as Record<string, Record<string, any>>)
      .flatMap((path) => Object.values(path)).find((op) => op.operationId === id);
    const json = (op: any, where: 'request' | 200) =>
      (where === 'request' ? op.requestBody : op.responses[where]).content['application/json'].schema;
    assert.deepEqual(json(operation('getTask'), 200), ref('Task'));
    assert.deepEqual(json(operation('exportTasks'), 200).properties.tasks.items, ref('Task'));
    assert.deepEqual(json(operation('importTasks'), 'request').properties.tasks.items, ref('Task'));
    assert.deepEqual(doc.components.schemas.Task.properties.actions.items, ref('Action'));
    assert.deepEqual(json(operation('saveTask'), 'request').properties.actions.items, ref('Action'));
    assert.deepEqual(doc.components.schemas.Action.properties.type.enum, [...records.ACTION_TYPES]);
  });

  it('an import refuses what POST /api/tasks refuses: an unknown action type, with the same reason', async () => {
    const task = { name: 'A', url: 'https://example.com/', mode: 'scrape', actions: [{ type: 'teleport' }] };
    const saved = await api('POST', '/api/tasks', { body: task });
    assert.equal(saved.status, 400);
    const at = new Date().toISOString();
    const bundle = { format: 'taskloom.tasks', formatVersion: 1, tasks: [{ ...task, id: 'task_teleport', createdAt: at, updatedAt: at }] };
    const imported = await api('POST', '/api/tasks/import', { body: bundle });
    assert.deepEqual([imported.status, imported.body.error], [400, 'VALIDATION_ERROR'], imported.text);
    assert.equal(imported.body.details, saved.body.details.replace('body.', 'body.tasks.0.'));
    assert.equal((await api('GET', '/api/tasks/task_teleport')).status, 404, 'nothing stored');
  });
});

describe('records: the dashboard and the CLI re-export them', () => {
  const RECORD_TYPES = ['Task', 'Action', 'Schedule', 'Execution', 'Capture', 'Proxy', 'Credential', 'User', 'LogLine', 'RunAnswer'];

  for (const file of ['web/src/api/types.ts', 'cli/api-types.ts']) {
    it(`${file} declares no record and imports the records as types only`, async () => {
      const source = await fs.readFile(file, 'utf8');
      for (const name of [...RECORD_TYPES, 'TaskEntry', 'TaskDetail', 'ExecutionDetail', 'ExecutionSummary', 'TaskListEntry', 'TaskVersion']) {
        assert.ok(!new RegExp(`\\binterface ${name}\\b`).test(source), `${file} declares ${name}`);
      }
      const imports = [...source.matchAll(/^(import|export)\b[^;]*?from '([^']+)'/gms)];
      assert.ok(imports.some(([, , from]) => from!.endsWith('kernel/contracts/records.js')), `${file} takes the records from records.ts`);
      for (const [statement, , from] of imports) {
        // A value import of records.ts would bring TypeBox into the dashboard's bundle; the value lists have their own file.
        if (from!.endsWith('kernel/contracts/records.js')) assert.match(statement!, /^(import|export) type\b/, statement);
      }
    });
  }

  it('the web types re-export every record type the dashboard uses', async () => {
    const source = await fs.readFile('web/src/api/types.ts', 'utf8');
    for (const name of RECORD_TYPES) {
      assert.match(source, new RegExp(`\\b${name}\\b`), `web/src/api/types.ts names ${name}`);
      assert.ok(!new RegExp(`\\b(type|interface) ${name}\\b *[={]`).test(source), `web/src/api/types.ts declares ${name} itself`);
    }
  });

  it('the built dashboard holds no TypeBox', async (t) => {
    const assets = await fs.readdir('web/dist/assets').catch(() => undefined);
    if (!assets) {
      t.skip('web/dist is not built: run `npm run build:web`');
      return;
    }
    const scripts = assets.filter((name) => name.endsWith('.js'));
    assert.ok(scripts.length > 0, 'the build holds a script');
    for (const name of scripts) {
      const text = await fs.readFile(`web/dist/assets/${name}`, 'utf8');
      // TypeBox marks every schema it builds with this key; none of the dashboard's code does.
      assert.ok(!text.includes('~kind'), `${name} holds TypeBox`);
    }
  });
});
