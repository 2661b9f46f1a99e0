import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorCatalogue } from '../../kernel/errors.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

type Operation = {
  operationId?: string;
  responses: Record<string, { description: string; content?: Record<string, { schema?: any }> }>;
};

/** The catalogue codes an error response carries: the enum on `error` next to the Error component. */
const codesOf = (response: Operation['responses'][string]): string[] =>
  response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.enum ?? [];

function* refsIn(node: unknown): Generator<string> {
  if (Array.isArray(node)) for (const item of node) yield* refsIn(item);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') yield value;
      else yield* refsIn(value);
    }
  }
}

describe('OpenAPI operations: ids, responses, error codes, components', () => {
  let svc: TestService;
  let doc: any;
  let operations: { method: string; path: string; auth: string; op: Operation }[];

  before(async () => {
    svc = await startService();
    doc = (await svc.request('GET', '/api/openapi.json')).body;
    const routes = svc.service.app.routeTable.filter((r) => r.method !== 'HEAD');
    operations = [];
    for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const route = routes.find((r) => r.method === method.toUpperCase() && r.url.replace(/:(\w+)/g, '{$1}') === path);
        assert.ok(route, `${method} ${path} has no route`);
        operations.push({ method: method.toUpperCase(), path, auth: route.auth, op });
      }
    }
    assert.ok(operations.length >= 70, `only ${operations.length} operations`);
  });
  after(async () => { await svc.close(); });

  it('gives every operation the camelCase operationId its route declares, each unique', () => {
    const seen = new Map<string, string>();
    for (const { method, path, op } of operations) {
      const id = op.operationId;
      assert.match(id ?? '', /^[a-z][A-Za-z0-9]*$/, `${method} ${path}: operationId ${id} (declare schema.operationId)`);
      assert.ok(!seen.has(id!), `${id} names both ${seen.get(id!)} and ${method} ${path}`);
      seen.set(id!, `${method} ${path}`);
    }
  });

  it('describes a success answer with a schema for every operation, and no "Default Response"', () => {
    for (const { method, path, op } of operations) {
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      assert.ok(success.length > 0, `${method} ${path} has no 2xx response`);
      for (const [status, response] of success) {
        const media = Object.values(response.content ?? {});
        assert.ok(media.length > 0 && media.every((m) => m.schema), `${method} ${path} ${status} has no schema`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        assert.notEqual(response.description, 'Default Response', `${method} ${path} ${status}`);
      }
    }
  });

  it('lists 401 on every protected operation, and 403 on each (a caller without its scope) and where a public one changes state (cross-site)', () => {
    for (const { method, path, auth, op } of operations) {
      const where = `${method} ${path} (${auth})`;
      const unauthorized = op.responses['401'] ? codesOf(op.responses['401']) : [];
      const forbidden = auth !== 'public' || !['GET', 'HEAD'].includes(method.toUpperCase());
      if (forbidden) assert.deepEqual(codesOf(op.responses['403']!), ['FORBIDDEN'], where);
      else assert.equal(op.responses['403'], undefined, where);
      if (auth === 'public') {
        // A public route may still refuse a login (INVALID_CREDENTIALS), never a caller.
        assert.deepEqual(unauthorized.filter((c) => c === 'SETUP_REQUIRED' || c === 'UNAUTHORIZED'), [], where);
        continue;
      }
      assert.deepEqual(unauthorized, ['SETUP_REQUIRED', 'UNAUTHORIZED'], where);
    }
  });

  it('names the catalogue codes of every error response under their own status, each code on some operation', () => {
    const catalogue = new Map(errorCatalogue().map((e) => [e.code, e.statusCode]));
    const used = new Set<string>();
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || (method === 'GET' && path === '/api/health')) continue;
        const codes = codesOf(response);
        assert.ok(codes.length > 0, `${method} ${path} ${status} lists no code: ${response.description}`);
        for (const code of codes) {
          assert.equal(catalogue.get(code), Number(status), `${method} ${path}: ${code} under ${status}`);
          assert.match(response.description, new RegExp(`\`${code}\``), `${method} ${path} ${status} describes ${code}`);
          used.add(code);
        }
      }
      assert.ok(op.responses['500'], `${method} ${path} has no 500`);
    }
    assert.deepEqual([...catalogue.keys()].filter((code) => !used.has(code)), [], 'codes on no operation');
  });

  it('shares the records as named components, and every $ref points at one', () => {
    const schemas = doc.components.schemas;
    for (const name of ['Task', 'TaskSummary', 'Action', 'Schedule', 'Execution', 'ExecutionSummary', 'RunResult', 'RunAnswer', 'Proxy', 'Credential', 'Error']) {
      assert.ok(schemas[name], `components.schemas.${name} is missing`);
    }
    const refs = [...refsIn(doc.paths), ...refsIn(schemas)];
    for (const ref of refs) {
      assert.match(ref, /^#\/components\/schemas\//);
      assert.ok(schemas[ref.split('/').pop()!], `${ref} points nowhere`);
    }
    const refOf = (op: Operation, status = '200') => op.responses[status]!.content!['application/json']!.schema;
    const find = (id: string) => operations.find((o) => o.op.operationId === id)!.op;
    assert.deepEqual(refOf(find('getTask')), { $ref: '#/components/schemas/Task' });
    assert.deepEqual(refOf(find('getExecution')), { $ref: '#/components/schemas/Execution' });
    assert.deepEqual(refOf(find('listCredentials')).items, { $ref: '#/components/schemas/Credential' });
    assert.equal(schemas.Execution.properties.result.$ref, '#/components/schemas/RunResult');
    assert.equal(schemas.Task.properties.schedule.$ref, '#/components/schemas/Schedule');
    assert.ok(!JSON.stringify(doc).includes('x-schema-name'), 'the naming keyword leaks into the document');
  });

  it('gives the event stream and the metrics their own media types', () => {
    const find = (id: string) => operations.find((o) => o.op.operationId === id)!.op;
    assert.deepEqual(Object.keys(find('streamExecutionEvents').responses['200']!.content!), ['text/event-stream']);
    assert.deepEqual(Object.keys(find('getMetrics').responses['200']!.content!), ['text/plain']);
  });

  it('lists the ETag header on every answer of one task, and 429 QUEUE_FULL where a run is admitted', () => {
    const byId = new Map(operations.map(({ op }) => [op.operationId, op]));
    for (const id of ['getTask', 'saveTask', 'patchTask', 'restoreTaskVersion']) {
      const headers = (byId.get(id)!.responses['200'] as { headers?: Record<string, { schema?: { type?: string } }> }).headers;
      assert.equal(headers?.etag?.schema?.type, 'string', `${id} lists its ETag header`);
    }
    // Admission (plugins/runs/admission.ts) is reached only through the run service's start, which this route alone calls.
    const queueFull = operations.filter(({ op }) => codesOf(op.responses['429'] ?? { description: '' }).includes('QUEUE_FULL')).map(({ op }) => op.operationId);
    assert.deepEqual(queueFull, ['runTask']);
  });

  it('lists neither itself nor the docs pages', () => {
    assert.deepEqual(Object.keys(doc.paths).filter((p) => p === '/api/openapi.json' || p.startsWith('/api/docs')), []);
  });

  it('lists 415 only where a body of another media type is refused, as the service answers', async () => {
    const find = (id: string) => operations.find((o) => o.op.operationId === id)!.op;
    assert.ok(find('saveTask').responses['415']);
    assert.equal(find('runTask').responses['415'], undefined);
    const { apiKey } = await setupAdmin(svc);
    const xml = { raw: '<task/>', headers: { 'content-type': 'application/xml' }, apiKey };
    assert.equal((await svc.request('POST', '/api/tasks', xml)).body.error, 'UNSUPPORTED_MEDIA_TYPE');
    // The run endpoint reads any other body as `{}`: a task that does not exist is what it refuses.
    assert.equal((await svc.request('POST', '/api/tasks/none/api', xml)).body.error, 'TASK_NOT_FOUND');
  });
});
