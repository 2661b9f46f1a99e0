import type { Action, Schedule, TaskRecord, TaskVersion } from '../../../kernel/contracts/records.js';
import {
  assignPresent, boolOrNull, doubleOrNull, extraJson, intOrNull, jsonOrNull, longOrNull, parseObject, text, textOrNull,
} from './json-text.js';

type Nullable<T> = { [K in keyof T]-?: Exclude<T[K], undefined> | null };
type ScheduleAvro = Nullable<Omit<Schedule, 'nextRun' | 'enabled'>> & { enabled: boolean };

/** A task as the latest schema (task-v3.ts) holds it: Avro's null stands for an absent field. */
export interface TaskAvro {
  id: string;
  name: string;
  description: string | null;
  url: string;
  mode: string;
  actions: Array<Nullable<Omit<Action, 'type'>> & { type: string }>;
  variablesJson: string | null;
  schedule: ScheduleAvro | null;
  createdAt: string;
  updatedAt: string;
  optionsJson: string | null;
  versions: Array<{ id: string; savedAt: string; snapshotJson: string }>;
}

const TASK_FIELDS = new Set(['id', 'name', 'description', 'url', 'mode', 'actions', 'variables', 'schedule', 'createdAt', 'updatedAt', 'versions']);

function scheduleToAvro(schedule: Schedule): ScheduleAvro {
  return {
    enabled: schedule.enabled === true,
    frequency: textOrNull(schedule.frequency) as ScheduleAvro['frequency'],
    intervalMinutes: intOrNull(schedule.intervalMinutes),
    hour: intOrNull(schedule.hour),
    minute: intOrNull(schedule.minute),
    daysOfWeek: Array.isArray(schedule.daysOfWeek) ? schedule.daysOfWeek.filter(Number.isInteger) : null,
    dayOfMonth: intOrNull(schedule.dayOfMonth),
    cron: textOrNull(schedule.cron),
    timezone: textOrNull(schedule.timezone),
    lastRun: textOrNull(schedule.lastRun),
    lastRunStatus: textOrNull(schedule.lastRunStatus),
    lastRunDurationMs: doubleOrNull(schedule.lastRunDurationMs),
  };
}

/** The record as a value of the latest Task schema. The live `schedule.nextRun` is left out. */
export function taskToAvro(task: TaskRecord): TaskAvro {
  return {
    id: text(task.id),
    name: text(task.name),
    description: textOrNull(task.description),
    url: text(task.url),
    mode: text(task.mode),
    actions: (Array.isArray(task.actions) ? task.actions : []).map((action) => ({
      id: textOrNull(action.id),
      type: text(action.type),
      selector: textOrNull(action.selector),
      value: textOrNull(action.value),
      key: textOrNull(action.key),
      target: textOrNull(action.target),
      frame: textOrNull(action.frame),
      varName: textOrNull(action.varName),
      timeoutMs: longOrNull(action.timeoutMs),
      disabled: boolOrNull(action.disabled),
    })),
    variablesJson: jsonOrNull(task.variables),
    schedule: task.schedule ? scheduleToAvro(task.schedule) : null,
    createdAt: text(task.createdAt),
    updatedAt: text(task.updatedAt),
    optionsJson: extraJson(task, TASK_FIELDS),
    versions: (task.versions ?? []).map((version) => ({
      id: text(version.id), savedAt: text(version.savedAt), snapshotJson: JSON.stringify(version.snapshot),
    })),
  };
}

/** The record a value of the latest Task schema stands for (the inverse of `taskToAvro`). */
export function taskFromAvro(value: TaskAvro): TaskRecord {
  const task: TaskRecord = {
    ...parseObject(value.optionsJson),
    id: value.id,
    name: value.name,
    url: value.url,
    mode: value.mode,
    actions: value.actions.map(({ type, ...rest }) => assignPresent({ type } as Action, rest)),
    createdAt: value.createdAt,
    updatedAt: value.updatedAt,
    versions: value.versions.map((version): TaskVersion => ({
      id: version.id, savedAt: version.savedAt, snapshot: JSON.parse(version.snapshotJson) as TaskVersion['snapshot'],
    })),
  };
  if (value.description !== null) task.description = value.description;
  if (value.variablesJson !== null) task.variables = JSON.parse(value.variablesJson) as Record<string, unknown>;
  if (value.schedule) {
    const { enabled, ...rest } = value.schedule;
    task.schedule = assignPresent({ enabled } as Schedule, rest);
  }
  return task;
}
