import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createApiClient } from '../api-client.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CliFailure, UsageError } from '../failure.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, parseOptions } from '../options.js';
import { taskIdFor } from '../task-lookup.js';

const FORMATS = ['avro', 'ndjson', 'csv'];

/** Before anything is downloaded: the folder of --out must be there (fs would only say ENOENT). */
async function checkOutFolder(out: string): Promise<void> {
  const folder = path.dirname(path.resolve(out));
  const info = await stat(folder).catch(() => undefined);
  if (!info) throw new UsageError(`--out: the folder ${folder} does not exist; create it first`);
  if (!info.isDirectory()) throw new UsageError(`--out: ${folder} is not a folder`);
}

/** A failure to write the file, named with it; anything else as it is. */
function writeFailure(error: unknown, out: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const fsError = error instanceof Error && typeof code === 'string' && 'syscall' in error;
  return fsError ? new CliFailure(`cannot write ${path.resolve(out)} (${code})`, ExitCode.failed) : error;
}

export const command: CliCommand = {
  path: ['export'],
  summary: 'Export executions as Avro, NDJSON or CSV (streamed to a file or stdout)',
  help: `Usage: taskloom export [--format avro|ndjson|csv] [--task <task>] [--status <status>] [--from <iso>] [--to <iso>] [--out <file>]

Streams GET /api/executions/export to --out, or to stdout.

Options:
  --format <f>       avro, ndjson or csv (the service's default when not given)
  --task <task>      only this task's executions (its id or exact name; the id of a deleted task works too)
  --status <status>  only executions with this status
  --from <iso>       started at or after this time (ISO 8601 date-time, e.g. 2025-01-31T00:00:00Z)
  --to <iso>         started at or before this time
  --out <file>       write here (replaced; removed again if the export fails) instead of stdout; its folder
                     must exist

${CONNECTION_HELP}

Example:
  taskloom export --format csv --status error --from 2025-01-01T00:00:00Z --out errors.csv`,

  async run(args, io) {
    const { values } = parseOptions(args, {
      ...connectionOptions,
      format: { type: 'string' }, task: { type: 'string' }, status: { type: 'string' },
      from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' },
    });
    if (values.format !== undefined && !FORMATS.includes(values.format)) throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got "${values.format}"`);
    const stdout = io.stdout as NodeJS.WritableStream & { isTTY?: boolean };
    if (values.format === 'avro' && !values.out && stdout.isTTY) throw new UsageError('avro is binary: use --out <file> or redirect stdout');
    if (values.out !== undefined) await checkOutFolder(values.out);
    const client = createApiClient(connectionFrom(values, io.env));
    const taskId = values.task === undefined ? undefined : (await taskIdFor(client, values.task)).taskId;
    const response = await client.send('GET', '/api/executions/export', {
      accept: '*/*',
      query: { format: values.format, taskId, status: values.status, from: values.from, to: values.to },
    });
    if (!response.body) return ExitCode.ok;
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    if (!values.out) {
      await pipeline(body, io.stdout, { end: false });
      return ExitCode.ok;
    }
    try {
      await pipeline(body, createWriteStream(values.out));
    } catch (error) {
      await rm(values.out, { force: true }).catch(() => undefined); // a folder given as --out stays
      throw writeFailure(error, values.out);
    }
    io.stderr.write(`wrote ${values.out}\n`);
    return ExitCode.ok;
  },
};
