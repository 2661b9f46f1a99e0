// The healing suite (issue 19, "what must show"): a shop page in many variants of the same content, on a real
// Chromium. For each of five targets, the fingerprint taken on the original page is matched against every variant
// where the recorded selector broke. No repair may pick the wrong element; at least 80 % of the variants that still
// hold the target are repaired by the deterministic step alone; a variant without the target is refused, naming
// the candidates it turned down.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import type { ElementFingerprint } from '../../layers/healing/records.js';
import { createBrowserPool, createMemoryCookieStore, type BrowserPool } from '../../layers/browser-pool/index.js';
import { countMatches, describeCandidates, matchFingerprint, takeFingerprint, type Decision } from '../../layers/healing/index.js';
import { createPlaywrightDriver } from '../../providers/browser/playwright/index.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { silentLogger } from '../../testing/loggers.js';
import { ORIGINAL_SELECTORS, TARGETS, allVariants, serveVariants, type Target } from '../support/healing-variants.js';

const chromium = chromiumOrSkip();

describe('healing over page mutations', { skip: chromium.skip }, () => {
  const variants = allVariants();
  let server: Awaited<ReturnType<typeof serveVariants>>;
  let pool: BrowserPool;

  before(async () => {
    server = await serveVariants(variants);
    pool = createBrowserPool({
      driver: createPlaywrightDriver(), config: { browserExecutablePath: chromium.path! }, logger: silentLogger,
      cookieStore: createMemoryCookieStore(), killAfterMs: 2000,
    });
  });
  after(async () => {
    await pool?.close();
    await server?.close();
  });

  async function onPage<T>(work: (page: BrowserPage) => Promise<T>): Promise<T> {
    const outcome = await pool.withContext({}, async (context) => work(await context.newPage()), { timeoutMs: 300_000 });
    if (outcome.status !== 'ok') throw outcome.status === 'error' ? outcome.error : new Error(`the page work ended: ${outcome.status}`);
    return outcome.value;
  }

  const truthOf = (page: BrowserPage, selector: string) =>
    page.evaluate('const all = document.querySelectorAll(args.selector); return all.length === 1 ? all[0].getAttribute("data-truth") : "matches " + all.length;', { selector });

  it('repairs most broken selectors, never to the wrong element, and refuses when the target is gone', async () => {
    const tally = { broken: 0, repaired: 0, falseRepairs: [] as string[], refusedPresent: [] as string[], goneRefused: 0, gone: 0, goneBest: [] as string[] };
    await onPage(async (page) => {
      await page.goto(`${server.origin}/original`, 10_000);
      const fingerprints = {} as Record<Target, ElementFingerprint>;
      for (const target of TARGETS) {
        const fingerprint = await takeFingerprint(page, ORIGINAL_SELECTORS[target]);
        assert.ok(fingerprint, `the original page has ${target}`);
        fingerprints[target] = fingerprint;
      }
      for (const [index, variant] of variants.entries()) {
        await page.goto(`${server.origin}/v/${index}`, 10_000);
        for (const target of TARGETS) {
          if (await countMatches(page, ORIGINAL_SELECTORS[target]) > 0) continue; // still matches: nothing to repair
          const decision: Decision = await matchFingerprint(page, fingerprints[target]);
          const label = `${target} on ${variant.name}`;
          if (variant.removed === target) {
            tally.gone++;
            if (decision.accepted) tally.falseRepairs.push(`${label}: took ${decision.candidate.selector} though the target is gone`);
            else {
              tally.goneRefused++;
              tally.goneBest.push(`${decision.candidates[0]?.score}/${decision.candidates.find((c, i) => i > 0 && !c.sameTarget)?.score}`);
              assert.ok(decision.candidates.length > 0, `${label}: the refusal names candidates`);
              assert.match(describeCandidates(decision.candidates), /\(\d/, label);
            }
            continue;
          }
          tally.broken++;
          if (!decision.accepted) {
            tally.refusedPresent.push(`${label}: ${decision.reason}`);
            continue;
          }
          const truth = await truthOf(page, decision.candidate.selector);
          if (truth === target) tally.repaired++;
          else tally.falseRepairs.push(`${label}: ${decision.candidate.selector} is ${String(truth)}`);
        }
      }
    });
    const rate = tally.repaired / tally.broken;
    console.log(`healing suite: ${variants.length} variants; ${tally.repaired} of ${tally.broken} broken selectors with the target present repaired `
      + `deterministically (${(rate * 100).toFixed(1)} %); ${tally.goneRefused} of ${tally.gone} without the target refused; `
      + `${tally.falseRepairs.length} false repairs`);
    console.log(`without the target, best/runner-up scores: ${tally.goneBest.join(' ')}`);
    if (tally.refusedPresent.length) console.log(`refused though present (first 10):\n  ${tally.refusedPresent.slice(0, Number(process.env.HEALING_SHOW ?? 10)).join('\n  ')}`);
    assert.deepEqual(tally.falseRepairs, [], 'no repair picks the wrong element');
    assert.ok(tally.broken >= 200, `enough broken selectors to judge (${tally.broken})`);
    // The issue asks 80 %; 96.8 % is measured (368 of 380), so a matcher that breaks in the page shows here too.
    assert.ok(rate >= 0.9, `at least 90 % repaired by the deterministic step (${(rate * 100).toFixed(1)} %)`);
    assert.equal(tally.goneRefused, tally.gone, 'every variant without its target is refused');
  });
});
