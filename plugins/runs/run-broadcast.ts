import type { RunChannel } from './run-channel.js';
import type { LiveRun } from './live-run.js';
import type { RunManager } from './run-manager.js';

/** An answer carried in the `end` event only below this (JSON bytes); a larger one is read from the record. */
const ANSWER_CARRIED_BYTES = 32 * 1024;
/** A resume asked again (its answer lost) gets the answer given first, for this long. */
const RESUME_ANSWER_KEPT_MS = 60_000;

/** What the instance holding a run answers to a resume asked elsewhere. */
export type ResumeAnswer = { resumed: boolean; reason?: string };

/** Replay requests for one run within this window are answered once, from the earliest line asked. */
const REPLAY_COALESCE_MS = 50;

/**
 * The side of the instance that runs a run: every instance hears each line (with its index), status change and
 * end as they happen (and a pause for a person), and this instance acts on what the others ask about its runs: a
 * cancel, a resume of a paused run (answered on the channel), or a replay of the lines from an index (a stream that
 * joined late or noticed a gap).
 */
export function createRunBroadcast(channel: RunChannel | undefined, manager: RunManager, cancel: (run: LiveRun) => void,
  resume: (run: LiveRun) => ResumeAnswer) {
  const replays = new Map<string, number>();
  const resumeAnswers = new Map<string, ResumeAnswer>();

  const sendLines = (run: LiveRun, from: number) => {
    for (let index = Math.max(0, from); index < run.logs.length; index++) {
      channel!.publish({ executionId: run.executionId, kind: 'log', index, line: run.logs[index]! });
    }
  };

  channel?.onControl((control) => {
    const run = manager.get(control?.executionId);
    if (!run) return; // another instance's run, or ended
    if (control.kind === 'cancel') return cancel(run);
    if (control.kind === 'resume') {
      if (typeof control.requestId !== 'string') return;
      let answer = resumeAnswers.get(control.requestId);
      if (!answer) {
        answer = resume(run);
        resumeAnswers.set(control.requestId, answer);
        setTimeout(() => resumeAnswers.delete(control.requestId), RESUME_ANSWER_KEPT_MS).unref();
      }
      return channel!.publish({ executionId: run.executionId, kind: 'resume-answer', requestId: control.requestId, ...answer });
    }
    if (control.kind !== 'replay' || !Number.isInteger(control.from)) return;
    const pending = replays.get(run.executionId);
    replays.set(run.executionId, Math.min(pending ?? control.from, control.from));
    if (pending !== undefined) return;
    setTimeout(() => {
      const from = replays.get(run.executionId) ?? 0;
      replays.delete(run.executionId);
      if (manager.get(run.executionId) === run) sendLines(run, from);
    }, REPLAY_COALESCE_MS).unref();
  });

  return {
    /** From now until it ends: the run's lines so far, then each new line, status change, and its end. */
    attach(run: LiveRun): void {
      if (!channel) return;
      const { executionId } = run;
      sendLines(run, 0);
      run.events
        .on('log', (line) => channel.publish({ executionId, kind: 'log', index: run.logs.length - 1, line }))
        .on('status', (status) => channel.publish({ executionId, kind: 'status', status }))
        .on('awaiting_human', ({ handoffPath: _link, ...event }) => channel.publish({ executionId, kind: 'awaiting_human', event }))
        .on('result', (answer) => {
          const small = Buffer.byteLength(JSON.stringify(answer)) < ANSWER_CARRIED_BYTES;
          channel.publish({ executionId, kind: 'end', status: answer.status, ...(small ? { answer } : {}) });
        });
    },
  };
}

export type RunBroadcast = ReturnType<typeof createRunBroadcast>;
