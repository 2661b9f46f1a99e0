import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { parseOptions } from '../options.js';

export const command: CliCommand = {
  path: ['serve'],
  summary: 'Start the service (what `taskloom` alone does)',
  help: `Usage: taskloom serve [--port <n>] [--host <address>] [--data-dir <dir>] [--role api|worker|all]

Starts the service in this process, configured from the environment (PORT, HOST, DATA_DIR, STORAGE, ... as
in the README's Configuration table); it runs until SIGINT or SIGTERM, then shuts down gracefully.

Options:
  --port <n>         listen on this port (overrides PORT; default 11345)
  --host <address>   listen on this address (overrides HOST; default 127.0.0.1)
  --data-dir <dir>   keep state here (overrides DATA_DIR; default ./data)
  --role <role>      api: serve HTTP and start no browser; worker: also run queued runs; all (default) both
                     (overrides ROLE; api needs a shared queue, QUEUE=pg-boss or bullmq)`,

  async run(args, io) {
    const { values } = parseOptions(args, { port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, role: { type: 'string' } });
    const env = { ...io.env };
    if (values.port !== undefined) env.PORT = values.port;
    if (values.host !== undefined) env.HOST = values.host;
    if (values['data-dir'] !== undefined) env.DATA_DIR = values['data-dir'];
    if (values.role !== undefined) env.ROLE = values.role;
    // Loaded here, not at the top: the other commands should not pay for loading the service.
    const { serve, reportStartFailure } = await import('../../app/main.js');
    await serve(env).catch(reportStartFailure);
    return ExitCode.ok; // listening: the process lives on until a signal stops it
  },
};
