import { EventEmitter } from 'node:events';
import type { ExecutionLogLine, ExecutionStatus, RunAnswer } from '../../kernel/contracts/records.js';
import type { AwaitingHuman, AwaitingHumanEvent } from './human-pause.js';
import { RunView } from './run-view.js';
import { startRunTrace, type RunTrace } from './run-trace.js';

/** What `POST /api/tasks/{id}/api` answers and the completion webhook carries (spec, "Events"): the record's view. */
export type { RunAnswer };

/** Why a run was stopped from outside: the status it ends with and the message recorded. */
export class RunStop extends Error {
  constructor(readonly status: 'cancelled' | 'interrupted', message: string) {
    super(message);
    this.name = 'RunStop';
  }
}

/** Events of `LiveRun.events`, for the SSE stream. */
export interface LiveRunEvents {
  log: [ExecutionLogLine];
  status: [ExecutionStatus];
  result: [RunAnswer];
  /** The run waits for a person (human-pause.ts), with its new handoff link. */
  awaiting_human: [AwaitingHumanEvent];
}

// A run's lines stay in memory until it ends (persisted once, not per line); a runaway loop must not
// exhaust the service, so past this many the rest are counted, not kept.
export const MAX_LOG_LINES = 2000;
const MAX_MESSAGE = 4000;

/** A run this process is executing or holding in its queue. */
export class LiveRun {
  readonly controller = new AbortController();
  readonly logs: ExecutionLogLine[] = [];
  readonly events = new EventEmitter<LiveRunEvents>();
  readonly finished: Promise<RunAnswer>;
  /** Its page and current action, for the live view. */
  readonly view = new RunView();
  /** Its spans (no-ops while tracing is off), begun where the run is made: the request that queued it. */
  readonly trace: RunTrace;
  status: ExecutionStatus = 'queued';
  /** Set while the run waits for a person (outcome so far awaiting_human). */
  awaiting: AwaitingHuman | undefined;
  private dropped = 0;
  private resolve!: (answer: RunAnswer) => void;

  constructor(readonly executionId: string, readonly taskId: string) {
    this.finished = new Promise((resolve) => { this.resolve = resolve; });
    this.trace = startRunTrace(executionId, taskId);
    this.events.setMaxListeners(0); // one set per SSE client
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  log(level: ExecutionLogLine['level'], message: string, actionIndex?: number): void {
    if (this.logs.length >= MAX_LOG_LINES) {
      this.dropped++;
      return;
    }
    const line: ExecutionLogLine = { at: new Date().toISOString(), level, message: message.slice(0, MAX_MESSAGE) };
    if (actionIndex !== undefined) line.actionIndex = actionIndex;
    this.logs.push(line);
    this.events.emit('log', line);
  }

  /** Takes up the stored lines of an earlier attempt (a run queued again, taken by another worker). */
  resume(lines: ExecutionLogLine[]): void {
    this.logs.push(...lines.slice(0, MAX_LOG_LINES));
  }

  setStatus(status: ExecutionStatus): void {
    this.status = status;
    this.events.emit('status', status);
  }

  /** The lines to store: those kept, plus one saying how many were not. */
  storedLogs(): ExecutionLogLine[] {
    if (this.dropped === 0) return this.logs;
    return [...this.logs, { at: new Date().toISOString(), level: 'warn', message: `${this.dropped} more log lines were not kept` }];
  }

  /** Ends the run for its listeners; called once, after the record is stored. */
  finish(answer: RunAnswer): void {
    if (this.status !== answer.status) this.setStatus(answer.status);
    this.events.emit('result', answer);
    this.events.removeAllListeners();
    this.view.close();
    this.resolve(answer);
  }
}
