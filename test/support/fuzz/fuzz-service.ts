// The service the API fuzzer attacks: a real server with an admin, an API key and planted secrets (an AI key,
// a proxy password, a tablestore token), local stand-ins for everything it calls out to, and pools of ids that
// exist, so generated requests reach past "not found".
import { randomBytes } from 'node:crypto';
import { startOpenAiStandIn, type ChatStandIn } from '../../stand-ins/openai.js';
import { startBaserowStandIn, type BaserowStandIn } from '../../stand-ins/baserow.js';
import { startCountingProxy, startPagesServer, type CountingProxy, type PagesServer } from '../pages-server.js';
import { ADMIN, setupAdmin, startService, type TestService } from '../service.js';
import type { Operation, OpenApiDoc } from './openapi-doc.js';
import type { Hints } from './schema-values.js';
import type { Credentials } from './request-plan.js';

export interface FuzzService {
  svc: TestService;
  doc: OpenApiDoc;
  credentials: Credentials;
  /** Name -> value of everything planted that no answer may show. */
  secrets: Map<string, string>;
  hints: Hints;
  /** The task only runTask uses (a short local page run), so other operations cannot change what it does. */
  runTaskId: string;
  pools: Record<string, Set<string>>;
  pool(op: Operation, param: string): string[];
  /** Puts the planted secrets back where the fuzzer may have removed or replaced them. */
  replant(): Promise<void>;
  /** Learns ids from a good answer (new tasks, executions, credentials, ...). */
  learn(op: Operation, body: any): void;
  close(): Promise<void>;
}

const PLANTED_AI_KEY = `sk-fuzz-planted-${randomBytes(12).toString('hex')}`;
const PROXY = { username: 'fuzz-proxy-user', password: `planted-proxy-pass-${randomBytes(12).toString('hex')}` };

/** The token inside the signed session cookie (`name=TOKEN.SIGNATURE`, percent-encoded). */
function sessionToken(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return value.slice(0, value.lastIndexOf('.'));
}

export async function startFuzzService(env: Record<string, string> = {}): Promise<FuzzService> {
  const pages: PagesServer = await startPagesServer();
  const ai: ChatStandIn = await startOpenAiStandIn();
  const baserow: BaserowStandIn = await startBaserowStandIn({ token: `planted-tablestore-${randomBytes(12).toString('hex')}` });
  const proxy: CountingProxy = await startCountingProxy(PROXY);
  const svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', PROVIDER_A_BASE_URL: ai.url, PROVIDER_B_BASE_URL: ai.url, ...env });
  const { cookie, apiKey } = await setupAdmin(svc);
  const credentials: Credentials = { apiKey, cookie, origin: svc.baseUrl };
  const secrets = new Map<string, string>([
    ['API key', apiKey], ['session token', sessionToken(cookie)], ['admin password', ADMIN.password],
    ['AI key', PLANTED_AI_KEY], ['proxy password', PROXY.password], ['tablestore token', baserow.token],
  ]);
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await svc.request(method, url, { apiKey: credentials.apiKey, body });
    if (res.status !== 200) throw new Error(`fixture ${method} ${url}: ${res.status} ${res.text}`);
    return res.body;
  };
  const pools: Record<string, Set<string>> = {
    task: new Set(), version: new Set(), execution: new Set(), credential: new Set(), proxy: new Set(),
    capture: new Set(), session: new Set(), domain: new Set(['127.0.0.1', 'example.com']), database: new Set(['11', '12', '13']),
  };
  const run = await call('POST', '/api/tasks', {
    name: 'fuzz run', mode: 'agent', url: `${pages.origin}/second.html`, timeoutMs: 15_000,
    actions: [{ type: 'javascript', value: 'return document.title' }, { type: 'screenshot' }], extractionScript: 'return document.title',
  });
  const victimTask = { name: 'fuzz victim', mode: 'scrape', url: `${pages.origin}/index.html`, actions: [] };
  const victim = await call('POST', '/api/tasks', victimTask);
  pools.task!.add(victim.id);
  // The AI stand-in answers every prompt with a usable script, so generate-script gets past the AI call.
  ai.fallback = { text: 'return document.title' };

  const replant = async () => {
    // A task that exists, for the operations on one (the fuzzer may have deleted it).
    const exists = await svc.request('GET', `/api/tasks/${victim.id}`, { apiKey: credentials.apiKey });
    if (exists.status === 404) await call('POST', '/api/tasks', { ...victimTask, id: victim.id });
    await call('POST', '/api/settings/provider-a-api-key', { providerAApiKeys: [PLANTED_AI_KEY] });
    const proxies = await call('GET', '/api/settings/proxies');
    if (!proxies.proxies.some((p: { username?: string }) => p.username === PROXY.username)) {
      const saved = await call('POST', '/api/settings/proxies', { server: proxy.server, ...PROXY, label: 'planted' });
      for (const p of saved.proxies) if (p.id !== 'host') pools.proxy!.add(p.id);
    }
    const creds = await call('GET', '/api/credentials');
    if (!creds.some((c: { name: string }) => c.name === 'planted')) {
      const saved = await call('POST', '/api/credentials', { name: 'planted', provider: 'tablestore', config: { baseUrl: baserow.url, token: baserow.token } });
      pools.credential!.add(saved.id);
    }
  };
  await replant();
  const first = await call('POST', `/api/tasks/${run.id}/api`, {});
  if (first.executionId) pools.execution!.add(first.executionId);

  const learn = (op: Operation, body: any) => {
    if (!body || typeof body !== 'object') return;
    const add = (name: string, value: unknown) => { if (typeof value === 'string' && value !== '' && value.length < 300) pools[name]!.add(value); };
    switch (op.operationId) {
      case 'saveTask': case 'patchTask': case 'getTask':
        if (body.id !== run.id) add('task', body.id);
        for (const v of body.versions ?? []) add('version', v.id);
        break;
      case 'runTask': add('execution', body.executionId); break;
      case 'listExecutions': for (const e of Array.isArray(body) ? body.slice(0, 5) : []) add('execution', e.executionId); break;
      case 'createCredential': add('credential', body.id); break;
      case 'addProxy': case 'getProxySettings': for (const p of body.proxies ?? []) add('proxy', p.id); break;
      case 'listCaptures': for (const c of Array.isArray(body) ? body.slice(0, 5) : []) add('capture', c.name); break;
      case 'openBrowser': add('session', body.sessionId); break;
    }
  };
  const poolName = (op: Operation, param: string): string | undefined => {
    if (param === 'versionId') return 'version';
    if (param === 'taskId') return 'task';
    if (param === 'databaseId') return 'database';
    if (param === 'domain') return 'domain';
    if (param === 'name') return 'capture';
    if (op.operationId === 'runTask') return 'runTask';
    for (const [prefix, name] of [['/api/tasks/', 'task'], ['/api/executions/', 'execution'], ['/api/credentials/', 'credential'], ['/api/settings/proxies/', 'proxy']] as const) {
      if (op.path.startsWith(prefix)) return name;
    }
    return undefined;
  };
  const hints: Hints = {
    url: (rng) => `${pages.origin}/${rng.pick(['index.html', 'second.html', 'cookies.html'])}`,
    webhookUrl: () => `${pages.origin}/webhook-sink`,
    server: () => proxy.server,
    baseUrl: () => baserow.url,
    headless: (rng) => rng.chance(0.9),
    enabled: (rng) => rng.chance(0.2),
    timeoutMs: (rng) => rng.int(500, 5000),
    sessionId: (rng) => (pools.session!.size > 0 && rng.chance(0.5) ? rng.pick([...pools.session!]) : `nope-${rng.int(1, 99)}`),
    apiKey: () => randomBytes(32).toString('base64url'),
    email: (rng) => (rng.chance(0.5) ? ADMIN.email : `user${rng.int(1, 99)}@example.com`),
    credentialId: (rng) => rng.pick([...pools.credential!, 'cred_missing']),
    provider: (rng) => (rng.chance(0.8) ? 'tablestore' : 'nosuch'),
    type: (rng) => rng.pick(['javascript', 'wait', 'scroll', 'screenshot', 'click', 'navigate']),
    value: (rng) => rng.pick(['return 1', '100', 'h1', `${pages.origin}/second.html`]),
    selector: (rng) => rng.pick(['h1', 'body', '#missing', 'a[href]']),
    targetHint: (rng) => rng.pick(['h1', 'the heading', '#missing']),
    prompt: (rng) => rng.pick(['the heading', 'the first link']),
    intervalMinutes: (rng) => rng.int(1, 1440),
    actionIndex: (rng) => rng.int(0, 2),
    password: (rng) => (rng.chance(0.3) ? ADMIN.password : `guess-${rng.int(1, 9999)}-password`),
    hour: (rng) => rng.int(0, 23),
    minute: (rng) => rng.int(0, 59),
    dayOfMonth: (rng) => rng.int(1, 31),
    cron: (rng) => rng.pick(['0 3 * * 1', '*/5 * * * *', '61 * * * *', 'not a cron']),
    timezone: (rng) => rng.pick(['UTC', 'Europe/Paris', 'Mars/Olympus']),
  };
  return {
    svc, doc: (await svc.request('GET', '/api/openapi.json')).body, credentials, secrets, hints, runTaskId: run.id, pools, replant, learn,
    pool: (op, param) => {
      const name = poolName(op, param);
      if (name === 'runTask') return [run.id];
      return name ? [...(pools[name] ?? [])] : [];
    },
    async close() {
      await svc.close();
      await Promise.all([pages.close(), ai.close(), baserow.close(), proxy.close()]);
    },
  };
}
