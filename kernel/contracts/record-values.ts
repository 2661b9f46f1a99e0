/**
 * The fixed value lists of the records (records.ts). Plain constants, without TypeBox, so that the dashboard can
 * use them at run time without TypeBox in its bundle.
 */

/** Every action type the runner understands (decisions.md, "Actions"). */
export const ACTION_TYPES = [
  'navigate', 'click', 'hover', 'type', 'press', 'wait', 'wait_selector', 'scroll',
  'javascript', 'screenshot', 'set', 'if', 'else', 'end', 'foreach', 'stop',
] as const;

export const TASK_MODES = ['agent', 'scrape', 'headful'] as const;

/** The most actions one task holds. */
export const MAX_ACTIONS = 1000;

/** The most versions a task keeps, newest first. */
export const MAX_VERSIONS = 100;

export const SCHEDULE_FREQUENCIES = ['interval', 'hourly', 'daily', 'weekly', 'monthly'] as const;

export const EXECUTION_STATUSES = ['queued', 'running', 'success', 'error', 'timeout', 'cancelled', 'interrupted'] as const;

export const EXECUTION_TRIGGERS = ['api', 'schedule', 'dashboard'] as const;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** `screenshot` for `png` and `jpg` files, `recording` for `webm` videos. */
export const CAPTURE_TYPES = ['screenshot', 'recording'] as const;

/** What every answer shows in place of a secret (a credential's token, a proxy's password). */
export const MASK = '********';
