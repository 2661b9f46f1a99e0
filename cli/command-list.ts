import type { CliCommand } from './command.js';
import { command as executionsList } from './commands/executions-list.js';
import { command as exportExecutions } from './commands/export.js';
import { command as importTasks } from './commands/import.js';
import { keysCreate, keysList, keysRevoke } from './commands/keys.js';
import { command as mcp } from './commands/mcp.js';
import { command as migrate } from './commands/migrate.js';
import { command as run } from './commands/run.js';
import { command as secretsRotate } from './commands/secrets-rotate.js';
import { command as serve } from './commands/serve.js';
import { command as tasksList } from './commands/tasks-list.js';

/** Every sub-command, in the order `taskloom --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [serve, tasksList, run, executionsList, exportExecutions, importTasks, keysList, keysCreate, keysRevoke, migrate, secretsRotate, mcp];
