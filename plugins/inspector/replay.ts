import { actionLabel } from '../../layers/action-label/action-label.js';
import type { CaptureTask, PageCapture } from '../runs/decorators.js';
import type { BrowserPage } from '../../kernel/contracts/browser.js';
import { Errors, TaskloomError } from '../../kernel/errors.js';
import type { OutboundGuard } from '../../kernel/outbound/index.js';
import type { HighlightInput } from './schemas.js';

/** What the matching needs of a page. */
export type MatchablePage = Pick<BrowserPage, 'evaluate' | 'screenshot'>;

/** The extension's request: the task to replay and the (0-based) action the element is for. */
export interface Replay { task: CaptureTask; actionIndex: number }

const invalid = (message: string) => Errors.VALIDATION_ERROR({ message });

/**
 * Reads the extension fields `task` and `actionIndex`, which go together and replace `url` and `sessionId`
 * (the actions run in a fresh context, as generate-selector runs them). Undefined: the interface's own form.
 */
export function replayOf(input: HighlightInput): Replay | undefined {
  const { task, actionIndex } = input;
  if (task === undefined) {
    if (actionIndex !== undefined) throw invalid('body.actionIndex needs body.task (the url and actions to run before matching)');
    return undefined;
  }
  if (actionIndex === undefined) throw invalid('body.actionIndex is required with body.task: the actions before it run first (0 runs none)');
  if (input.url !== undefined) throw invalid('give body.url or body.task, not both: the task opens its own url');
  if (input.sessionId !== undefined) throw invalid('body.sessionId cannot be combined with body.task: the task runs in a fresh browser context');
  if (actionIndex > task.actions.length) {
    throw invalid(`body.actionIndex is ${actionIndex} but the task has ${task.actions.length} actions`);
  }
  return { task: task as CaptureTask, actionIndex };
}

/** Where the replay stops, as a person counts actions (from 1: layers/action-label/action-label). */
function stopPoint({ task, actionIndex }: Replay): string {
  if (actionIndex === 0) return 'the task\'s start page';
  return actionIndex >= task.actions.length ? 'the page after the last action' : `the page before ${actionLabel(actionIndex)}`;
}

export interface ReplayDeps {
  guard: OutboundGuard;
  /** The browser layer's page capture (the runs plugin's `app.pageCapture`), when it is installed. */
  capture(): PageCapture | undefined;
}

/** Opens `task.url` in a fresh context, runs the actions before `actionIndex`, and matches on that page. */
export async function withReplayedPage<T>(deps: ReplayDeps, replay: Replay, signal: AbortSignal | undefined,
  fn: (page: MatchablePage) => Promise<T>): Promise<T> {
  const capture = deps.capture();
  if (!capture) throw invalid('body.task needs the browser layer that replays actions (the runs plugin), which this server does not load');
  const { url } = replay.task;
  // A URL with placeholders is checked by the capture once they are filled.
  if (!url.includes('{$')) await deps.guard.checkUrl(url, { errorAs: Errors.INVALID_URL });
  let page;
  try {
    page = await capture.capture(replay.task, replay.actionIndex, { signal });
  } catch (error) {
    if (error instanceof TaskloomError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw Errors.UPSTREAM_ERROR({ reason: `Could not reach ${stopPoint(replay)}: ${reason}` }, { cause: error });
  }
  try {
    const { evaluate, screenshot } = page;
    if (!evaluate || !screenshot) throw new Error('the browser layer cannot run scripts in a captured page');
    return await fn({ evaluate: evaluate.bind(page), screenshot: screenshot.bind(page) });
  } finally {
    await page.close().catch(() => undefined);
  }
}
