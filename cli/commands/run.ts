import { runErrorText } from '../../layers/action-label/action-label.js';
import { createApiClient } from '../api-client.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../failure.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, parseOptions } from '../options.js';
import { createRunProgress } from '../run-progress.js';
import { startRun } from '../run-start.js';
import { awaitRun } from '../run-wait.js';
import { findTask } from '../task-lookup.js';

function variablesOf(pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs?.length) return undefined;
  const variables: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--var: expected name=value, got "${pair}"`);
    variables[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return variables;
}

export const command: CliCommand = {
  path: ['run'],
  summary: 'Run a task (by id or exact name); --wait follows it and prints the result',
  help: `Usage: taskloom run <task> [--var name=value ...] [--wait] [--json]

Starts a run of <task> (a task id, or a task's exact name). Without --wait it prints the execution id as soon
as the run is queued and exits 0; the run goes on in the service.

Options:
  --var name=value   override a task variable for this run (repeatable)
  --wait             follow the run: its log lines on stderr as they happen, then the result as JSON on
                     stdout (and on stderr its outcome when it differs from its status: stopped, crashed,
                     anti_bot); exit 0 when the run ended with status success, 1 otherwise
  --json             without --wait: print { executionId, taskId } as JSON instead of the bare id

${CONNECTION_HELP}

Examples:
  taskloom run "Example title" --wait
  taskloom run task_abc --var query=lamps --var page=2 --wait > result.json`,

  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      ...connectionOptions, var: { type: 'string', multiple: true }, wait: { type: 'boolean' }, json: { type: 'boolean' },
    }, true);
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name the task to run' : `one task at a time (got ${positionals.join(', ')})`);
    const variables = variablesOf(values.var);
    const client = createApiClient(connectionFrom(values, io.env));
    const task = await findTask(client, positionals[0]!);
    const { executionId } = await startRun(client, task.id, variables);

    if (!values.wait) {
      io.stdout.write(values.json ? `${JSON.stringify({ executionId, taskId: task.id })}\n` : `${executionId}\n`);
      return ExitCode.ok;
    }

    const progress = createRunProgress(io.stderr, task.name);
    const onInterrupt = () => {
      progress.end();
      io.stderr.write(`stopped waiting; execution ${executionId} goes on in the service (POST /api/executions/${executionId}/cancel stops it)\n`);
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    try {
      const answer = await awaitRun(client, executionId, (e) => {
        if (e.event === 'log') progress.log(e.data);
        else if (e.event === 'status') progress.status(e.data.status);
      });
      progress.end();
      const { outcome, ...printed } = answer;
      io.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
      // The outcome says more than the status when they differ (stopped, crashed, anti_bot).
      const how = outcome && outcome !== answer.status ? ` (outcome ${outcome})` : '';
      if (answer.status === 'success') {
        if (how) io.stderr.write(`run ended with status success${how}\n`);
        return ExitCode.ok;
      }
      const error = answer.result.error as { message?: string; actionIndex?: number } | undefined;
      const text = error?.message ? runErrorText({ message: error.message, actionIndex: error.actionIndex }) : '';
      io.stderr.write(`run ended with status ${answer.status}${how}${text ? `: ${text}` : ''}\n`);
      return ExitCode.failed;
    } finally {
      progress.end();
      process.off('SIGINT', onInterrupt);
    }
  },
};
