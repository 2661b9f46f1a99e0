import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { Metrics } from '../metrics/decorators.js';
import type { ProxyRotation } from '../settings/decorators.js';
import type { BrowseOutcome } from './browse-run.js';
import type { LiveRun } from './live-run.js';
import { antiBotOf, proxyOptionsOf, type RunnableTask } from './task-options.js';

const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

/**
 * After a rotated run (the task's `rotateProxies`, no fixed `proxyId`): its proxy's figures for the site, and on a
 * bot wall (outcome anti_bot) the proxy blocked for that site for the cool-down and the run marked to go again
 * through another proxy while the task's `antiBot.proxyRetries` (default 1) allow. Never throws.
 */
export async function noteProxyUse(
  deps: { proxyRotation: ProxyRotation; metrics: Metrics; logger: Logger },
  run: LiveRun, task: RunnableTask, outcome: BrowseOutcome, claimed: ExecutionRecord,
): Promise<void> {
  const options = proxyOptionsOf(task);
  // A run a browser grid turned away never reached the site: it says nothing of the proxy.
  if (!options.rotateProxies || options.proxyId !== undefined || outcome.proxy === undefined || outcome.site === undefined || outcome.busy) return;
  const blocked = outcome.outcome === 'anti_bot';
  const proxy = outcome.proxy?.server ?? 'host';
  deps.metrics.proxyRun(outcome.site, proxy, blocked);
  try {
    await deps.proxyRotation.reportRun(outcome.proxy, outcome.site, blocked);
  } catch (error) {
    deps.logger.warn({ err: error, executionId: run.executionId }, 'recording the proxy block failed');
  }
  if (!blocked) return;
  run.log('warn', `${outcome.proxy ? `proxy ${proxy}` : 'the host (no proxy)'} is blocked for ${outcome.site} for ${minutes(deps.proxyRotation.blockCoolDownMs)}`);
  const max = antiBotOf(task).proxyRetries;
  if ((claimed.queueing?.proxyRetries ?? 0) < max) outcome.proxyRetry = { max };
}
