// POST /api/inspector/highlight on the real service with real Chromium against a local page: each matching
// stage (CSS selector, every listed attribute, visible text), ranking, the limit of five, unique selectors
// and XPaths checked in a browser of the test's own, the JPEG, sessions, refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium as playwright, type Browser, type Page } from 'playwright';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const chromium = chromiumOrSkip();

interface Candidate { selector: string; xpath: string; confidence: number; tag: string; text: string }

describe('POST /api/inspector/highlight', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let browser: Browser;
  let page: Page;
  let url: string;
  const highlight = (body: Record<string, unknown>) => svc.request('POST', '/api/inspector/highlight', { apiKey, body });

  /** Looks the candidate up in the test's own copy of the page: one element, the same by selector and by XPath. */
  async function element(candidate: Candidate): Promise<{ id: string; outer: string }> {
    const found = await page.evaluate(({ selector, xpath }) => {
      const all = document.querySelectorAll(selector);
      const byPath = document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      return {
        count: all.length, paths: byPath.snapshotLength, same: all[0] === byPath.snapshotItem(0),
        id: all[0]?.id ?? '', outer: all[0]?.outerHTML.slice(0, 120) ?? '',
      };
    }, candidate);
    assert.equal(found.count, 1, `${candidate.selector} is unique`);
    assert.equal(found.paths, 1, `${candidate.xpath} names one element`);
    assert.ok(found.same, `${candidate.xpath} is the element ${candidate.selector} names`);
    return { id: found.id, outer: found.outer };
  }

  /** The answer's candidates after the checks every answer must pass. */
  async function candidatesFor(body: Record<string, unknown>): Promise<Candidate[]> {
    const res = await highlight({ url, screenshot: false, ...body });
    assert.equal(res.status, 200, res.text);
    const candidates = res.body.candidates as Candidate[];
    assert.ok(candidates.length <= 5);
    for (const [i, c] of candidates.entries()) {
      assert.deepEqual(Object.keys(c).sort(), ['confidence', 'selector', 'tag', 'text', 'xpath']);
      assert.ok(c.confidence >= 0 && c.confidence <= 1, `confidence ${c.confidence}`);
      if (i > 0) assert.ok(c.confidence <= candidates[i - 1]!.confidence, 'best first');
      await element(c);
    }
    return candidates;
  }

  before(async () => {
    pages = await startPagesServer();
    url = `${pages.origin}/inspector/index.html`;
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true', BROWSER_EXECUTABLE_PATH: chromium.path! });
    ({ apiKey } = await setupAdmin(svc));
    browser = await playwright.launch({ executablePath: chromium.path, args: ['--no-sandbox'] });
    page = await browser.newPage();
    await page.goto(url);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    await pages?.close();
  });

  it('stage 1: takes the hint as a CSS selector', async () => {
    const [top] = await candidatesFor({ targetHint: '#title' });
    assert.deepEqual({ selector: top!.selector, tag: top!.tag, confidence: top!.confidence, text: top!.text },
      { selector: '#title', tag: 'h1', confidence: 1, text: 'Account settings' });
  });

  it('stage 2: matches each listed attribute', async () => {
    const cases: Array<[string, RegExp]> = [
      ['username', /id="by-name"/], ['Search the catalogue', /id="by-placeholder"/], ['Close dialog', /id="by-aria"/],
      ['Help tooltip', /id="by-title"/], ['Company logo', /id="by-alt"/], ['Send message', /id="by-value"/],
      ['cart-total', /data-testid="cart-total"/], ['promo-banner', /data-test-id="promo-banner"/],
    ];
    for (const [hint, expected] of cases) {
      const [top] = await candidatesFor({ targetHint: hint });
      assert.ok(top, `a candidate for "${hint}"`);
      assert.match((await element(top)).outer, expected, `"${hint}"`);
      assert.ok(top.confidence >= 0.85 && top.confidence < 1, `"${hint}": ${top.confidence}`);
    }
  });

  it('stage 3: matches visible text, preferring the button to the label inside it', async () => {
    const [save] = await candidatesFor({ targetHint: 'Save changes' });
    assert.deepEqual([save!.tag, save!.text], ['button', 'Save changes']);
    assert.equal((await candidatesFor({ targetHint: 'Save changes' })).filter((c) => c.text === 'Save changes').length, 1);
    const [forgot] = await candidatesFor({ targetHint: 'Forgot password?' }); // not a valid selector: stage 1 is skipped
    assert.deepEqual([forgot!.tag, forgot!.text], ['a', 'Forgot password?']);
    assert.deepEqual(await candidatesFor({ targetHint: 'Secret paragraph' }), [], 'hidden text is not matched');
  });

  it('ranks the stages in order: an exact attribute before a text containing the hint', async () => {
    const found = await candidatesFor({ targetHint: 'username' });
    assert.match((await element(found[0]!)).outer, /id="by-name"/);
    assert.ok(found.some((c) => c.tag === 'label'), 'the label "Your username" comes after');
  });

  it('answers at most five candidates, best first, each with its own unique selector', async () => {
    const items = await candidatesFor({ targetHint: '.item' });
    assert.equal(items.length, 5);
    assert.deepEqual(items.map((c) => c.text), ['item one', 'item two', 'item three', 'item four', 'item five']);
    assert.equal(new Set(items.map((c) => c.selector)).size, 5);
    const twins = await candidatesFor({ targetHint: 'Duplicate entry' });
    assert.deepEqual(twins.map((c) => c.tag), ['span', 'span']);
    assert.notEqual(twins[0]!.selector, twins[1]!.selector);
    assert.deepEqual(await candidatesFor({ targetHint: '[[not css' }), []);
  });

  it('adds a JPEG of the viewport by default', async () => {
    const res = await highlight({ url, targetHint: 'Save changes' });
    assert.equal(res.status, 200, res.text);
    const jpeg = Buffer.from(res.body.screenshot, 'base64');
    assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.ok(jpeg.length > 1000);
    assert.equal('screenshot' in (await highlight({ url, targetHint: 'x', screenshot: false })).body, false);
  });

  it('needs a url when no browser session is open', async () => {
    const res = await highlight({ targetHint: '#title' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'VALIDATION_ERROR');
    assert.match(res.body.details, /POST \/api\/browser\/open/);
  });

  it('inspects the page of an open browser session, and answers 404 for an unknown one', async () => {
    const open = await svc.request('POST', '/api/browser/open', { apiKey, body: { headless: true } });
    assert.equal(open.status, 200, open.text);
    const [viaUrl] = await candidatesFor({ targetHint: 'Company logo', sessionId: open.body.sessionId });
    assert.equal(viaUrl!.tag, 'img');
    const [onItsPage] = await candidatesFor({ targetHint: 'Send message', url: undefined });
    assert.equal(onItsPage!.tag, 'input', 'the session\'s page, without url');
    const unknown = await highlight({ targetHint: 'x', sessionId: 'bs_unknown' });
    assert.equal(unknown.status, 404);
    await svc.service.app.browserSessions.close(open.body.sessionId);
  });
});

describe('POST /api/inspector/highlight refusals', () => {
  let svc: TestService;
  let apiKey: string;
  before(async () => {
    svc = await startService();
    ({ apiKey } = await setupAdmin(svc));
  });
  after(() => svc.close());

  it('answers 401 to an anonymous caller and 400 INVALID_URL for a private address', async () => {
    assert.equal((await svc.request('POST', '/api/inspector/highlight', { body: { targetHint: 'x' } })).status, 401);
    const res = await svc.request('POST', '/api/inspector/highlight', { apiKey, body: { targetHint: 'x', url: 'http://127.0.0.1:9/' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'INVALID_URL');
    const missing = await svc.request('POST', '/api/inspector/highlight', { apiKey, body: {} });
    assert.equal(missing.status, 400);
    assert.match(missing.body.details, /targetHint/);
  });
});
