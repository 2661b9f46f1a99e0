import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setupAdmin, startService, type RequestOptions, type TestService } from '../support/service.js';
import { ACTION_TYPES } from '../../plugins/tasks/schemas.js';

const BASE = { name: 'Valid', url: 'https://example.com', mode: 'agent', actions: [{ type: 'click', selector: 'a' }] };

let svc: TestService;
let apiKey: string;
let cookie: string;
const api = (method: string, url: string, options: RequestOptions = {}) => svc.request(method, url, { apiKey, ...options });

before(async () => {
  svc = await startService();
  ({ apiKey, cookie } = await setupAdmin(svc));
});
after(async () => { await svc.close(); });

function assertInvalid(res: { status: number; body: any; text: string }, field: RegExp, label: string) {
  assert.equal(res.status, 400, `${label}: ${res.text}`);
  assert.equal(res.body.error, 'VALIDATION_ERROR', label);
  assert.equal(typeof res.body.details, 'string', label);
  assert.match(res.body.details, field, label);
}

const long = (n: number) => 'x'.repeat(n);

// [label, body, the field the details must name]
const BAD_BODIES: [string, Record<string, unknown>, RegExp][] = [
  ['missing name', { url: BASE.url, mode: 'agent', actions: [] }, /body\.name is required/],
  ['empty name', { ...BASE, name: '' }, /body\.name/],
  ['name too long', { ...BASE, name: long(201) }, /body\.name/],
  ['name of the wrong type', { ...BASE, name: 123 }, /body\.name must be string/],
  ['missing url', { name: 'x', mode: 'agent', actions: [] }, /body\.url is required/],
  ['url not a URL', { ...BASE, url: 'not a url' }, /url must be an absolute http or https URL/],
  ['url relative', { ...BASE, url: '/relative/path' }, /url must be an absolute http/],
  ['url not http', { ...BASE, url: 'ftp://example.com/file' }, /url must be an absolute http/],
  ['url too long', { ...BASE, url: `https://example.com/${long(2040)}` }, /body\.url/],
  ['bad mode', { ...BASE, mode: 'turbo' }, /body\.mode must be one of agent, scrape, headful/],
  ['missing actions', { name: 'x', url: BASE.url, mode: 'agent' }, /body\.actions is required/],
  ['actions not an array', { ...BASE, actions: 'click' }, /body\.actions/],
  ['bad action type', { ...BASE, actions: [{ type: 'fly' }] }, /body\.actions\.0\.type must be one of navigate/],
  ['action without type', { ...BASE, actions: [{ selector: 'a' }] }, /body\.actions\.0\.type is required/],
  ['unknown action field', { ...BASE, actions: [{ type: 'click', foo: 1 }] }, /body\.actions\.0\.foo is not an accepted field/],
  ['action timeoutMs a string', { ...BASE, actions: [{ type: 'wait_selector', selector: 'a', timeoutMs: '5' }] }, /body\.actions\.0\.timeoutMs/],
  ['action disabled a string', { ...BASE, actions: [{ type: 'click', disabled: 'yes' }] }, /body\.actions\.0\.disabled/],
  ['too many actions', { ...BASE, actions: Array(1001).fill({ type: 'stop' }) }, /body\.actions/],
  ['unknown top-level field', { ...BASE, bogus: 1 }, /body\.bogus is not an accepted field/],
  ['variables not an object', { ...BASE, variables: 'x' }, /body\.variables/],
  ['variables an array', { ...BASE, variables: [1] }, /body\.variables/],
  ['description too long', { ...BASE, description: long(2001) }, /body\.description/],
  ['description a number', { ...BASE, description: 5 }, /body\.description/],
  ['viewport width a string', { ...BASE, viewport: { width: 'wide', height: 600 } }, /body\.viewport\.width/],
  ['output onError unknown', { ...BASE, output: { credentialId: 'c', tableId: 1, onError: 'explode' } }, /body\.output\.onError/],
  ['record a string', { ...BASE, record: 'yes' }, /body\.record/],
  ['timeoutMs a string', { ...BASE, timeoutMs: '1000' }, /body\.timeoutMs/],
  ['rotateProxies a number', { ...BASE, rotateProxies: 1 }, /body\.rotateProxies/],
  ['schedule not an object', { ...BASE, schedule: 'daily' }, /body\.schedule/],
  ['id too long', { ...BASE, id: long(201) }, /body\.id/],
];

describe('tasks: validation of POST /api/tasks', () => {
  for (const [label, body, field] of BAD_BODIES) {
    it(`refuses ${label}`, async () => {
      assertInvalid(await api('POST', '/api/tasks', { body }), field, label);
    });
  }

  it('accepts every action type of ACTION_TYPES and stores nothing for refused bodies', async () => {
    const actions = ACTION_TYPES.map((type) => ({ type }));
    const res = await api('POST', '/api/tasks', { body: { ...BASE, actions } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.actions, actions);
    assert.equal((await api('GET', '/api/tasks')).body.length, 1);
  });

  it('refuses a body that is not valid JSON', async () => {
    const res = await api('POST', '/api/tasks', { raw: '{"name": "x",', headers: { 'content-type': 'application/json' } });
    assertInvalid(res, /JSON/, 'invalid JSON');
  });

  it('refuses a body that is an array, or JSON null', async () => {
    assertInvalid(await api('POST', '/api/tasks', { body: [BASE] }), /^body must be object/, 'array body');
    assertInvalid(await api('POST', '/api/tasks', { raw: 'null', headers: { 'content-type': 'application/json' } }), /^body/, 'null body');
  });

  it('refuses a ?version that is not a boolean', async () => {
    assertInvalid(await api('POST', '/api/tasks?version=maybe', { body: BASE }), /querystring\.version/, 'version');
  });

  it('serves a task whose id is 100 characters long through every path', async () => {
    const id = long(100);
    assert.equal((await api('POST', '/api/tasks', { body: { ...BASE, id } })).status, 200);
    assert.equal((await api('GET', `/api/tasks/${id}`)).body.id, id);
    assert.equal((await api('POST', `/api/tasks/${id}/touch`)).status, 200);
    assert.equal((await api('DELETE', `/api/tasks/${id}`)).status, 200);
  });

  it('serves a task whose id is 200 characters long', async () => {
    const id = `t${long(199)}`;
    assert.equal((await api('POST', '/api/tasks', { body: { ...BASE, id } })).status, 200);
    const res = await api('GET', `/api/tasks/${id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal((await api('DELETE', `/api/tasks/${id}`)).status, 200);
  });

  it('refuses a path id over 200 characters with VALIDATION_ERROR', async () => {
    assertInvalid(await api('GET', `/api/tasks/${long(201)}`), /params\.id/, 'long id');
  });
});

describe('tasks: validation of PATCH /api/tasks/{id}', () => {
  let id: string;
  before(async () => {
    id = (await api('POST', '/api/tasks', { body: { ...BASE, description: 'keep' } })).body.id;
  });

  const BAD_PATCHES: [string, unknown, RegExp][] = [
    ['null name', { name: null }, /body\.name/],
    ['null actions', { actions: null }, /body\.actions/],
    ['bad mode', { mode: 'fast' }, /body\.mode must be one of/],
    ['bad url', { url: 'example.com' }, /url must be an absolute http/],
    ['bad action', { actions: [{ type: 'teleport' }] }, /body\.actions\.0\.type/],
    ['unknown field', { colour: 'red' }, /body\.colour is not an accepted field/],
    ['wrong type', { variables: 7 }, /body\.variables/],
    ['array body', [{ name: 'x' }], /^body must be object/],
  ];
  for (const [label, body, field] of BAD_PATCHES) {
    it(`refuses ${label} and changes nothing`, async () => {
      assertInvalid(await api('PATCH', `/api/tasks/${id}`, { body }), field, label);
      const task = (await api('GET', `/api/tasks/${id}`)).body;
      assert.deepEqual([task.name, task.description, task.versions.length], ['Valid', 'keep', 0]);
    });
  }
});

describe('tasks: authentication', () => {
  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/api/tasks'],
    ['GET', '/api/tasks/list'],
    ['GET', '/api/tasks/task_x'],
    ['POST', '/api/tasks', BASE],
    ['PATCH', '/api/tasks/task_x', { name: 'x' }],
    ['DELETE', '/api/tasks/task_x'],
    ['POST', '/api/tasks/task_x/touch'],
    ['POST', '/api/tasks/task_x/versions/ver_x/restore'],
  ];

  it('answers 401 UNAUTHORIZED to an anonymous caller on every route, before validating', async () => {
    for (const [method, url, body] of ROUTES) {
      const res = await svc.request(method, url, { body: body === undefined ? undefined : { bogus: true } });
      assert.equal(res.status, 401, `${method} ${url}`);
      assert.equal(res.body.error, 'UNAUTHORIZED', `${method} ${url}`);
    }
  });

  it('answers 401 to a wrong API key', async () => {
    const res = await svc.request('GET', '/api/tasks', { apiKey: 'wrong-key' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'UNAUTHORIZED');
  });

  it('accepts the session cookie', async () => {
    assert.equal((await svc.request('GET', '/api/tasks', { cookie })).status, 200);
  });

  it('accepts the API key in x-api-key, key and Authorization: Bearer headers', async () => {
    const places: Record<string, string>[] = [{ 'x-api-key': apiKey }, { key: apiKey }, { authorization: `Bearer ${apiKey}` }];
    for (const headers of places) {
      const res = await svc.request('POST', '/api/tasks', { headers, body: { ...BASE, name: Object.keys(headers)[0]! } });
      assert.equal(res.status, 200, `${JSON.stringify(Object.keys(headers))}: ${res.text}`);
      assert.equal((await svc.request('GET', `/api/tasks/${res.body.id}`, { headers })).status, 200);
    }
  });

  it('accepts the API key in body fields apiKey and key, and never stores them', async () => {
    for (const field of ['apiKey', 'key']) {
      const res = await svc.request('POST', '/api/tasks', { body: { ...BASE, name: field, [field]: apiKey } });
      assert.equal(res.status, 200, `${field}: ${res.text}`);
      assert.equal(field in res.body, false);
      const stored = (await api('GET', `/api/tasks/${res.body.id}`)).body;
      assert.equal(field in stored, false, `${field} was stored`);
      assert.equal(JSON.stringify(stored).includes(apiKey), false);
      const patched = await svc.request('PATCH', `/api/tasks/${res.body.id}`, { body: { [field]: apiKey, description: 'p' } });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(JSON.stringify(patched.body).includes(apiKey), false);
    }
  });
});

describe('tasks: OpenAPI', () => {
  it('documents every task route', async () => {
    const doc = (await svc.request('GET', '/api/openapi.json')).body;
    for (const path of ['/api/tasks', '/api/tasks/list', '/api/tasks/{id}', '/api/tasks/{id}/touch', '/api/tasks/{id}/versions/{versionId}/restore']) {
      assert.ok(doc.paths[path], `${path} is missing`);
    }
    assert.deepEqual(Object.keys(doc.paths['/api/tasks/{id}']).sort(), ['delete', 'get', 'patch']);
  });
});
