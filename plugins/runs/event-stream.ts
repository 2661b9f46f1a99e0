import type { FastifyReply } from 'fastify';
import type { ExecutionRecord, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { FinalRecords } from './final-records.js';
import type { LiveRun, RunAnswer } from './live-run.js';
import type { RunManager } from './run-manager.js';

export const HEARTBEAT_MS = 15_000;
/** How often a run held by another instance (same storage) is read again. */
const POLL_MS = 1_000;
const UNFINISHED: readonly ExecutionStatus[] = ['queued', 'running'];

type Send = (event: 'log' | 'status' | 'result', data: unknown) => void;

const answerOf = (record: ExecutionRecord): RunAnswer => ({
  executionId: record.executionId, taskId: record.taskId, status: record.status, durationMs: record.durationMs, result: record.result,
});

type Kept = NonNullable<ReturnType<FinalRecords['answerOf']>>;

/** The record as it will be stored once storage takes the kept final change. */
const recordOf = (stored: ExecutionRecord, kept: Kept): ExecutionRecord => ({
  ...stored, status: kept.answer.status, durationMs: kept.answer.durationMs, result: kept.answer.result, logs: kept.logs,
});

/** Follows a live run: its lines so far, then each new line and status change, then the result. */
function followLive(run: LiveRun, send: Send, end: () => void): () => void {
  for (const line of run.logs) send('log', line);
  send('status', { status: run.status });
  const onLog = (line: unknown) => send('log', line);
  const onStatus = (status: ExecutionStatus) => send('status', { status });
  const onResult = (answer: RunAnswer) => {
    send('result', answer);
    end();
  };
  run.events.on('log', onLog).on('status', onStatus).on('result', onResult);
  return () => {
    run.events.off('log', onLog).off('status', onStatus).off('result', onResult);
  };
}

/**
 * A record this process does not run: what it holds, then (while another instance runs it) its changes. A run
 * of this process that ended while storage was away shows its true end from `finals`, kept in memory.
 */
function followStored(store: ExecutionStore, finals: FinalRecords, first: ExecutionRecord, send: Send, end: () => void): () => void {
  let sent = 0;
  let status: ExecutionStatus | undefined;
  let timer: NodeJS.Timeout | undefined;
  const show = (record: ExecutionRecord) => {
    for (const line of record.logs.slice(sent)) send('log', line);
    sent = Math.max(sent, record.logs.length);
    if (record.status !== status) send('status', { status: (status = record.status) });
    if (UNFINISHED.includes(record.status)) return false;
    send('result', answerOf(record));
    end();
    return true;
  };
  const poll = async () => {
    const kept = finals.answerOf(first.executionId);
    // Storage unreachable: the run has not ended for all we know, so ask again (the heartbeat keeps the stream).
    const record = kept ? recordOf(first, kept) : await store.get(first.executionId).catch(() => first);
    if (!record) return end(); // deleted meanwhile
    if (!show(record)) timer = setTimeout(() => void poll(), POLL_MS);
  };
  const kept = finals.answerOf(first.executionId);
  if (!show(kept ? recordOf(first, kept) : first)) timer = setTimeout(() => void poll(), POLL_MS);
  return () => clearTimeout(timer);
}

/** A run of this process that ended while storage was away: its lines, its true status and its answer, from memory. */
function showKept({ answer, logs }: Kept, send: Send, end: () => void): () => void {
  for (const line of logs) send('log', line);
  send('status', { status: answer.status });
  send('result', answer);
  end();
  return () => {};
}

/**
 * `GET /api/executions/{id}/events`: server-sent events `log` (one per log line), `status` (`{ status }`) and
 * finally `result` (the run's answer), after which the stream ends. A comment line every 15 s keeps proxies from
 * closing an idle stream. 404 EXECUTION_NOT_FOUND before any byte is written.
 */
export async function streamEvents(
  reply: FastifyReply, executionId: string, manager: RunManager, store: ExecutionStore, finals: FinalRecords,
): Promise<void> {
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
  const send: Send = (event, data) => {
    if (!ended) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  if (live) stop = followLive(live, send, end);
  else stop = kept ? showKept(kept, send, end) : followStored(store, finals, record!, send, end);
  if (ended) stop();
}
