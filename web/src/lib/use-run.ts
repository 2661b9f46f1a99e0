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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newestExecutionId(taskId: string): Promise<string | undefined> {
  const list = await get<Execution[]>(`/api/executions${query({ taskId, limit: 1 })}`);
  return list[0]?.executionId;
}

/**
 * Starts a run (`POST /api/tasks/{id}/api`, which answers only at the end), learns its execution id from the
 * newest execution of the task, and follows `GET /api/executions/{id}/events` until the result.
 */
export function useRun() {
  const [state, setState] = useState<RunState>({ phase: 'idle', logs: [], captures: [] });
  const source = useRef<EventSource | null>(null);
  const finished = useRef(false);
  const closeStream = () => {
    source.current?.close();
    source.current = null;
  };
  useEffect(() => closeStream, []);

  const finish = useCallback(async (answer: RunAnswer) => {
    closeStream();
    if (finished.current) return;
    finished.current = true;
    setState((s) => ({ ...s, phase: 'done', answer, status: answer.status, executionId: answer.executionId }));
    const [captures, record] = await Promise.all([
      get<Capture[]>(`/api/data/captures${query({ runId: answer.executionId })}`).catch(() => []),
      get<Execution>(`/api/executions/${seg(answer.executionId)}`).catch(() => undefined),
    ]);
    // The stored record holds every line, also those said before the stream was opened (or without one).
    setState((s) => ({ ...s, captures, logs: record && record.logs.length >= s.logs.length ? record.logs : s.logs }));
  }, []);

  const follow = useCallback((executionId: string) => {
    closeStream();
    const events = new EventSource(`/api/executions/${seg(executionId)}/events`);
    source.current = events;
    events.addEventListener('log', (e) => {
      const line = JSON.parse((e as MessageEvent<string>).data) as LogLine;
      setState((s) => ({ ...s, logs: [...s.logs, line] }));
    });
    events.addEventListener('status', (e) => {
      const { status } = JSON.parse((e as MessageEvent<string>).data) as { status: ExecutionStatus };
      setState((s) => ({ ...s, status }));
    });
    events.addEventListener('result', (e) => void finish(JSON.parse((e as MessageEvent<string>).data) as RunAnswer));
    // The stream ends after `result`; an error before it (endpoint missing, connection lost) leaves the run's own answer.
    events.onerror = () => closeStream();
  }, [finish]);

  const start = useCallback(async (taskId: string) => {
    closeStream();
    finished.current = false;
    setState({ phase: 'starting', logs: [], captures: [] });
    let before: string | undefined;
    try {
      before = await newestExecutionId(taskId);
    } catch (error) {
      return setState((s) => ({ ...s, phase: 'failed', error }));
    }
    let answered = false;
    const run = post<RunAnswer>(`/api/tasks/${seg(taskId)}/api`, {}).then(
      (answer) => { answered = true; void finish(answer); },
      (error: unknown) => { answered = true; closeStream(); setState((s) => ({ ...s, phase: 'failed', error })); },
    );
    for (let i = 0; i < 120 && !answered; i++) {
      await sleep(i < 10 ? 150 : 500);
      const newest = await newestExecutionId(taskId).catch(() => undefined);
      if (newest && newest !== before) {
        if (answered) break;
        setState((s) => ({ ...s, phase: 'running', executionId: newest, status: s.status ?? 'queued' }));
        follow(newest);
        break;
      }
    }
    await run;
  }, [finish, follow]);

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
