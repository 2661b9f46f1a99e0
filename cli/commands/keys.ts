import { createApiClient } from '../api-client.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../failure.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, parseOptions } from '../options.js';
import { formatTable } from '../table.js';
import type { ApiKey } from '../../kernel/contracts/records.js';

const SCOPES = ['read', 'run', 'write', 'admin'];

/** `taskloom keys list`: the named API keys, never a key itself. */
export const keysList: CliCommand = {
  path: ['keys', 'list'],
  summary: 'List the named API keys (admin)',
  help: `Usage: taskloom keys list [--json]

Lists the named API keys, newest first: id, name, scopes, tasks, expiry, last use, and whether revoked. The keys
themselves are never shown again after they were created (only their last 4 characters, masked).

Options:
  --json             print the list as JSON (the answer of GET /api/keys)

${CONNECTION_HELP}`,

  async run(args, io) {
    const { values } = parseOptions(args, { ...connectionOptions, json: { type: 'boolean' } });
    const keys = await createApiClient(connectionFrom(values, io.env)).json<ApiKey[]>('GET', '/api/keys');
    if (values.json) io.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
    else if (keys.length === 0) io.stderr.write('no named API keys yet\n');
    else {
      io.stdout.write(formatTable(['id', 'name', 'scopes', 'tasks', 'expires', 'last used', 'state'], keys.map((k) => [
        k.id, k.name, k.scopes.join(','), k.taskIds ? k.taskIds.join(',') : 'all', k.expiresAt ?? 'never', k.lastUsedAt ?? 'never',
        k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active',
      ])));
    }
    return ExitCode.ok;
  },
};

/** `taskloom keys create`: a named key, printed this once. */
export const keysCreate: CliCommand = {
  path: ['keys', 'create'],
  summary: 'Create a named API key with scopes (admin); the key is printed once',
  help: `Usage: taskloom keys create --name <name> --scope <scope> [--scope <scope> ...] [--task <id> ...]
                      [--expires <ISO date>] [--json]

Creates a named API key and prints it on stdout, this once: the service keeps only its hash. Scopes: read, run,
write, admin. With --task the key reads and runs only those tasks (and their executions).

Options:
  --name <name>      what the key is for (1 to 100 characters)
  --scope <scope>    a scope it holds; repeat for more
  --task <id>        limit it to this task; repeat for more
  --expires <date>   when it stops working (ISO 8601, in the future); default never
  --json             print the whole answer (the key and its record) as JSON

${CONNECTION_HELP}`,

  async run(args, io) {
    const { values } = parseOptions(args, {
      ...connectionOptions,
      name: { type: 'string' }, scope: { type: 'string', multiple: true }, task: { type: 'string', multiple: true },
      expires: { type: 'string' }, json: { type: 'boolean' },
    });
    if (!values.name) throw new UsageError('--name is required');
    const scopes = values.scope ?? [];
    if (scopes.length === 0) throw new UsageError(`--scope is required (one or more of ${SCOPES.join(', ')})`);
    const unknown = scopes.find((s) => !SCOPES.includes(s));
    if (unknown) throw new UsageError(`--scope: "${unknown}" is not a scope (expected ${SCOPES.join(', ')})`);
    const body = {
      name: values.name, scopes: [...new Set(scopes)],
      ...(values.task?.length ? { taskIds: [...new Set(values.task)] } : {}),
      ...(values.expires ? { expiresAt: values.expires } : {}),
    };
    const created = await createApiClient(connectionFrom(values, io.env)).json<{ key: string; apiKey: ApiKey }>('POST', '/api/keys', { body });
    if (values.json) io.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
    else {
      io.stdout.write(`${created.key}\n`);
      io.stderr.write(`created ${created.apiKey.id} (${created.apiKey.name}): copy the key now, it is not shown again\n`);
    }
    return ExitCode.ok;
  },
};

/** `taskloom keys revoke <id>`: refused at once on every instance. */
export const keysRevoke: CliCommand = {
  path: ['keys', 'revoke'],
  summary: 'Revoke a named API key (admin)',
  help: `Usage: taskloom keys revoke <id>

Revokes the named API key: it is refused at once, on every instance sharing the storage. Exit code 4 when no key
has that id.

${CONNECTION_HELP}`,

  async run(args, io) {
    const { values, positionals } = parseOptions(args, connectionOptions, true);
    if (positionals.length !== 1) throw new UsageError('expected one key id (see taskloom keys list)');
    const revoked = await createApiClient(connectionFrom(values, io.env)).json<ApiKey>('DELETE', `/api/keys/${encodeURIComponent(positionals[0]!)}`);
    io.stderr.write(`revoked ${revoked.id} (${revoked.name})\n`);
    return ExitCode.ok;
  },
};
