import type { Logger } from '../../kernel/contracts/logger.js';
import type { JobQueue } from '../../kernel/contracts/queue.js';
import type { ExecutionLogLine, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { AwaitingHumanEvent } from './human-pause.js';
import type { RunAnswer } from './live-run.js';

/** Where the instances tell each other about runs: the queue's topics (queue contract 1.1). */
export const RUN_EVENTS_TOPIC = 'run-events';
export const RUN_CONTROL_TOPIC = 'run-control';

/** What the instance running a run says about it, for every instance's event streams. */
export type RunEvent =
  /** `index`: the line's place in the run's log (the stored record's `logs`), the SSE event id. */
  | { executionId: string; kind: 'log'; index: number; line: ExecutionLogLine }
  | { executionId: string; kind: 'status'; status: ExecutionStatus }
  /** The run ended and its record was written (or kept); `answer` when small enough to carry. */
  | { executionId: string; kind: 'end'; status: ExecutionStatus; answer?: RunAnswer }
  /** The run waits for a person (never with the handoff link: it stays with the instance holding the run). */
  | { executionId: string; kind: 'awaiting_human'; event: Omit<AwaitingHumanEvent, 'handoffPath'> }
  /** The answer of the instance holding the run to a `resume` asked as `requestId`. */
  | { executionId: string; kind: 'resume-answer'; requestId: string; resumed: boolean; reason?: string };

/** What any instance asks of the one running a run. */
export type RunControl =
  | { executionId: string; kind: 'cancel' }
  /** Resume the run if it waits for a person; the holder answers with a `resume-answer` event. */
  | { executionId: string; kind: 'resume'; requestId: string }
  /** Send again the lines from `from` on (a stream that joined late, or missed some). */
  | { executionId: string; kind: 'replay'; from: number };

const CONTROL_KINDS = new Set<string>(['cancel', 'replay', 'resume'] satisfies Array<RunControl['kind']>);

/** Messages not yet handed to the queue, at most; past it they are dropped (streams catch up through `replay`). */
const MAX_BACKLOG = 1000;
const LOG_EVERY_MS = 30_000;

export interface RunChannel {
  publish(message: RunEvent | RunControl): void;
  /** Listens to the events of one run, whichever instance runs it; returns the function that stops it. */
  onRun(executionId: string, listener: (event: RunEvent) => void): () => void;
  /** The control messages for every run (the runs plugin acts on those of its own runs). */
  onControl(listener: (control: RunControl) => void): void;
  stop(): Promise<void>;
}

/**
 * The run channel over the queue's topics, or undefined when the queue has none (events then reach only this
 * process's streams, and others read the stored record). Publishing never throws nor waits: a message the engine
 * refuses is logged (once per 30 s) and lost, which the streams notice by the line indexes and repair by asking
 * for a replay.
 */
export async function openRunChannel(queue: JobQueue, logger: Logger): Promise<RunChannel | undefined> {
  if (!queue.publish || !queue.subscribe) return undefined;
  const publish = queue.publish.bind(queue);
  const byRun = new Map<string, Set<(event: RunEvent) => void>>();
  const controls: Array<(control: RunControl) => void> = [];
  let backlog = 0;
  let loggedAtMs = 0;
  const warn = (error: unknown, message: string) => {
    if (Date.now() - loggedAtMs < LOG_EVERY_MS) return;
    loggedAtMs = Date.now();
    logger.warn({ err: error }, message);
  };

  const stops = await Promise.all([
    queue.subscribe(RUN_EVENTS_TOPIC, (message) => {
      const event = message as RunEvent;
      for (const listener of [...(byRun.get(event?.executionId) ?? [])]) listener(event);
    }),
    queue.subscribe(RUN_CONTROL_TOPIC, (message) => {
      for (const listener of controls) listener(message as RunControl);
    }),
  ]);

  return {
    publish(message) {
      if (backlog >= MAX_BACKLOG) return warn(undefined, 'run events are published slower than they happen: some are dropped (streams ask for them again)');
      backlog++;
      const topic = CONTROL_KINDS.has(message.kind) ? RUN_CONTROL_TOPIC : RUN_EVENTS_TOPIC;
      publish(topic, message)
        .catch((error: unknown) => warn(error, 'publishing a run event failed: streams on other instances catch up from the record'))
        .finally(() => { backlog--; });
    },

    onRun(executionId, listener) {
      const set = byRun.get(executionId) ?? new Set();
      byRun.set(executionId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && byRun.get(executionId) === set) byRun.delete(executionId);
      };
    },

    onControl(listener) {
      controls.push(listener);
    },

    async stop() {
      byRun.clear();
      await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
    },
  };
}
