// The relay's list against the DevTools protocol itself (devtools-protocol's JSON, the methods Chromium
// documents), and the filter's rewrites, message by message, without a browser.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { createOutboundGuard } from '../../kernel/outbound/index.js';
import type { CheckContext } from '../../plugins/browser-sessions/devtools-checks.js';
import { filterMessage } from '../../plugins/browser-sessions/devtools-filter.js';
import { DOMAIN_POLICY, DROPPED_FROM_PROTOCOL, FREE_FORM, HOST_WORDS, METHOD_POLICY, nameWords } from '../../plugins/browser-sessions/devtools-policy.js';

interface Param { name: string; type?: string; $ref?: string; items?: { type?: string; $ref?: string }; properties?: Param[] }
interface Domain { domain: string; types?: Array<Param & { id: string }>; commands?: Array<{ name: string; parameters?: Param[] }> }

const require = createRequire(import.meta.url);
const protocolPath = require.resolve('devtools-protocol/json/browser_protocol.json', { paths: [require.resolve('puppeteer-core')] });
const domains: Domain[] = [...(require(protocolPath) as { domains: Domain[] }).domains,
  ...(require(protocolPath.replace('browser_protocol', 'js_protocol')) as { domains: Domain[] }).domains];
const types = new Map<string, Param & { id: string }>(domains.flatMap((d) => (d.types ?? []).map((t) => [`${d.domain}.${t.id}`, t] as const)));

/** Every parameter of `method` at any depth (through referenced types), as [dotted name, its type, free-form]. */
function parameters(domain: string, params: Param[] = [], prefix = '', seen = new Set<string>()): Array<[string, boolean]> {
  return params.flatMap((param) => {
    const ref = param.$ref ?? param.items?.$ref;
    const key = ref ? (ref.includes('.') ? ref : `${domain}.${ref}`) : undefined;
    const type = key ? types.get(key) : undefined;
    const kind = type?.type ?? param.items?.type ?? param.type;
    const freeForm = kind === 'any' || (kind === 'object' && !(type?.properties ?? param.properties));
    const own: [string, boolean] = [`${prefix}${param.name}`, freeForm];
    if (!type?.properties || seen.has(key!)) return [own];
    return [own, ...parameters(key!.split('.')[0]!, type.properties, `${prefix}${param.name}.`, new Set([...seen, key!]))];
  });
}

const commands = domains.flatMap((d) => (d.commands ?? []).map((c) => ({ method: `${d.domain}.${c.name}`, params: parameters(d.domain, c.parameters) })));
const leaf = (name: string) => name.split('.').pop()!;
const listed = (method: string) => Object.hasOwn(METHOD_POLICY, method) || Object.hasOwn(DOMAIN_POLICY, method.split('.')[0]!);

describe('the relay\'s list against the DevTools protocol', () => {
  it(`reads the protocol (${commands.length} methods)`, () => assert.ok(commands.length > 500));

  it('lists every method with a parameter named like a path, URL, proxy or port, with a reason', () => {
    const unlisted = commands.filter((c) => c.params.some(([name]) => nameWords(leaf(name)).some((w) => HOST_WORDS.has(w))) && !listed(c.method));
    assert.deepEqual(unlisted.map((c) => c.method), []);
    for (const [name, entry] of [...Object.entries(METHOD_POLICY), ...Object.entries(DOMAIN_POLICY)]) {
      assert.ok(entry.reason.length > 10, `${name} says why`);
    }
  });

  it('names only methods and domains the protocol has', () => {
    const known = new Set(commands.map((c) => c.method));
    assert.deepEqual(Object.keys(METHOD_POLICY).filter((m) => !known.has(m) && !DROPPED_FROM_PROTOCOL.has(m)), []);
    // A method marked dropped is listed, so the mark is not a way to list a typo.
    for (const method of DROPPED_FROM_PROTOCOL) assert.ok(Object.hasOwn(METHOD_POLICY, method), method);
    assert.deepEqual(Object.keys(DOMAIN_POLICY).filter((d) => !domains.some((x) => x.domain === d)), []);
  });

  it('treats every free-form parameter (script arguments, header names) as the caller\'s own values', () => {
    const free = new Set(commands.flatMap((c) => c.params.filter(([, freeForm]) => freeForm).map(([name]) => leaf(name))));
    assert.deepEqual([...free].filter((name) => !FREE_FORM.has(name)), []);
  });
});

const downloadsDir = '/data/browser-sessions/bs_x/downloads';
const guard = createOutboundGuard({
  allowPrivateNetworks: false,
  lookup: async (host) => [{ address: host === 'rebound.test' ? '127.0.0.1' : '93.184.216.34', family: 4 }],
});
const context = (): CheckContext => ({ downloadsDir, guard, internalSessions: new Set(['internal-session']) });
const judge = async (message: object | string) => filterMessage(typeof message === 'string' ? message : JSON.stringify(message), context());
const forwarded = async (message: object | string) => {
  const outcome = await judge(message);
  assert.ok('forward' in outcome, 'answer' in outcome ? outcome.answer : '');
  return JSON.parse(outcome.forward);
};
const refused = async (message: object | string) => {
  const outcome = await judge(message);
  assert.ok('answer' in outcome, `forwarded: ${'forward' in outcome ? outcome.forward : ''}`);
  return JSON.parse(outcome.answer);
};

describe('the relay\'s filter, message by message', () => {
  it('puts downloads in the session\'s folder: relative paths, Playwright\'s own folder, the default one', async () => {
    const set = (params: object) => forwarded({ id: 1, method: 'Browser.setDownloadBehavior', params });
    assert.equal((await set({ behavior: 'allow', downloadPath: 'reports' })).params.downloadPath, `${downloadsDir}/reports`);
    assert.equal((await set({ behavior: 'allow', downloadPath: `${downloadsDir}/x` })).params.downloadPath, `${downloadsDir}/x`);
    const playwright = await set({ behavior: 'allowAndName', downloadPath: '/tmp/playwright-artifacts-AbC123', eventsEnabled: true });
    assert.deepEqual(playwright.params, { behavior: 'allowAndName', downloadPath: downloadsDir, eventsEnabled: true });
    assert.deepEqual((await set({ behavior: 'default' })).params, { behavior: 'allow', downloadPath: downloadsDir });
    assert.deepEqual((await set({ behavior: 'deny', downloadPath: '/etc' })).params, { behavior: 'deny' });
    for (const downloadPath of ['/tmp/playwright-artifacts-x', '/tmp', '../../x', `${downloadsDir}/../other`, `${downloadsDir}-evil`, 'a\0b']) {
      await refused({ id: 2, method: 'Page.setDownloadBehavior', params: { behavior: 'allow', downloadPath } });
    }
  });

  it('answers a refusal with the id and session it came with', async () => {
    const answer = await refused({ id: 41, sessionId: 'S1', method: 'Browser.close' });
    assert.deepEqual(Object.keys(answer).sort(), ['error', 'id', 'sessionId']);
    assert.equal(answer.id, 41);
    assert.equal(answer.sessionId, 'S1');
    assert.match(answer.error.message, /refused Browser\.close: .*POST \/api\/browser\/close/);
  });

  it('forwards what it judged: the last of duplicate keys, a URL as parsed', async () => {
    const sneaky = '{"id":3,"method":"Runtime.evaluate","params":{"url":"file:///etc/passwd"},"method":"Page.navigate"}';
    await refused(sneaky);
    const other = '{"id":4,"method":"Page.navigate","params":{"url":"file:///etc/passwd"},"method":"Runtime.evaluate","params":{"expression":"1"}}';
    assert.deepEqual(await forwarded(other), { id: 4, method: 'Runtime.evaluate', params: { expression: '1' } });
    assert.equal((await forwarded({ id: 5, method: 'Page.navigate', params: { url: 'HTTP://Example.com/a b' } })).params.url, 'http://example.com/a%20b');
    assert.equal((await forwarded({ id: 6, method: 'Target.createTarget', params: { url: '' } })).params.url, 'about:blank');
    await refused({ id: 7, method: 'Page.navigate', params: { url: 'http://rebound.test/' } });
  });

  it('lets a context have a public proxy of its own, with loopback sent through it too', async () => {
    const message = await forwarded({ id: 8, method: 'Target.createBrowserContext', params: { proxyServer: 'socks5://proxy.example:1080', proxyBypassList: '127.0.0.1,*.lan' } });
    // Pinned to the address checked: a second lookup cannot send Chromium to the loopback.
    assert.deepEqual(message.params, { proxyServer: 'socks5://93.184.216.34:1080', proxyBypassList: '<-loopback>' });
    const https = await forwarded({ id: 8, method: 'Target.createBrowserContext', params: { proxyServer: 'https://proxy.example:8443' } });
    assert.equal(https.params.proxyServer, 'https://proxy.example:8443', 'an https proxy keeps the name its certificate is for');
    await refused({ id: 9, method: 'Target.createBrowserContext', params: { proxyServer: 'rebound.test:3128' } });
  });

  it('keeps tracing in the browser', async () => {
    assert.equal((await forwarded({ id: 10, method: 'Tracing.start', params: { tracingBackend: 'system' } })).params.tracingBackend, 'chrome');
  });

  it('reads keys of script arguments and headers as values, and other unlisted parameters as names', async () => {
    await forwarded({ id: 11, method: 'Runtime.callFunctionOn', params: { functionDeclaration: '(a) => a', arguments: [{ value: { path: '/etc', url: 'file:///' } }] } });
    await forwarded({ id: 12, method: 'Network.setExtraHTTPHeaders', params: { headers: { 'X-File-Path': '1' } } });
    await refused({ id: 13, method: 'Browser.madeUp', params: { nested: [{ outputDirectory: '/etc' }] } });
    let deep: object = {};
    for (let i = 0; i < 40; i++) deep = { inner: deep };
    await refused({ id: 14, method: 'Browser.madeUp', params: deep });
  });

  it('refuses messages it cannot read, and a session of the browser\'s own pages, nested or not', async () => {
    assert.equal((await refused('not json')).error.code, -32700);
    await refused({ id: 15, method: 'Page.navigate', params: 'file:///etc/passwd' });
    await refused({ id: 16 });
    await refused({ id: 17, sessionId: 'internal-session', method: 'Runtime.evaluate', params: { expression: '1' } });
    await forwarded({ id: 18, sessionId: 'internal-session', method: 'Runtime.runIfWaitingForDebugger' });
    await refused({ id: 19, method: 'Target.sendMessageToTarget', params: { sessionId: 'internal-session', message: '{"id":1,"method":"Runtime.evaluate"}' } });
    const nested = await forwarded({ id: 20, method: 'Target.sendMessageToTarget', params: { sessionId: 'S', message: '{"id":1,"method":"Page.navigate","params":{"url":"HTTP://example.com"}}' } });
    assert.equal(JSON.parse(nested.params.message).params.url, 'http://example.com/');
    for (const method of ['constructor', '__proto__', 'toString']) await forwarded({ id: 21, method });
  });
});
