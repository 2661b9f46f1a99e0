import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TaskRecord } from '../../kernel/contracts/records.js';
import type { ImportAnswer } from './schemas.js';

/** The request headers that carry the caller's credentials (kernel/http/credentials.ts). */
const CREDENTIAL_HEADERS = ['cookie', 'authorization', 'x-api-key', 'key'];
const TIMING_FIELDS = ['enabled', 'frequency', 'intervalMinutes', 'hour', 'minute', 'daysOfWeek', 'dayOfMonth', 'cron', 'timezone'] as const;

type Arming = Pick<ImportAnswer, 'scheduled' | 'notScheduled'>;

/**
 * Hands the imported schedules to the scheduler now. The schedules plugin arms a job when its own API sets a
 * schedule and otherwise only at its periodic sync (every 30 s); it exposes no decorator, and a plugin may not
 * import another. So this asks through that API, in-process (`inject`) and as the caller: `POST
 * /api/schedules/{id}` with the schedule as stored (it keeps the stored run fields), or `DELETE` for a replaced
 * task whose enabled schedule the import removed. A refusal leaves the stored schedule as imported; the
 * periodic sync retries it (and skips it while invalid).
 */
export async function armSchedules(
  app: FastifyInstance,
  request: FastifyRequest,
  imported: Array<{ next: TaskRecord; previous?: TaskRecord }>,
): Promise<Arming> {
  const headers: Record<string, string> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const answer: Arming = { scheduled: [], notScheduled: [] };
  for (const { next, previous } of imported) {
    const url = `/api/schedules/${encodeURIComponent(next.id)}`;
    if (next.schedule?.enabled) {
      const body: Record<string, unknown> = {};
      for (const key of TIMING_FIELDS) if (next.schedule[key] !== undefined) body[key] = next.schedule[key];
      const response = await app.inject({ method: 'POST', url, headers, payload: body });
      if (response.statusCode === 200) answer.scheduled.push(next.id);
      else answer.notScheduled.push({ taskId: next.id, ...errorOf(response.body, response.statusCode) });
    } else if (previous?.schedule?.enabled) {
      await app.inject({ method: 'DELETE', url, headers });
    }
  }
  return answer;
}

function errorOf(body: string, status: number): { error: string; details?: string } {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; details?: unknown };
    if (typeof parsed.error === 'string') {
      return typeof parsed.details === 'string' ? { error: parsed.error, details: parsed.details } : { error: parsed.error };
    }
  } catch {
    // Not an error body of ours: report the status below.
  }
  return { error: 'INTERNAL_ERROR', details: `the schedules API answered ${status}` };
}
