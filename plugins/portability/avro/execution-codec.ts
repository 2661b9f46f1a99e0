import type { ExecutionLogLine, ExecutionRecord, ExecutionResult } from '../../../kernel/contracts/records.js';
import {
  assignPresent, extraJson, intOrNull, jsonOrNull, longOrNull, parseObject, text, textOrNull,
} from './json-text.js';

/** An execution as the latest schema (execution-v3.ts) holds it: Avro's null stands for an absent field. */
export interface ExecutionAvro {
  executionId: string;
  taskId: string;
  taskName: string;
  status: string;
  trigger: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number;
  result: {
    dataJson: string | null;
    finalUrl: string | null;
    title: string | null;
    captures: string[] | null;
    error: { message: string; actionIndex: number | null; screenshot: string | null; extraJson: string | null } | null;
    trace: string | null;
    extraJson: string | null;
  };
  logs: Array<{ at: string; level: string; message: string; actionIndex: number | null }>;
  attempt: number | null;
  variablesJson: string | null;
  outcome: string | null;
  extraJson: string | null;
}

const EXECUTION_FIELDS = new Set(['executionId', 'taskId', 'taskName', 'status', 'trigger', 'startedAt', 'finishedAt', 'durationMs', 'result', 'logs', 'attempt', 'variables', 'outcome']);
const RESULT_FIELDS = new Set(['data', 'finalUrl', 'title', 'captures', 'error', 'trace']);
const ERROR_FIELDS = new Set(['message', 'actionIndex', 'screenshot']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The record as a value of the latest Execution schema. Never throws on a record of odd shape. */
export function executionToAvro(record: ExecutionRecord): ExecutionAvro {
  const result: ExecutionResult = isObject(record.result) ? record.result : {};
  const error = isObject(result.error) ? result.error : undefined;
  return {
    executionId: text(record.executionId),
    taskId: text(record.taskId),
    taskName: text(record.taskName),
    status: text(record.status),
    trigger: text(record.trigger),
    startedAt: text(record.startedAt),
    finishedAt: textOrNull(record.finishedAt),
    durationMs: longOrNull(record.durationMs) ?? 0,
    result: {
      dataJson: jsonOrNull(result.data),
      finalUrl: textOrNull(result.finalUrl),
      title: textOrNull(result.title),
      captures: Array.isArray(result.captures) ? result.captures.map(text) : null,
      error: error ? {
        message: text(error.message), actionIndex: intOrNull(error.actionIndex), screenshot: textOrNull(error.screenshot),
        extraJson: extraJson(error, ERROR_FIELDS),
      } : null,
      trace: textOrNull(result.trace),
      extraJson: extraJson(result, RESULT_FIELDS),
    },
    logs: (Array.isArray(record.logs) ? record.logs : []).map((line) => ({
      at: text(line?.at),
      level: text(line?.level),
      message: text(line?.message),
      actionIndex: intOrNull(line?.actionIndex),
    })),
    attempt: intOrNull(record.attempt),
    variablesJson: isObject(record.variables) ? JSON.stringify(record.variables) : null,
    outcome: textOrNull(record.outcome),
    extraJson: extraJson(record, EXECUTION_FIELDS),
  };
}

/** The record a value of the latest Execution schema stands for (the inverse of `executionToAvro`). */
export function executionFromAvro(value: ExecutionAvro): ExecutionRecord {
  const { dataJson, error, extraJson: resultExtra, ...resultFields } = value.result;
  const result: ExecutionResult = assignPresent({ ...parseObject(resultExtra) }, resultFields);
  if (dataJson !== null) result.data = JSON.parse(dataJson);
  if (error) {
    result.error = assignPresent({ ...parseObject(error.extraJson), message: error.message }, { actionIndex: error.actionIndex, screenshot: error.screenshot });
  }
  const record: ExecutionRecord = {
    ...parseObject(value.extraJson),
    executionId: value.executionId,
    taskId: value.taskId,
    taskName: value.taskName,
    status: value.status as ExecutionRecord['status'],
    trigger: value.trigger as ExecutionRecord['trigger'],
    startedAt: value.startedAt,
    durationMs: value.durationMs,
    result,
    logs: value.logs.map((line) => assignPresent({ at: line.at, level: line.level, message: line.message } as ExecutionLogLine, { actionIndex: line.actionIndex })),
  };
  if (value.finishedAt !== null) record.finishedAt = value.finishedAt;
  if (value.attempt !== null) record.attempt = value.attempt;
  if (value.variablesJson !== null) record.variables = JSON.parse(value.variablesJson) as Record<string, unknown>;
  if (value.outcome !== null) record.outcome = value.outcome as ExecutionRecord['outcome'];
  return record;
}
