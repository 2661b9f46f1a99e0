import type { EventBus, EventType } from '../../layers/events/event-bus.js';
import type { RunAnswer } from './live-run.js';
import type { DataFindings } from './data-checks.js';

/**
 * The runs' moments as events (README "Webhooks and events") and their completion webhook, through the webhooks
 * plugin's `app.events` when the service has one. Publishing never holds a run up nor fails it.
 */
export function createRunEvents(bus: (EventBus & { present(): boolean }) | undefined) {
  const publish = (type: EventType, taskId: string, data: Record<string, unknown>) =>
    void bus?.publish({ type, taskId, data: { taskId, ...data } });
  return {
    queued: (executionId: string, taskId: string, trigger: string) => publish('execution.queued', taskId, { executionId, trigger }),
    started: (executionId: string, taskId: string) => publish('execution.started', taskId, { executionId }),
    /** `succeeded` on success, `failed` on any other end, with its status and outcome (README "Outcomes"). */
    ended(answer: RunAnswer, outcome?: string): void {
      const data: Record<string, unknown> = { executionId: answer.executionId, status: answer.status, durationMs: answer.durationMs };
      if (answer.result.error !== undefined) data.error = answer.result.error;
      if (outcome !== undefined) data.outcome = outcome;
      publish(answer.status === 'success' ? 'execution.succeeded' : 'execution.failed', answer.taskId, data);
    },
    /** `execution.invalid_data` for broken expectations, `execution.changed` only when the rows changed. */
    dataFindings(answer: RunAnswer, findings: DataFindings): void {
      const { executionId, status } = answer;
      if (findings.violations) publish('execution.invalid_data', answer.taskId, { executionId, status, violations: findings.violations });
      if (findings.changed && findings.diff) {
        const screenshots = findings.screenshots?.filter((shot) => shot.changed);
        publish('execution.changed', answer.taskId, {
          executionId, comparedWith: findings.comparedWith, counts: findings.diff.counts, diff: findings.diff, ...(screenshots?.length ? { screenshots } : {}),
        });
      }
    },
    /** Whether completion webhooks go through the durable, signed delivery (a webhooks plugin is there). */
    delivers: (): boolean => bus?.present() === true,
    /** Hands the completion webhook over: resolves once it is stored. */
    callback: (url: string, answer: RunAnswer): Promise<void> =>
      bus ? bus.callback({ url, executionId: answer.executionId, taskId: answer.taskId, body: answer }) : Promise.resolve(),
  };
}

export type RunEvents = ReturnType<typeof createRunEvents>;
