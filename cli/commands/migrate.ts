import type { TargetPolicy } from '../migrate/storage-migration.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../failure.js';
import { integerOption, parseOptions } from '../options.js';

const HELP = `Usage: taskloom migrate --to postgres|mongodb [options]

Copies the embedded JSON store (DATA_DIR) into PostgreSQL or MongoDB: users, sessions, settings (API key,
AI keys, proxies, the session secret, ...), tasks with their schedules and versions, credentials and every
execution. Stop the service first. Captures stay files under DATA_DIR/captures: start the service on the
database with the same DATA_DIR.

Re-running after an interruption resumes (records are written by id, so nothing is duplicated); re-running
after a finished migration copies nothing (the service may have changed the records since). A target
holding other data is refused unless --merge or --force is given. Every record and the counts are verified
at the end. Progress goes to stderr, the summary to stdout.

Options:
  --to <postgres|mongodb>  the database to copy into (required)
  --data-dir <dir>         the JSON data directory (default: $DATA_DIR, else ./data)
  --database-url <url>     PostgreSQL connection string (default: $DATABASE_URL)
  --mongodb-url <url>      MongoDB connection string (default: $MONGODB_URL)
  --merge                  copy into a target that holds other data (same id: replaced; others: kept)
  --force                  empty the target first (every user, task, execution, setting ... in it)
  --page-size <n>          executions copied per page, 1 to 5000 (default 500)

Exit codes: 0 migrated and verified, 1 the migration stopped (target not empty, unreachable, verification
failed, interrupted), 2 bad options.`;

export const command: CliCommand = {
  path: ['migrate'],
  summary: 'Copy the embedded JSON store into PostgreSQL or MongoDB',
  help: HELP,

  async run(args, io) {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout.write(`${HELP}\n`);
      return ExitCode.ok;
    }
    const { values } = parseOptions(args, {
      to: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'mongodb-url': { type: 'string' },
      merge: { type: 'boolean' },
      force: { type: 'boolean' },
      'page-size': { type: 'string' },
    });
    if (values.to !== 'postgres' && values.to !== 'mongodb') {
      throw new UsageError(values.to === undefined ? '--to is required (postgres or mongodb)' : `--to: expected postgres or mongodb, got "${values.to}"`);
    }
    if (values.merge && values.force) throw new UsageError('--merge and --force exclude each other');
    const target: TargetPolicy = values.force ? 'replace' : values.merge ? 'merge' : 'refuse';
    const pageSize = integerOption('page-size', values['page-size'], 1, 5000);
    // Loaded here: the kernel's storage machinery is only needed by this command.
    const { runMigration } = await import('../migrate/run-migration.js');
    return runMigration(io, values.to, values, target, pageSize);
  },
};
