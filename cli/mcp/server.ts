// The low-level `Server`, not `McpServer`: the tools are the service's tasks, re-read on every tools/list, so
// they are listed and dispatched by hand rather than registered once with zod schemas.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../api-client.js';
import type { ExecutionDetail, ExecutionSummary, TaskDetail } from '../api-types.js';
import { CliFailure } from '../failure.js';
import { startRun } from '../run-start.js';
import { awaitRun } from '../run-wait.js';
import { taskloomVersion } from '../version.js';
import { builtinTools, GET_EXECUTION, LIST_EXECUTIONS } from './builtin-tools.js';
import { taskTools, variablesFrom } from './task-tools.js';

export interface TaskloomMcpOptions {
  /** How often the task list is re-read to tell the client when its tools changed; 0 never. */
  watchMs?: number;
}

type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An MCP server whose tools run the service's tasks and read its executions, over `client`. */
export function createTaskloomMcpServer(client: ApiClient, options: TaskloomMcpOptions = {}): { server: Server; stop(): void } {
  const server = new Server(
    { name: 'taskloom', version: taskloomVersion() },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: 'Each run_* tool runs one stored browser-automation task and answers its result; '
        + 'list_executions and get_execution read past runs.',
    },
  );
  const loadTasks = async () => taskTools(await client.json<TaskDetail[]>('GET', '/api/tasks'));
  let listed: string | undefined;
  let watch: NodeJS.Timeout | undefined;

  function watchTasks(): void {
    if (watch || !options.watchMs) return;
    watch = setInterval(() => {
      loadTasks().then(({ tools }) => {
        const signature = JSON.stringify(tools);
        if (signature === listed) return;
        listed = signature;
        return server.sendToolListChanged();
      }).catch(() => undefined); // the service may be down for a moment; the next tools/list reports it
    }, options.watchMs);
    watch.unref();
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    let tools: Tool[];
    try {
      ({ tools } = await loadTasks());
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `taskloom: ${messageOf(error)}`);
    }
    listed = JSON.stringify(tools);
    watchTasks();
    return { tools: [...tools, ...builtinTools] };
  });

  async function runTask(name: string, args: Record<string, unknown> | undefined, extra: Extra): Promise<CallToolResult> {
    const { tasks } = await loadTasks();
    const task = tasks.get(name);
    if (!task) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name} (the task may have been deleted or renamed; list the tools again)`);
    const { executionId } = await startRun(client, task.id, variablesFrom(task, args));
    const onCancel = () => {
      // The client gave up on the call: stop the run too rather than leave it working for nobody.
      void client.send('POST', `/api/executions/${encodeURIComponent(executionId)}/cancel`).catch(() => undefined);
    };
    extra.signal.addEventListener('abort', onCancel, { once: true });
    if (extra.signal.aborted) onCancel(); // cancelled while the run was being started
    const progressToken = extra._meta?.progressToken;
    let progress = 0;
    try {
      const answer = await awaitRun(client, executionId, (event) => {
        if (progressToken === undefined || event.event !== 'log') return;
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++progress, message: event.data.message } })
          .catch(() => undefined);
      }, extra.signal);
      const { outcome: _outcome, ...shown } = answer; // the answer's shape, as the API's waiting run
      return text(shown, answer.status !== 'success');
    } finally {
      extra.signal.removeEventListener('abort', onCancel);
    }
  }

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    try {
      if (name === LIST_EXECUTIONS) {
        const { taskId, status, limit } = (args ?? {}) as { taskId?: string; status?: string; limit?: number };
        const { executions } = await client.json<{ executions: ExecutionSummary[] }>('GET', '/api/executions/list', {
          query: { taskId, status, limit: limit ?? 20 },
        });
        return text(executions);
      }
      if (name === GET_EXECUTION) {
        const id = (args as { executionId?: unknown } | undefined)?.executionId;
        if (typeof id !== 'string' || id === '') return text('executionId is required (a string)', true);
        const path = `/api/executions/${encodeURIComponent(id)}`;
        const record = await client.json<ExecutionDetail>('GET', path);
        // A large result is stored apart from the record (README "Large results"): the tool answers it whole.
        if (record.resultStoredApart) record.result = await client.json<ExecutionDetail['result']>('GET', `${path}/result`);
        return text(record);
      }
      return await runTask(name, args, extra);
    } catch (error) {
      if (error instanceof CliFailure) return text(`taskloom: ${error.message}`, true);
      throw error;
    }
  });

  return {
    server,
    stop: () => clearInterval(watch),
  };
}
