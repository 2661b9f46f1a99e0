import { Type, type Static, type TSchema } from 'typebox';
import { SCHEDULE_FREQUENCIES, Schedule as StoredSchedule } from '../../kernel/contracts/records.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The Schedule record's fields as a body takes them: types only, since ranges and the rules between fields are
 * checked by resolve.ts, so they answer INVALID_SCHEDULE with the reason (and `describe` explains a bad one).
 */
const timingFields = {
  frequency: Type.Optional(Type.Enum([...SCHEDULE_FREQUENCIES], { description: 'may be omitted when cron is given' })),
  intervalMinutes: Type.Optional(Type.Integer({ description: '1 to 1440; required for interval' })),
  hour: Type.Optional(Type.Integer({ description: '0 to 23 (default 0); daily, weekly, monthly' })),
  minute: Type.Optional(Type.Integer({ description: '0 to 59 (default 0); hourly, daily, weekly, monthly' })),
  daysOfWeek: Type.Optional(Type.Array(Type.Integer(), { maxItems: 7, description: 'weekly: 0 is Sunday, 6 Saturday' })),
  dayOfMonth: Type.Optional(Type.Integer({ description: 'monthly: 1 to 31; months without that day are skipped' })),
  cron: Type.Optional(Type.String({ maxLength: 200, description: 'five fields; wins over the frequency fields' })),
  timezone: Type.Optional(Type.String({ maxLength: 100, description: 'IANA name; default: the server time zone' })),
};

/** Maintained by the server; accepted in a body (clients send back what they read) and ignored. */
const readOnlyFields = {
  lastRun: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunStatus: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  lastRunDurationMs: Type.Optional(Nullable(Type.Number())),
  nextRun: Type.Optional(Nullable(Type.Union([Type.Number(), Type.String({ maxLength: 64 })]))),
};

/** `POST /api/schedules/{taskId}` and `/describe`: a Schedule, `enabled` defaulting to true. */
export const ScheduleBody = Type.Object({
  enabled: Type.Optional(Type.Boolean({ default: true })),
  ...timingFields,
  ...readOnlyFields,
}, { additionalProperties: false });
export type ScheduleInput = Static<typeof ScheduleBody>;

/** A schedule as answered: the stored record (kernel/contracts/records.ts) with `nextRun` always there. */
export const Schedule = Type.Object({
  ...StoredSchedule.properties,
  nextRun: Nullable(Type.Number({ description: 'epoch ms of the next fire; null when disabled or invalid' })),
});

const Cron = Nullable(Type.String({ description: 'the resolved five-field cron; null for an interval no cron expresses' }));
const NextRun = Nullable(Type.Number({ description: 'epoch ms; null when disabled or invalid' }));

export const ScheduleList = Type.Object({
  schedules: Type.Array(Type.Object({ taskId: Type.String(), taskName: Type.String(), mode: Type.String(), schedule: Schedule })),
});

export const SetAnswer = Type.Object({ schedule: Schedule, description: Type.String(), nextRun: NextRun });

export const StatusAnswer = Type.Object({
  schedule: Nullable(Schedule),
  cron: Cron,
  description: Type.String(),
  isValid: Type.Boolean(),
  nextRun: NextRun,
  error: Type.Optional(Type.String({ description: 'why the stored schedule is not valid' })),
});

export const DescribeAnswer = Type.Object({
  valid: Type.Boolean(),
  description: Type.String({ description: 'plain English; when invalid, the reason' }),
  cron: Cron,
  nextRun: NextRun,
  error: Type.Optional(Type.String({ description: 'present when valid is false: why POST would refuse it' })),
});

export const StatusAll = Type.Object({
  running: Type.Boolean(),
  scheduledCount: Type.Integer(),
  tasks: Type.Array(Type.Object({
    taskId: Type.String(),
    cron: Cron,
    nextRun: Nullable(Type.String({ description: 'ISO 8601' })),
  })),
});

export const TaskParams = Type.Object({ taskId: Type.String({ minLength: 1, maxLength: 200 }) });
export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
