import crypto from 'node:crypto';
import type { ExecutionRecord, ExecutionStatus } from '../../kernel/contracts/records.js';

const SITES = ['shop.example.com', 'news.example.org', 'jobs.example.net', 'docs.example.io', 'status.example.dev'];
const STATUSES: ExecutionStatus[] = ['success', 'success', 'success', 'success', 'error', 'timeout'];

/**
 * A task as a user would write one: six actions (navigate, wait, type with a variable, click,
 * scroll, extract), a description and variables; about 1 KB of JSON.
 */
export function makeTask(i: number) {
  const site = SITES[i % SITES.length]!;
  return {
    name: `Collect listings #${i} from ${site}`,
    description: `Opens ${site}, searches for the configured query, waits for the result list and extracts `
      + 'title, price and link of every entry on the first page. Runs nightly; results go to the listings table.',
    url: `https://${site}/search?page=1&ref=taskloom-${i}`,
    mode: 'agent',
    actions: [
      { type: 'navigate', value: `https://${site}/search` },
      { type: 'wait_selector', selector: 'form#search input[name="q"]', timeoutMs: 15_000 },
      { type: 'type', selector: 'form#search input[name="q"]', value: '{$query}' },
      { type: 'click', selector: 'form#search button[type="submit"]' },
      { type: 'scroll', value: 'bottom', timeoutMs: 5_000 },
      {
        type: 'javascript',
        value: 'return [...document.querySelectorAll(".result")].slice(0, {$maxItems}).map((el) => ({ '
          + 'title: el.querySelector("h2")?.textContent?.trim(), price: el.querySelector(".price")?.textContent, '
          + 'link: el.querySelector("a")?.href }));',
        varName: 'items',
      },
    ],
    variables: { query: `wireless headphones ${i % 17}`, maxItems: 25, currency: 'EUR', region: 'de' },
  };
}

/** One finished run with a few log lines and a small result, started `i` minutes before `baseMs`. */
export function makeExecution(i: number, taskIds: string[], baseMs = Date.parse('2025-01-01T00:00:00Z')): ExecutionRecord {
  const taskId = taskIds[i % taskIds.length]!;
  const status = STATUSES[i % STATUSES.length]!;
  const startedMs = baseMs - i * 60_000;
  const durationMs = 1_500 + ((i * 7919) % 9_000);
  const at = (offset: number) => new Date(startedMs + offset).toISOString();
  const site = SITES[i % SITES.length]!;
  return {
    executionId: `exec_${crypto.randomBytes(12).toString('base64url')}`,
    taskId,
    taskName: `Collect listings from ${site}`,
    status,
    trigger: i % 3 === 0 ? 'api' : 'schedule',
    startedAt: at(0),
    finishedAt: at(durationMs),
    durationMs,
    result: status === 'success'
      ? {
        finalUrl: `https://${site}/search?q=headphones`,
        title: 'Search results',
        data: { items: [{ title: 'Model A', price: '79.00' }, { title: 'Model B', price: '129.00' }] },
      }
      : { error: { message: 'waiting for selector ".result" failed: timeout 15000 ms exceeded', actionIndex: 4 } },
    logs: [
      { at: at(5), level: 'info', message: `navigate https://${site}/search`, actionIndex: 0 },
      { at: at(420), level: 'info', message: 'wait_selector form#search input[name="q"]', actionIndex: 1 },
      { at: at(610), level: 'info', message: 'type form#search input[name="q"]', actionIndex: 2 },
      { at: at(durationMs), level: status === 'success' ? 'info' : 'error', message: `run finished: ${status}` },
    ],
  };
}
