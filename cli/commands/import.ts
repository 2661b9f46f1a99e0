import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createApiClient } from '../api-client.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { ApiError, CliFailure, UsageError } from '../failure.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, parseOptions } from '../options.js';

const POLICIES = ['fail', 'skip', 'replace'];

interface ImportAnswer {
  created: string[];
  replaced: string[];
  skipped: string[];
  notScheduled: Array<{ taskId: string; error: string; details?: string }>;
  converted?: Array<{ taskId: string; name: string; notes: string[] }>;
}

/** The file as JSON; a file that cannot be read or is no JSON is a usage error, named with the file. */
async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path.resolve(file)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export const command: CliCommand = {
  path: ['import'],
  summary: "Import tasks: a bundle from GET /api/tasks/export, or the replaced product's task export",
  help: `Usage: taskloom import <file> [--on-conflict fail|skip|replace] [--json]

Sends <file> to POST /api/tasks/import. It is either a taskloom bundle (GET /api/tasks/export) or the task export
of the product taskloom replaces (a JSON array of its tasks), which is converted: each action is mapped, and
when any task holds something taskloom cannot run as written nothing is imported and every such thing is listed
per task (README "Moving tasks from the product we replace").

Options:
  --on-conflict <p>  a task whose id exists already: fail (default: nothing is imported), skip it, or replace it
  --json             print the service's answer as JSON

${CONNECTION_HELP}

Example:
  taskloom import exported-tasks.json --on-conflict skip`,

  async run(args, io) {
    const { values, positionals } = parseOptions(args, { ...connectionOptions, 'on-conflict': { type: 'string' }, json: { type: 'boolean' } }, true);
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'which file? (taskloom import <file>)' : 'give one file');
    const policy = values['on-conflict'];
    if (policy !== undefined && !POLICIES.includes(policy)) throw new UsageError(`--on-conflict: expected one of ${POLICIES.join(', ')}, got "${policy}"`);
    const body = await readJson(positionals[0]!);
    const client = createApiClient(connectionFrom(values, io.env));
    let answer: ImportAnswer;
    try {
      answer = await client.json<ImportAnswer>('POST', '/api/tasks/import', { body, query: { onConflict: policy } });
    } catch (error) {
      // One line per task that could not be mapped.
      if (error instanceof ApiError && error.code === 'IMPORT_UNMAPPED' && error.details) {
        throw new CliFailure(`IMPORT_UNMAPPED: ${error.details.split(' | ').join('\n  ')}`, error.exitCode);
      }
      throw error;
    }
    if (values.json) {
      io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return ExitCode.ok;
    }
    const lines = [`created ${answer.created.length}, replaced ${answer.replaced.length}, skipped ${answer.skipped.length}`];
    for (const task of answer.converted ?? []) {
      lines.push(`${task.taskId}  ${task.name}${task.notes.length ? `\n    ${task.notes.join('\n    ')}` : ''}`);
    }
    for (const refused of answer.notScheduled) lines.push(`not scheduled: ${refused.taskId} (${refused.error}${refused.details ? `: ${refused.details}` : ''})`);
    io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  },
};
