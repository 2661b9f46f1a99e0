// What the service loads is what its requests have needed so far: a started service (its own process, with a
// preload that lists every module file it loaded) holds none of the libraries of browsers, databases it does
// not use, AI vendors, exports, outbound requests, metrics, response serializers or request validation; each
// loads with the first request that needs it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { makeTempDir, request } from '../support/service.js';

const PRELOAD = pathToFileURL(path.resolve('test/support/loaded-modules.mjs')).href;

/** Loaded only when a request needs them: label -> a piece of the path of their files. */
const ON_FIRST_USE: Record<string, string> = {
  playwright: '/node_modules/playwright',
  puppeteer: '/node_modules/puppeteer',
  mongodb: '/node_modules/mongodb/',
  pg: '/node_modules/pg/',
  openai: '/node_modules/openai/',
  '@anthropic-ai/sdk': '/node_modules/@anthropic-ai/sdk/',
  ollama: '/node_modules/ollama/',
  '@modelcontextprotocol/sdk': '/node_modules/@modelcontextprotocol/sdk/',
  avsc: '/node_modules/avsc/',
  undici: '/node_modules/undici/',
  socks: '/node_modules/socks/',
  'prom-client': '/node_modules/prom-client/',
  bree: '/node_modules/bree/',
  // Fastify's precompiled error serializer loads only its lib/serializer.js.
  'fast-json-stringify': '/node_modules/fast-json-stringify/index.js',
  ajv: '/node_modules/ajv/',
  'typebox/compile': '/node_modules/typebox/build/compile/',
};

let svc: ServiceProcess;
let listFile = '';

/** The module files the service has loaded so far (it writes them on SIGUSR2). */
async function loadedModules(): Promise<string[]> {
  fs.rmSync(listFile, { force: true });
  svc.child.kill('SIGUSR2');
  for (let waited = 0; waited < 20_000; waited += 50) {
    if (fs.existsSync(listFile)) return fs.readFileSync(listFile, 'utf8').split('\n');
    await sleep(50);
  }
  throw new Error('the service wrote no module list within 20 s');
}

const loadedLibraries = (files: string[]) =>
  Object.keys(ON_FIRST_USE).filter((label) => files.some((file) => file.includes(ON_FIRST_USE[label]!)));

/** Polls until `label` is among the loaded libraries (a load begun by a request may finish just after it). */
async function waitLoaded(label: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (loadedLibraries(await loadedModules()).includes(label)) return;
    await sleep(100);
  }
  assert.fail(`${label} did not load after its first use`);
}

const api = (method: string, url: string, body?: unknown) => request(svc.baseUrl, method, url, body === undefined ? {} : { body });

before(async () => {
  const dataDir = await makeTempDir();
  listFile = path.join(dataDir, 'loaded-modules.txt');
  svc = await spawnService({
    DATA_DIR: dataDir,
    AUTH_DISABLED: 'true',
    LOADED_MODULES_FILE: listFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(),
  });
});

after(async () => {
  await svc?.stop();
});

describe('start-up loading', () => {
  it('a listening service has loaded none of the libraries its requests load on first use', async () => {
    const files = await loadedModules();
    // The list sees both kinds of module: CommonJS (Fastify) and ES modules (TypeBox's type builder).
    assert.ok(files.some((file) => file.includes('/node_modules/fastify/')), 'the list holds CommonJS modules');
    assert.ok(files.some((file) => file.includes('/node_modules/typebox/build/type/')), 'the list holds ES modules');
    assert.deepEqual(loadedLibraries(files), []);
  });

  it('the first answer loads its serializer, and the metrics load right after it', async () => {
    const health = await api('GET', '/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    await waitLoaded('fast-json-stringify');
    await waitLoaded('prom-client');
    const loaded = loadedLibraries(await loadedModules());
    assert.equal(loaded.includes('typebox/compile'), false, 'a route without a request schema validates nothing');
  });

  it('the first request with a body to validate loads the validator, and answers as before', async () => {
    const bad = await api('POST', '/api/tasks', { name: 123 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'VALIDATION_ERROR');
    assert.match(bad.body.details, /^body\./);
    await waitLoaded('typebox/compile');
  });

  it('the first schedule loads the scheduler library, and the schedule is armed', async () => {
    assert.equal(loadedLibraries(await loadedModules()).includes('bree'), false);
    const task = await api('POST', '/api/tasks', { name: 'Scrape prices', url: 'https://example.com/', mode: 'scrape', actions: [] });
    assert.equal(task.status, 200, task.text);
    const schedule = await api('POST', `/api/schedules/${task.body.id}`, { frequency: 'weekly', daysOfWeek: [1], hour: 9, minute: 0, timezone: 'UTC' });
    assert.equal(schedule.status, 200, schedule.text);
    assert.ok(schedule.body.nextRun, 'the schedule has its next run');
    await waitLoaded('bree');
  });

  it('the metrics answer counts the requests made before prom-client had loaded', async () => {
    const metrics = await api('GET', '/api/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /taskloom_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1\n/);
  });
});
