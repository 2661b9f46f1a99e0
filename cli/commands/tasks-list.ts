import { createApiClient } from '../api-client.js';
import type { TaskEntry } from '../api-types.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, parseOptions } from '../options.js';
import { formatTable } from '../table.js';

export const command: CliCommand = {
  path: ['tasks', 'list'],
  summary: 'List the stored tasks',
  help: `Usage: taskloom tasks list [--json]

Lists the stored tasks, newest first: id, name, mode, URL.

Options:
  --json             print the list as JSON (the entries of GET /api/tasks/list)

${CONNECTION_HELP}`,

  async run(args, io) {
    const { values } = parseOptions(args, { ...connectionOptions, json: { type: 'boolean' } });
    const client = createApiClient(connectionFrom(values, io.env));
    const { tasks } = await client.json<{ tasks: TaskEntry[] }>('GET', '/api/tasks/list');
    if (values.json) io.stdout.write(`${JSON.stringify(tasks, null, 2)}\n`);
    else if (tasks.length === 0) io.stderr.write('no tasks yet\n');
    else io.stdout.write(formatTable(['id', 'name', 'mode', 'url'], tasks.map((t) => [t.id, t.name, t.mode, t.url])));
    return ExitCode.ok;
  },
};
