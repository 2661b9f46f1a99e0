import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, post, query, seg } from '../api/client';
import type { Capture, Execution, ExecutionStatus, LogLine, RunAnswer } from '../api/types';

export interface RunState {
  phase: 'idle' | 'starting' | 'running' | 'done' | 'failed';
  executionId?: string;
  status?: ExecutionStatus;
  logs: LogLine[];
  answer?: RunAnswer;
  captures: Capture[];
  error?: unknown;
}

type Queued = Pick<Execution, 'executionId' | 'taskId' | 'status'>;

/** What a run is started with from the dashboard (the run request's own fields). */
export interface RunRequest {
  variables?: Record<string, unknown>;
  trace?: boolean;
  /** A named browser state this run starts from, instead of the task's. */
  browserState?: string;
}

const UNFINISHED: ExecutionStatus[] = ['queued', 'running'];
const RETRY_MS = 1000;
/** Consecutive failed attempts to reach a run before the panel gives up on it (the run itself goes on). */
const MAX_RETRIES = 30;

const answerOf = (record: Execution): RunAnswer => ({
  executionId: record.executionId, taskId: record.taskId, status: record.status, durationMs: record.durationMs ?? 0, result: record.result ?? {},
});

/**
 * Starts a run with `Prefer: respond-async` (202 with its execution id) and follows exactly that execution:
 * `GET /api/executions/{id}/events` until `result`, reopened when it breaks. Cancel acts on that id only, never
 * on another caller's run of the same task.
 */
export function useRun() {
  const [state, setState] = useState<RunState>({ phase: 'idle', logs: [], captures: [] });
  const source = useRef<EventSource | null>(null);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The execution being followed; events of any other (an earlier run, a late stream) are ignored.
  const following = useRef<string | undefined>(undefined);
  const stop = () => {
    source.current?.close();
    source.current = null;
    clearTimeout(retry.current);
  };
  useEffect(() => () => { following.current = undefined; stop(); }, []);

  const finish = useCallback(async (answer: RunAnswer) => {
    if (following.current !== answer.executionId) return;
    following.current = undefined;
    stop();
    const id = answer.executionId;
    setState((s) => ({ ...s, phase: 'done', answer, status: answer.status, executionId: id }));
    const [captures, record] = await Promise.all([
      get<Capture[]>(`/api/data/captures${query({ runId: id })}`).catch(() => []),
      get<Execution>(`/api/executions/${seg(id)}`).catch(() => undefined),
    ]);
    // The stored record holds every line, also any said while the stream was being reopened.
    setState((s) => (s.executionId !== id ? s : { ...s, captures, logs: record && record.logs.length >= s.logs.length ? record.logs : s.logs }));
  }, []);

  const fail = (executionId: string, error: unknown) => {
    if (following.current !== executionId) return;
    following.current = undefined;
    stop();
    setState((s) => ({ ...s, phase: 'failed', error }));
  };

  // Declared with `function` so `follow` and `recover` can call each other.
  function follow(executionId: string, failures = 0): void {
    stop();
    if (following.current !== executionId) return;
    const events = new EventSource(`/api/executions/${seg(executionId)}/events`);
    source.current = events;
    const mine = () => following.current === executionId && source.current === events;
    // Every (re)opened stream starts with all the lines so far.
    events.onopen = () => { if (mine()) setState((s) => ({ ...s, logs: [] })); };
    events.addEventListener('log', (e) => {
      if (!mine()) return;
      const line = JSON.parse((e as MessageEvent<string>).data) as LogLine;
      setState((s) => ({ ...s, logs: [...s.logs, line] }));
    });
    events.addEventListener('status', (e) => {
      if (!mine()) return;
      const { status } = JSON.parse((e as MessageEvent<string>).data) as { status: ExecutionStatus };
      setState((s) => ({ ...s, status, phase: s.phase === 'starting' ? 'running' : s.phase }));
    });
    events.addEventListener('result', (e) => { if (mine()) void finish(JSON.parse((e as MessageEvent<string>).data) as RunAnswer); });
    // Broken before `result` (connection lost, service restarted): ask for the record, then follow again.
    events.onerror = () => { if (mine()) void recover(executionId, failures); };
  }

  async function recover(executionId: string, failures: number): Promise<void> {
    stop();
    try {
      const record = await get<Execution>(`/api/executions/${seg(executionId)}`);
      if (!UNFINISHED.includes(record.status)) return void finish(answerOf(record));
      failures = 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return fail(executionId, error);
      if (++failures >= MAX_RETRIES) return fail(executionId, error);
    }
    if (following.current === executionId) retry.current = setTimeout(() => follow(executionId, failures), RETRY_MS);
  }

  const start = useCallback(async (taskId: string, request: RunRequest = {}) => {
    following.current = undefined;
    stop();
    setState({ phase: 'starting', logs: [], captures: [] });
    let answer: Queued | RunAnswer;
    try {
      answer = await post<Queued | RunAnswer>(`/api/tasks/${seg(taskId)}/api`, request, { headers: { prefer: 'respond-async' } });
    } catch (error) {
      return setState((s) => ({ ...s, phase: 'failed', error }));
    }
    following.current = answer.executionId;
    // A server that ignores the preference answers at the end, with the result.
    if ('result' in answer) return void finish(answer);
    setState((s) => ({ ...s, phase: 'running', executionId: answer.executionId, status: answer.status }));
    follow(answer.executionId);
  }, [finish]);

  const cancel = useCallback(async () => {
    if (!state.executionId) return;
    try {
      await post(`/api/executions/${seg(state.executionId)}/cancel`);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'EXECUTION_FINISHED')) setState((s) => ({ ...s, error }));
    }
  }, [state.executionId]);

  return { state, start, cancel };
}
