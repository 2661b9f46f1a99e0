import type { ExecutionStore } from '../../kernel/contracts/storage.js';
import { Errors } from '../../kernel/errors.js';
import type { RunService } from '../runs/index.js';
import { sendJson, type createRunLive } from './run-live.js';
import type { SocketRoute } from './upgrade.js';

export interface LiveRunRouteDeps {
  runs: RunService;
  store: ExecutionStore;
  instanceId: string;
  runLive: ReturnType<typeof createRunLive>;
}

/**
 * `GET /api/executions/{id}/live` (WebSocket): the run's page as JPEG frames (binary messages) and its current action
 * (JSON). A run of another instance is named (`elsewhere`), an ended one answers its status (`end`); both then close.
 */
export function liveRunRoute(deps: LiveRunRouteDeps): SocketRoute {
  return {
    path: /^\/api\/executions\/([A-Za-z0-9_-]{1,128})\/live\/?$/,
    async accept(match) {
      const executionId = match[1]!;
      const run = deps.runs.streamSources.manager.get(executionId);
      if (run) return (ws) => deps.runLive.watch(ws, run, { type: 'hello', executionId, status: run.status });
      const record = await deps.store.get(executionId);
      if (!record) throw Errors.EXECUTION_NOT_FOUND({ id: executionId });
      return (ws) => {
        const unfinished = record.status === 'queued' || record.status === 'running';
        if (unfinished && record.instanceId && record.instanceId !== deps.instanceId) {
          sendJson(ws, { type: 'elsewhere', instanceId: record.instanceId });
        } else if (unfinished) {
          sendJson(ws, { type: 'unavailable', reason: 'The run waits in the shared queue: open the live view again once it runs' });
        } else {
          sendJson(ws, { type: 'end', status: record.status });
        }
        ws.close(1000);
      };
    },
  };
}

/** How long the live view of a run to here waits for it to start (its request and the socket race). */
const RUN_TO_HERE_START_MS = 15_000;

/**
 * `GET /api/tasks/run-to-here/{liveId}/live` (WebSocket): the page of a run to here that asked for it with `liveId`,
 * as for a run; `end` with its status once it ended (also to a viewer that came within a minute after).
 */
export function runToHereLiveRoute(deps: Pick<LiveRunRouteDeps, 'runs' | 'runLive'>): SocketRoute {
  return {
    path: /^\/api\/tasks\/run-to-here\/([A-Za-z0-9_-]{16,64})\/live\/?$/,
    async accept(match) {
      const liveId = match[1]!;
      const run = await deps.runs.toHere.when(liveId, RUN_TO_HERE_START_MS);
      if (!run) throw Errors.NOT_FOUND({}, { details: `No run to here ${liveId} is running` });
      return (ws) => deps.runLive.watch(ws, run, { type: 'hello', liveId, status: run.view.closed ? 'ended' : 'running' });
    },
  };
}
