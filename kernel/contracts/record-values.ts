/**
 * The fixed value lists of the records (records.ts). Plain constants, without TypeBox, so that the dashboard can
 * use them at run time without TypeBox in its bundle.
 */

/** Every action type the runner understands (decisions.md, "Actions"). */
export const ACTION_TYPES = [
  'navigate', 'click', 'hover', 'type', 'press', 'wait', 'wait_selector', 'scroll',
  'javascript', 'screenshot', 'set', 'if', 'else', 'end', 'foreach', 'stop', 'pause_for_human',
  'get_content', 'upload', 'download',
  'check', 'uncheck', 'select', 'double_click', 'right_click', 'drag_and_drop', 'reload', 'wait_navigation', 'wait_network_idle',
] as const;

export const TASK_MODES = ['agent', 'scrape', 'headful', 'http'] as const;

/** The most actions one task holds. */
export const MAX_ACTIONS = 1000;

/** The most versions a task keeps, newest first. */
export const MAX_VERSIONS = 100;

export const SCHEDULE_FREQUENCIES = ['interval', 'hourly', 'daily', 'weekly', 'monthly'] as const;

export const EXECUTION_STATUSES = ['queued', 'running', 'success', 'error', 'timeout', 'cancelled', 'interrupted'] as const;

/**
 * How a run ended, told apart more finely than its status (which keeps the spec's values): `stopped` (a `stop`
 * action or a person ended it), `crashed` (the page or browser died), `anti_bot` (a bot wall: see
 * layers/outcomes/). `invalid_data` and `awaiting_human` are reserved for checks of the extracted data and for a
 * run paused for a person. The first five are the finished statuses of the same name.
 */
export const EXECUTION_OUTCOMES = ['success', 'error', 'timeout', 'cancelled', 'interrupted', 'stopped', 'crashed', 'anti_bot', 'invalid_data', 'awaiting_human'] as const;

export const EXECUTION_TRIGGERS = ['api', 'schedule', 'dashboard'] as const;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** `screenshot` for `png` and `jpg` files, `recording` for `webm` videos, `download` for a file a `download` action kept. */
export const CAPTURE_TYPES = ['screenshot', 'recording', 'download'] as const;

/** What every answer shows in place of a secret (a credential's token, a proxy's password). */
export const MASK = '********';
