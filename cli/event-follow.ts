import { createParser } from 'eventsource-parser';
import type { ApiClient } from './api-client.js';
import type { ExecutionStatus, LogLine } from './api-types.js';

export type ExecutionEvent =
  | { event: 'log'; data: LogLine }
  | { event: 'status'; data: { status: ExecutionStatus } }
  | { event: 'result'; data: unknown };

/**
 * Reads `GET /api/executions/{id}/events` (server-sent events: `log` lines, `status` changes, then `result`)
 * until the service ends the stream or `signal` aborts it (which resolves quietly).
 */
export async function followExecution(client: ApiClient, executionId: string, onEvent: (event: ExecutionEvent) => void, signal: AbortSignal): Promise<void> {
  const parser = createParser({
    onEvent: ({ event, data }) => {
      if (event === 'log' || event === 'status' || event === 'result') onEvent({ event, data: JSON.parse(data) } as ExecutionEvent);
    },
  });
  try {
    const response = await client.send('GET', `/api/executions/${encodeURIComponent(executionId)}/events`, { accept: 'text/event-stream', signal });
    if (!response.body) return;
    const decoder = new TextDecoder();
    for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}
