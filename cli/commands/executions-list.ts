import { createApiClient } from '../api-client.js';
import type { ExecutionSummary } from '../api-types.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CliFailure } from '../failure.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, integerOption, parseOptions } from '../options.js';
import { formatDuration, formatTable } from '../table.js';
import { taskIdFor } from '../task-lookup.js';

export const command: CliCommand = {
  path: ['executions', 'list'],
  summary: 'List executions (runs), newest first',
  help: `Usage: taskloom executions list [--task <task>] [--status <status>] [--outcome <outcome>] [--changed | --unchanged] [--limit <n>] [--json]

Lists executions, newest first: id, task, status, trigger, start, duration, outcome, changed
(yes: the data or a compared screenshot differs from the previous successful run's; no: compared, unchanged).

Options:
  --task <task>      only this task's (its id or exact name; the id of a deleted task works too)
  --status <status>  only these: queued, running, success, error, timeout, cancelled, interrupted
  --outcome <outcome>
                     only runs that ended this way: success, error, timeout, cancelled, interrupted,
                     stopped, crashed, anti_bot (older runs count by their status)
  --changed          only runs that found a change (task option compare)
  --unchanged        only runs compared and found unchanged
  --limit <n>        at most n (1 to 1000, default 50)
  --json             print the list as JSON (the entries of GET /api/executions/list)

${CONNECTION_HELP}`,

  async run(args, io) {
    const { values } = parseOptions(args, {
      ...connectionOptions, task: { type: 'string' }, status: { type: 'string' }, outcome: { type: 'string' }, changed: { type: 'boolean' }, unchanged: { type: 'boolean' }, limit: { type: 'string' }, json: { type: 'boolean' },
    });
    if (values.changed && values.unchanged) throw new CliFailure('--changed and --unchanged exclude each other', ExitCode.usage);
    const changed = values.changed ? 'true' : values.unchanged ? 'false' : undefined;
    const limit = integerOption('limit', values.limit, 1, 1000);
    const client = createApiClient(connectionFrom(values, io.env));
    const task = values.task === undefined ? undefined : await taskIdFor(client, values.task);
    const { executions } = await client.json<{ executions: ExecutionSummary[] }>('GET', '/api/executions/list', {
      query: { taskId: task?.taskId, status: values.status, outcome: values.outcome, changed, limit },
    });
    if (task && !task.known && executions.length === 0) {
      throw new CliFailure(`no task has the id or name "${values.task}" (see \`taskloom tasks list\`), and no matching executions carry it as their task id`, ExitCode.notFound);
    }
    if (values.json) io.stdout.write(`${JSON.stringify(executions, null, 2)}\n`);
    else if (executions.length === 0) io.stderr.write('no executions\n');
    else {
      io.stdout.write(formatTable(
        ['id', 'task', 'status', 'trigger', 'started', 'duration', 'outcome', 'changed'],
        executions.map((e) => [e.executionId, e.taskName || e.taskId, e.status, e.trigger, e.startedAt, formatDuration(e.durationMs), e.outcome ?? '', e.changed === undefined ? '' : e.changed ? 'yes' : 'no']),
      ));
    }
    return ExitCode.ok;
  },
};
