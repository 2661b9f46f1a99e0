import type { ExecutionRecord, ExecutionStatus } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import type { Send } from './event-stream.js';
import type { FinalRecords } from './final-records.js';
import { answerOfRecord, UNFINISHED } from './record-answer.js';
import type { RunChannel, RunEvent } from './run-channel.js';

/** How often the record of a run this process does not hold is read again (the end comes this way when events do not). */
const POLL_MS = 1_000;
/** A stream that heard nothing of its run for this long asks for the lines again (a lost message, a late start). */
const QUIET_REPLAY_MS = 2_000;
/** Gaps in the lines ask for a replay at most this often. */
const GAP_REPLAY_MS = 500;

type Kept = NonNullable<ReturnType<FinalRecords['answerOf']>>;

export interface ElsewhereSources {
  store: ExecutionStore;
  finals: FinalRecords;
  channel?: RunChannel;
  /** The record as first read: queued or running. */
  first: ExecutionRecord;
  /** The index of the first line to send. */
  from: number;
  send: Send;
  end: () => void;
  recordOf: (stored: ExecutionRecord, kept: Kept) => ExecutionRecord;
}

/**
 * A run this process does not hold (another instance runs it, or it waits in a shared queue): with the run channel,
 * each line, status change, pause for a person and end as the instance running it says them (lines in index order: a gap asks it to
 * send them again); without it, or when an event is lost, what the stored record says, read every second. The
 * stream ends with the stored record's end (or what the instance running it said, when its record is not written
 * yet). Storage that does not answer holds nothing up: it is asked again.
 */
export function followElsewhere(sources: ElsewhereSources): () => void {
  const { store, finals, channel, first, send, end, recordOf } = sources;
  const { executionId } = first;
  let next = sources.from;
  let status: ExecutionStatus | undefined;
  let timer: NodeJS.Timeout | undefined;
  let heardAt = Date.now();
  let replayAskedAt = 0;
  let done = false;

  const askReplay = (minGapMs: number) => {
    if (!channel || Date.now() - replayAskedAt < minGapMs) return;
    replayAskedAt = Date.now();
    channel.publish({ executionId, kind: 'replay', from: next });
  };
  const line = (index: number, value: unknown) => {
    if (index !== next) return;
    send('log', value, index);
    next++;
  };
  const showStatus = (value: ExecutionStatus) => {
    if (value !== status) send('status', { status: (status = value) });
  };
  const finish = (record: ExecutionRecord) => {
    done = true;
    record.logs.forEach((value, index) => line(index, value));
    showStatus(record.status);
    send('result', answerOfRecord(record));
    end();
  };
  /** Shows the record; true once it has ended (the stream is over). */
  const show = (record: ExecutionRecord): boolean => {
    if (!UNFINISHED.includes(record.status)) {
      finish(record);
      return true;
    }
    record.logs.forEach((value, index) => line(index, value));
    if (status === undefined || (status === 'queued' && record.status === 'running')) showStatus(record.status);
    return false;
  };
  const read = async (): Promise<ExecutionRecord | null | undefined> => {
    const kept = finals.answerOf(executionId);
    if (kept) return recordOf(first, kept);
    return store.get(executionId).catch(() => null); // null: storage did not answer, ask again
  };
  const poll = async () => {
    timer = undefined;
    const record = await read();
    if (done) return;
    if (record === undefined) return end(); // deleted meanwhile
    if (record && show(record)) return;
    if (Date.now() - heardAt >= QUIET_REPLAY_MS) askReplay(QUIET_REPLAY_MS);
    timer = setTimeout(() => void poll(), POLL_MS);
  };

  const onEvent = (event: RunEvent) => {
    if (done) return;
    heardAt = Date.now();
    if (event.kind === 'log') {
      if (event.index > next) askReplay(GAP_REPLAY_MS);
      line(event.index, event.line);
    } else if (event.kind === 'awaiting_human') {
      send('awaiting_human', event.event);
    } else if (event.kind === 'status') {
      if (UNFINISHED.includes(event.status)) showStatus(event.status);
    } else if (event.kind === 'end') {
      // The record tells the end (with every line); the event's answer only while the record is not written yet.
      void read().then((record) => {
        if (done) return;
        if (record && !UNFINISHED.includes(record.status)) return finish(record);
        if (event.answer) return finish({ ...first, status: event.answer.status, durationMs: event.answer.durationMs, result: event.answer.result, logs: [] });
      });
    }
  };
  const unsubscribe = channel?.onRun(executionId, onEvent) ?? (() => {});
  if (!show(first)) {
    // A stream that comes during a pause learns of it (never with the link: it stays on the instance holding the run).
    if (first.outcome === 'awaiting_human' && first.awaitingHuman) send('awaiting_human', { executionId, taskId: first.taskId, ...first.awaitingHuman });
    askReplay(0);
    timer = setTimeout(() => void poll(), POLL_MS);
  }
  return () => {
    done = true;
    unsubscribe();
    clearTimeout(timer);
  };
}
