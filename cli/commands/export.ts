import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createApiClient } from '../api-client.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../failure.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, parseOptions } from '../options.js';

const FORMATS = ['avro', 'ndjson', 'csv'];

export const command: CliCommand = {
  path: ['export'],
  summary: 'Export executions as Avro, NDJSON or CSV (streamed to a file or stdout)',
  help: `Usage: taskloom export [--format avro|ndjson|csv] [--task <id>] [--status <status>] [--from <iso>] [--to <iso>] [--out <file>]

Streams GET /api/executions/export to --out, or to stdout.

Options:
  --format <f>       avro, ndjson or csv (the service's default when not given)
  --task <id>        only this task's executions
  --status <status>  only executions with this status
  --from <iso>       started at or after this time (ISO 8601 date-time, e.g. 2025-01-31T00:00:00Z)
  --to <iso>         started at or before this time
  --out <file>       write here (replaced; removed again if the export fails) instead of stdout

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
    const client = createApiClient(connectionFrom(values, io.env));
    const response = await client.send('GET', '/api/executions/export', {
      accept: '*/*',
      query: { format: values.format, taskId: values.task, status: values.status, from: values.from, to: values.to },
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
      await rm(values.out, { force: true });
      throw error;
    }
    io.stderr.write(`wrote ${values.out}\n`);
    return ExitCode.ok;
  },
};
