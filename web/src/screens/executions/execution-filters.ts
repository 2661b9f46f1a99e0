import { query } from '../../api/client';

/** The filters of the executions list as they sit in its address, so a filtered view can be linked. */
export interface ExecutionFilters {
  taskId: string;
  status: string;
  trigger: string;
  outcome: string;
  /** `true`, `false` or empty (any). */
  changed: string;
  /** Whole days, `YYYY-MM-DD`, in the browser's time zone; both inclusive. */
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function filtersOf(params: URLSearchParams): ExecutionFilters {
  const day = (key: string) => (DAY.test(params.get(key) ?? '') ? params.get(key)! : '');
  return { taskId: params.get('taskId') ?? '', status: params.get('status') ?? '', trigger: params.get('trigger') ?? '', outcome: params.get('outcome') ?? '', changed: ['true', 'false'].includes(params.get('changed') ?? '') ? params.get('changed')! : '', from: day('from'), to: day('to') };
}

/** The dashboard address of the list with these filters. */
export const filtersHref = (filters: Partial<ExecutionFilters>) => `/executions${query({ ...filters })}`;

/** A local day's start (or end) as the ISO timestamp the API takes; undefined for no day or a day that is not one. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The API's query parameters for the filters (shared by the list, the count and the export). */
export function apiFilters(filters: ExecutionFilters): Record<string, string | undefined> {
  const { taskId, status, trigger, outcome, changed } = filters;
  return { taskId, status, trigger, outcome: outcome || undefined, changed: changed || undefined, from: dayBound(filters.from, false), to: dayBound(filters.to, true) };
}
