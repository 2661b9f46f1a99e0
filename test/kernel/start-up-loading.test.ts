// What the service loads is what its requests have needed so far: a started service (its own process, with a
// preload that lists every module file it loaded) holds none of the libraries of browsers, databases it does
// not use, AI vendors, exports, outbound requests, metrics, response serializers, request validation, the API
// document and its reference, the dashboard's file server or WebSockets; each loads with the first request that
// needs it. Playwright's own downloaded Chromium (a stand-in where Playwright says it goes) is found at start-up
// without loading Playwright.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
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
  '@fastify/swagger': '/node_modules/@fastify/swagger/',
  yaml: '/node_modules/yaml/',
  '@fastify/swagger-ui': '/node_modules/@fastify/swagger-ui/',
  '@fastify/static': '/node_modules/@fastify/static/',
  ws: '/node_modules/ws/',
  // Browserless mode's HTML parser: with the first field mapping checked or run in mode http.
  cheerio: '/node_modules/cheerio/',
  // Tracing's SDK and exporter: only with OTEL_* configured (never in this test).
  '@opentelemetry/sdk-trace-base': '/node_modules/@opentelemetry/sdk-trace-base/',
  '@opentelemetry/exporter-trace-otlp-http': '/node_modules/@opentelemetry/exporter-trace-otlp-http/',
};

let svc: ServiceProcess;
let listFile = '';
/** Where Playwright itself says its downloaded Chromium is, under the service's PLAYWRIGHT_BROWSERS_PATH. */
let playwrightChromium = '';

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

/** A WebSocket upgrade request; resolves to the HTTP answer that refused it. */
function refusedUpgrade(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('upgrade', (_res, socket) => { socket.destroy(); reject(new Error('the upgrade was accepted')); });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  const dataDir = await makeTempDir();
  listFile = path.join(dataDir, 'loaded-modules.txt');
  const browsers = path.join(dataDir, 'playwright-browsers');
  playwrightChromium = execFileSync(process.execPath, ['-e', "process.stdout.write(require('playwright').chromium.executablePath())"], {
    env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers }, encoding: 'utf8',
  });
  assert.ok(playwrightChromium.startsWith(browsers + path.sep), playwrightChromium);
  fs.mkdirSync(path.dirname(playwrightChromium), { recursive: true });
  fs.writeFileSync(playwrightChromium, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  svc = await spawnService({
    DATA_DIR: dataDir,
    AUTH_DISABLED: 'true',
    LOADED_MODULES_FILE: listFile,
    BROWSER_ENGINE: 'playwright',
    BROWSER_EXECUTABLE_PATH: '',
    BROWSER_WS_ENDPOINT: '',
    PLAYWRIGHT_BROWSERS_PATH: browsers,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(),
  });
});

after(async () => {
  await svc?.stop();
});

describe('start-up loading', () => {
  it('a listening service has loaded none of the libraries its requests load on first use', async () => {
    // The Chromium choice runs in the background from start-up: wait for it, so its loads are counted.
    for (let waited = 0; !svc.output().includes('Chromium to launch'); waited += 50) {
      assert.ok(waited < 20_000, 'no Chromium choice logged within 20 s');
      await sleep(50);
    }
    const chosen = svc.output().split('\n').find((line) => line.includes('Chromium to launch'))!;
    assert.equal(JSON.parse(chosen).executable, playwrightChromium, "Playwright's own downloaded Chromium is chosen");
    const files = await loadedModules();
    // The list sees both kinds of module: CommonJS (Fastify) and ES modules (TypeBox's type builder).
    assert.ok(files.some((file) => file.includes('/node_modules/fastify/')), 'the list holds CommonJS modules');
    assert.ok(files.some((file) => file.includes('/node_modules/typebox/build/type/')), 'the list holds ES modules');
    assert.deepEqual(loadedLibraries(files), []);
  });

  it('the first health answer needs no serializer library, and the metrics load right after it', async () => {
    const health = await api('GET', '/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.text, `{"status":"ok","uptime":${health.body.uptime},"storage":"json"}`);
    await waitLoaded('prom-client');
    const loaded = loadedLibraries(await loadedModules());
    assert.equal(loaded.includes('fast-json-stringify'), false, 'health writes its fixed body itself');
    assert.equal(loaded.includes('typebox/compile'), false, 'a route without a request schema validates nothing');
  });

  it('the first answer with a response schema loads its serializer', async () => {
    const setup = await api('GET', '/api/auth/check-setup');
    assert.equal(setup.status, 200);
    assert.equal(typeof setup.body.setupRequired, 'boolean');
    await waitLoaded('fast-json-stringify');
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

  it('the first request for the API document loads @fastify/swagger, and the document lists every route', async () => {
    assert.deepEqual(loadedLibraries(await loadedModules()).filter((l) => l.startsWith('@fastify/swagger') || l === 'yaml'), []);
    const doc = await api('GET', '/api/openapi.json');
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    assert.ok(doc.body.paths['/api/health']?.get, 'health is documented');
    assert.ok(doc.body.paths['/api/tasks/{id}']?.patch, 'a route of a later plugin is documented');
    assert.ok(doc.body.components.schemas.Task, 'the named schemas are components');
    await waitLoaded('@fastify/swagger');
    await waitLoaded('yaml');
    assert.equal(loadedLibraries(await loadedModules()).includes('@fastify/swagger-ui'), false, 'the reference waits for its own first request');
  });

  it('the first dashboard file loads @fastify/static', async (t) => {
    const page = await api('GET', '/');
    if (page.status === 503) return t.skip('the dashboard is not built (npm run build:web): no file to serve');
    assert.equal(page.status, 200);
    assert.match(page.text, /<!doctype html>/i);
    await waitLoaded('@fastify/static');
  });

  it('the first request for the reference loads @fastify/swagger-ui, which serves its page and files', async () => {
    const page = await api('GET', '/api/docs/');
    assert.equal(page.status, 200);
    assert.match(page.text, /swagger/i);
    const script = await api('GET', '/api/docs/static/swagger-initializer.js');
    assert.equal(script.status, 200);
    assert.match(script.text, /\.\/json|openapi/);
    const missing = await api('GET', '/api/docs/static/nothing-here.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'NOT_FOUND', "the service's own not-found answer");
    await waitLoaded('@fastify/swagger-ui');
    await waitLoaded('@fastify/static');
  });

  it('the first DevTools upgrade loads ws; the relay listened from start-up', async () => {
    assert.equal(loadedLibraries(await loadedModules()).includes('ws'), false);
    const refused = await refusedUpgrade(`${svc.baseUrl}/api/browser/sessions/no-such-session/devtools`);
    assert.equal(refused.status, 404, refused.body);
    assert.equal(JSON.parse(refused.body).error, 'NOT_FOUND');
    await waitLoaded('ws');
  });

  it('the metrics answer counts the requests made before prom-client had loaded', async () => {
    const metrics = await api('GET', '/api/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /taskloom_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} 1\n/);
  });
});
