import type { CliCommand } from '../command.js';
import { parseOptions } from '../options.js';

const HELP = `Usage: taskloom secrets rotate [--data-dir <dir>]

Seals every stored secret (AI keys, proxy passwords, credential tokens, the session secret, the VNC password,
the cookie jar) again with a new key, and seals any an older version left in plain text. Stop every instance
first; it reads the service's own configuration (STORAGE, DATABASE_URL, MONGODB_URL, DATA_DIR, SECRETS_KEY).

Without SECRETS_KEY: a new key is made in DATA_DIR/secrets.key.new, every secret is sealed with it and
checked, then it replaces DATA_DIR/secrets.key. If it stops half way, nothing is lost (the service opens
secrets with every key file present) and running it again resumes with the same new key.

With SECRETS_KEY: set SECRETS_KEY to the new key and SECRETS_KEY_PREVIOUS to the old one, run this, then
remove SECRETS_KEY_PREVIOUS. A key is 32 random bytes as 64 hex characters or base64 (openssl rand -base64 32).

Options:
  --data-dir <dir>   the data directory (default: $DATA_DIR, else ./data)

Exit codes: 0 every secret sealed with the new key, 1 stopped (an instance is running, a key is missing),
2 bad options or configuration.`;

export const command: CliCommand = {
  path: ['secrets', 'rotate'],
  summary: 'Seal every stored secret again with a new key',
  help: HELP,

  async run(args, io) {
    const { values } = parseOptions(args, { 'data-dir': { type: 'string' } });
    // Loaded here: the storage machinery is only needed by this command.
    const { runRotation } = await import('../secrets/run-rotation.js');
    return runRotation(io, values['data-dir']);
  },
};
