import type { FastifyReply } from 'fastify';
import type { ExecutionRecord, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { FinalRecords } from './final-records.js';
import type { LiveRun, RunAnswer } from './live-run.js';
import { answerOfRecord, UNFINISHED } from './record-answer.js';
import type { RunChannel } from './run-channel.js';
import type { RunManager } from './run-manager.js';
import { followElsewhere } from './stream-elsewhere.js';

export const HEARTBEAT_MS = 15_000;

/** Writes one event; `id` (a log line's index) only on `log` events. */
export type Send = (event: 'log' | 'status' | 'result' | 'awaiting_human', data: unknown, id?: number) => void;

type Kept = NonNullable<ReturnType<FinalRecords['answerOf']>>;

/** The record as it will be stored once storage takes the kept final change. */
const recordOf = (stored: ExecutionRecord, kept: Kept): ExecutionRecord => ({
  ...stored, status: kept.answer.status, durationMs: kept.answer.durationMs, result: kept.answer.result, logs: kept.logs,
});

/** Follows a live run of this process: its lines from `from`, then each new line and status change, then the result. */
function followLive(run: LiveRun, from: number, send: Send, end: () => void): () => void {
  run.logs.forEach((line, index) => { if (index >= from) send('log', line, index); });
  send('status', { status: run.status });
  // A client that comes during a pause learns of it, without the link (it went to the clients there then).
  if (run.awaiting) send('awaiting_human', { executionId: run.executionId, taskId: run.taskId, ...run.awaiting });
  const onAwaiting = (event: unknown) => send('awaiting_human', event);
  const onLog = (line: unknown) => {
    if (run.logs.length - 1 >= from) send('log', line, run.logs.length - 1);
  };
  const onStatus = (status: ExecutionStatus) => send('status', { status });
  const onResult = (answer: RunAnswer) => {
    send('result', answer);
    end();
  };
  run.events.on('log', onLog).on('status', onStatus).on('result', onResult).on('awaiting_human', onAwaiting);
  return () => {
    run.events.off('log', onLog).off('status', onStatus).off('result', onResult).off('awaiting_human', onAwaiting);
  };
}

/** A record that has ended, or a run of this process that ended while storage was away (kept in memory). */
function showEnded(record: ExecutionRecord, from: number, send: Send, end: () => void): () => void {
  record.logs.forEach((line, index) => { if (index >= from) send('log', line, index); });
  send('status', { status: record.status });
  send('result', answerOfRecord(record));
  end();
  return () => {};
}

/** What the event stream reads: this process's runs, the stored records, and the other instances' events. */
export interface StreamSources {
  manager: RunManager;
  store: ExecutionStore;
  finals: FinalRecords;
  channel?: RunChannel;
}

/** The log index after `Last-Event-ID` (a line's index): resume there; 0 without a usable one. */
function resumeFrom(lastEventId: string | string[] | undefined): number {
  const value = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  return value !== undefined && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) + 1 : 0;
}

/**
 * `GET /api/executions/{id}/events`: server-sent events `log` (one per log line, with the line's index as its
 * `id`), `status` (`{ status }`), `awaiting_human` (the run waits for a person: human-pause.ts) and finally `result` (the run's answer), after which the stream ends. With
 * `Last-Event-ID` it resumes after that line. A comment line every 15 s keeps proxies from closing an idle stream.
 * 404 EXECUTION_NOT_FOUND before any byte is written.
 */
export async function streamEvents(reply: FastifyReply, executionId: string, sources: StreamSources, lastEventId?: string | string[]): Promise<void> {
  const { manager, store, finals } = sources;
  const from = resumeFrom(lastEventId);
  const run = manager.get(executionId);
  const kept = run ? undefined : finals.answerOf(executionId);
  const record = run || kept ? undefined : await store.get(executionId);
  const live = run ?? manager.get(executionId); // it may have been queued while the record was read
  if (!live && !kept && !record) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  let stop = () => {};
  let ended = false;
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    stop();
    raw.end();
  };
  raw.on('close', end); // the client left
  const send: Send = (event, data, id) => {
    if (!ended) raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  if (live) stop = followLive(live, from, send, end);
  else if (kept) stop = showEnded(recordOf(record ?? ({ executionId, taskId: kept.answer.taskId } as ExecutionRecord), kept), from, send, end);
  else if (!UNFINISHED.includes(record!.status)) stop = showEnded(record!, from, send, end);
  else stop = followElsewhere({ store, finals, channel: sources.channel, first: record!, from, send, end, recordOf });
  if (ended) stop();
}
