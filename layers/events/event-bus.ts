import type { FastifyInstance } from 'fastify';

/**
 * The events the service publishes to webhook subscriptions (README "Webhooks and events"). The plugins that
 * know a moment publish it through `app.events`; the webhooks plugin offers it. Types listed here and not yet
 * published are the hooks other features fill in: publish them with the same call when they exist.
 */
export const EVENT_TYPES = [
  'execution.queued',
  'execution.started',
  'execution.succeeded',
  /** Any end other than success: `status` (and `outcome` when the record has one) say which. */
  'execution.failed',
  'execution.awaiting_human',
  'execution.changed',
  'execution.invalid_data',
  'task.repair_proposed',
  'task.repair_applied',
  'schedule.skipped',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One event: its type, the task it concerns (subscriptions may be limited to some tasks) and its data. */
export interface ServiceEvent {
  type: EventType;
  taskId?: string;
  data: Record<string, unknown>;
}

/** A run's completion webhook (`webhookUrl`): its body is the run's answer, exactly. */
export interface RunCallback {
  url: string;
  executionId: string;
  taskId: string;
  body: unknown;
}

export interface EventBus {
  /**
   * Stores one delivery per enabled subscription that wants the event, then sends them in the background.
   * Resolves once they are stored; never rejects (a failure is logged): an event never stops what published it.
   */
  publish(event: ServiceEvent): Promise<void>;
  /** Stores the run's completion webhook as a delivery (signed, retried like the others). Never rejects. */
  callback(callback: RunCallback): Promise<void>;
}

// The decorator of the webhooks plugin (fastify-plugin, name 'taskloom-webhooks'), typed for every plugin.
declare module 'fastify' {
  interface FastifyInstance {
    /** Publishes events to webhook subscriptions. Absent when the composition has no webhooks plugin. */
    events?: EventBus;
  }
}

/**
 * The events of `app`, read on each call (the webhooks plugin may be mounted after the caller): publishing
 * without a webhooks plugin does nothing.
 */
export function eventsOf(app: FastifyInstance): EventBus & { present(): boolean } {
  const bus = () => (app.hasDecorator('events') ? app.events : undefined);
  return {
    present: () => bus() !== undefined,
    publish: async (event) => { await bus()?.publish(event); },
    callback: async (callback) => { await bus()?.callback(callback); },
  };
}
