import { randomUUID } from 'node:crypto';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { ExecutionRecord } from '../../kernel/contracts/records.js';
import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { Instance } from '../instances/decorators.js';
import { UNFINISHED } from './record-answer.js';
import type { ResumeAnswer } from './run-broadcast.js';
import type { RunChannel } from './run-channel.js';

/** How long a resume waits for the instance holding the paused run to answer. */
export const RESUME_WAIT_MS = 30_000;
const READ_EVERY_MS = 500;
/** Asked again this often while unanswered (a lost message); the holder answers a repeat as it answered first. */
const ASK_EVERY_MS = 3_000;
/** A run that ended just after the holder resumed it: its answer may come a moment after the record. */
const ANSWER_AFTER_END_MS = 3_000;

export interface ResumeElsewhereDeps {
  store: ExecutionStore;
  channel: RunChannel;
  instance: Pick<Instance, 'live'>;
  logger: Logger;
}

/**
 * Resumes a run waiting for a person on another instance: asks it through the run channel and resolves once it
 * says it resumed the run. 409 EXECUTION_NOT_PAUSED when it says the run does not wait (any more), or the record
 * shows the run ended or its instance stopped; UPSTREAM_ERROR when no answer came within RESUME_WAIT_MS.
 */
export async function resumeElsewhere(deps: ResumeElsewhereDeps, first: ExecutionRecord): Promise<void> {
  const { store, channel, instance } = deps;
  const { executionId } = first;
  const requestId = randomUUID();
  let answer: ResumeAnswer | undefined;
  const stop = channel.onRun(executionId, (event) => {
    if (event.kind === 'resume-answer' && event.requestId === requestId) answer ??= { resumed: event.resumed, reason: event.reason };
  });
  const notPaused = (reason: string) => Errors.EXECUTION_NOT_PAUSED({ id: executionId, reason });
  deps.logger.info({ executionId, instance: first.instanceId }, 'asking the instance holding the paused run to resume it');
  try {
    const deadline = Date.now() + RESUME_WAIT_MS;
    let askedAt = 0;
    let readAt = Date.now();
    let endedAt: number | undefined;
    for (let record: ExecutionRecord | null | undefined = first; ;) {
      if (answer) {
        if (answer.resumed) return;
        throw notPaused(answer.reason ?? 'it does not wait');
      }
      if (record === undefined) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
      if (record && !UNFINISHED.includes(record.status)) {
        endedAt ??= Date.now();
        if (askedAt === 0 || Date.now() - endedAt >= ANSWER_AFTER_END_MS) throw notPaused(`it ended (${record.status})`);
      }
      if (record?.instanceId && !(await instance.live().catch(() => undefined))?.has(record.instanceId)) {
        throw notPaused(`the instance holding it (${record.instanceId}) has stopped`);
      }
      if (Date.now() > deadline) {
        throw Errors.UPSTREAM_ERROR({ reason: `Execution ${executionId} waits on instance ${record?.instanceId ?? '(unknown)'}, which did not answer the resume within ${RESUME_WAIT_MS / 1000} s: try again` });
      }
      if (Date.now() - askedAt >= ASK_EVERY_MS) {
        askedAt = Date.now();
        channel.publish({ executionId, kind: 'resume', requestId });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (!answer && Date.now() - readAt >= READ_EVERY_MS) {
        readAt = Date.now();
        record = await store.get(executionId).catch(() => null);
      }
    }
  } finally {
    stop();
  }
}
