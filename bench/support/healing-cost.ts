import { performance } from 'node:perf_hooks';
import { createBrowserPool, createMemoryCookieStore } from '../../layers/browser-pool/index.js';
import { matchFingerprint, takeFingerprint } from '../../layers/healing/index.js';
import type { ElementFingerprint } from '../../layers/healing/records.js';
import { createPlaywrightDriver } from '../../providers/browser/playwright/index.js';
import { createPuppeteerDriver } from '../../providers/browser/puppeteer/index.js';
import { runActions, type RunnerHealing, type RunnerHooks } from '../../plugins/runs/runner/index.js';
import type { Action } from '../../kernel/contracts/records.js';
import { silentLogger } from '../../testing/loggers.js';
import { serveVariants } from '../../test/support/healing-variants.js';
import { median } from './children.js';
import { fmt, verdict, type Row } from './report.js';

const ACTIONS: Action[] = [
  { type: 'type', selector: '#email', value: 'me@example.com' },
  { type: 'wait_selector', selector: '#login-btn' },
  { type: 'hover', selector: '[data-testid="add-blue-mug"]' },
  { type: 'click', selector: '[data-testid="add-blue-mug"]' },
];

/**
 * Healing's cost (README "Healing"), in this process on the service's browser pool: a run of four selector actions
 * (fresh context, page load, actions) with every element fingerprinted (what the first successful run of a task
 * pays; later runs pay nothing) against the same run without healing, interleaved run for run, medians; and the
 * deterministic repair of a broken selector (rank the page against the fingerprint, decide) on a changed page.
 */
export async function healingCostRows(engine: string, runs: number, say: (line: string) => void): Promise<Row[]> {
  const site = await serveVariants([{ name: 'renamed', mutations: ['ids', 'testids', 'classes', 'wrap'] }]);
  const driver = engine === 'puppeteer' ? createPuppeteerDriver() : createPlaywrightDriver();
  const pool = createBrowserPool({ driver, config: {}, logger: silentLogger, cookieStore: createMemoryCookieStore(), killAfterMs: 2000 });
  const plain: number[] = [];
  const fingerprinted: number[] = [];
  const repairs: number[] = [];
  let taken = 0;
  try {
    const runOnce = async (healing?: RunnerHealing): Promise<number> => {
      const started = performance.now();
      const outcome = await pool.withContext({}, async (context, signal) => {
        const page = await context.newPage();
        await page.goto(`${site.origin}/original`, 10_000);
        const hooks: RunnerHooks = { log: () => {}, saveScreenshot: async () => 'none', checkNavigation: async () => {}, signal, ...(healing ? { healing } : {}) };
        await runActions(page, { actions: ACTIONS, variables: {}, mode: 'agent' }, hooks);
      });
      if (outcome.status !== 'ok') throw new Error(`a bench run failed: ${outcome.status === 'error' ? outcome.error.message : outcome.status}`);
      return performance.now() - started;
    };
    const healing: RunnerHealing = {
      wants: () => true,
      fingerprinted: () => { taken++; },
      repair: async () => undefined,
    };
    await runOnce(); // the browser starts
    for (let i = 0; i < runs; i++) {
      plain.push(await runOnce());
      fingerprinted.push(await runOnce(healing));
    }
    await pool.withContext({}, async (context) => {
      const page = await context.newPage();
      await page.goto(`${site.origin}/original`, 10_000);
      const fingerprint = await takeFingerprint(page, '[data-testid="add-blue-mug"]') as ElementFingerprint;
      await page.goto(`${site.origin}/v/0`, 10_000);
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        const decision = await matchFingerprint(page, fingerprint);
        repairs.push(performance.now() - started);
        if (!decision.accepted) throw new Error(`the bench page was not repaired: ${decision.reason}`);
      }
    });
  } finally {
    await pool.close();
    await site.close();
  }
  const cost = (median(fingerprinted) - median(plain)) / median(plain);
  say(`  ${runs} runs each: ${fmt.ms(median(plain))} without healing, ${fmt.ms(median(fingerprinted))} fingerprinting ${taken / runs} elements`
    + ` (medians); a deterministic repair ${fmt.ms(median(repairs))}`);
  return [
    {
      metric: 'fingerprinting on a successful run', value: `${(cost * 100).toFixed(1)} %`, target: '<= 5 % of the run',
      baseline: `${fmt.ms(median(plain))} run`, ratio: fmt.ratio(median(fingerprinted) / median(plain)), result: verdict(cost <= 0.05),
    },
    { metric: 'deterministic repair (rank + decide)', value: fmt.ms(median(repairs)), target: '(shown)', baseline: '-', ratio: '-', result: '-' },
  ];
}
