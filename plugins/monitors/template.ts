/**
 * The monitor template (README "Run intelligence"): a normal task that reads one value on a page, fails when the
 * value is not there (rather than reporting a change to nothing), and compares it with the previous successful
 * run's, so `execution.changed` tells only of a new value. Pure: the route saves what this builds.
 */

/** What `POST /api/monitors` asks. */
export interface MonitorInput {
  url: string;
  /** CSS selector of the element whose text (a form field: its value) is watched. */
  selector: string;
  name?: string;
  /** Runs every this many minutes (an interval schedule). */
  everyMinutes?: number;
  /** Or on this five-field cron (wins over everyMinutes). */
  cron?: string;
  /** Subscribed to `execution.changed` of this task. */
  webhookUrl?: string;
}

/**
 * The value as the page shows it, whitespace folded: the selector reaches the page as a value (args.vars), never
 * as code. A missing element gives null, which the task's `expect` turns into a failed run.
 */
export const MONITOR_SCRIPT = `const el = document.querySelector(args.vars.monitorSelector);
const raw = el === null ? null : ('value' in el && typeof el.value === 'string' ? el.value : el.textContent);
return { selector: args.vars.monitorSelector, value: raw === null ? null : raw.replace(/\\s+/g, ' ').trim() };`;

function nameOf(input: MonitorInput): string {
  if (input.name) return input.name;
  try {
    const url = new URL(input.url);
    return `Monitor ${url.host}${url.pathname === '/' ? '' : url.pathname}`.slice(0, 200);
  } catch {
    return 'Monitor';
  }
}

/** The task body (`POST /api/tasks`) of a monitor. */
export function monitorTask(input: MonitorInput): Record<string, unknown> {
  return {
    name: nameOf(input),
    description: `Watches "${input.selector}" and tells when its value changes (made from the monitor template)`,
    mode: 'agent',
    url: input.url,
    // Waits for the element (a page that builds it late); the selector is a plain CSS selector.
    actions: [{ type: 'wait_selector', selector: input.selector }],
    variables: { monitorSelector: input.selector },
    extractionScript: MONITOR_SCRIPT,
    expect: { minRows: 1, required: ['value'] },
    compare: { key: ['selector'] },
  };
}

/** The schedule (`POST /api/schedules/{taskId}`) of a monitor; undefined: none asked. */
export function monitorSchedule(input: MonitorInput): Record<string, unknown> | undefined {
  if (input.cron) return { enabled: true, cron: input.cron };
  return input.everyMinutes ? { enabled: true, frequency: 'interval', intervalMinutes: input.everyMinutes } : undefined;
}

/** The webhook subscription (`POST /api/webhooks`) of a monitor: its changes only. */
export function monitorSubscription(taskId: string, taskName: string, webhookUrl: string): Record<string, unknown> {
  return { url: webhookUrl, events: ['execution.changed'], taskIds: [taskId], description: `changes of ${taskName}`.slice(0, 200) };
}
