import { isEntryPoint } from '../app/entry-point.js';
import type { CliCommand, CliIo } from './command.js';
import { COMMANDS } from './command-list.js';
import { ExitCode } from './exit-codes.js';
import { CliFailure, UsageError } from './failure.js';
import { DEFAULT_URL } from './options.js';
import { taskloomVersion } from './version.js';

const HELP_FLAGS = ['--help', '-h'];

const nameOf = (command: CliCommand) => command.path.join(' ');

function listOf(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => nameOf(c).length)) + 2;
  return commands.map((c) => `  ${nameOf(c).padEnd(width)}${c.summary}`).join('\n');
}

function topHelp(commands: readonly CliCommand[]): string {
  return `Usage: taskloom [<command>] [options]

Without a command, taskloom starts the service (as \`taskloom serve\`).

Commands:
${listOf(commands)}

\`taskloom <command> --help\` shows a command's options.

Environment:
  TASKLOOM_URL       the service client commands talk to (default ${DEFAULT_URL})
  TASKLOOM_API_KEY   the system API key they send (POST /api/settings/api-key makes one)

Exit codes:
  0  ok
  1  failed: a run ended other than success, a migration stopped, an unexpected error
  2  usage: bad arguments or options (also when the service refuses them with 400)
  3  unreachable: the service could not be reached, or refused the credentials (401, 403)
  4  not found: the named task or execution does not exist
`;
}

/** Options given before a `--` terminator ask for help. */
const asksHelp = (args: readonly string[]) => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => HELP_FLAGS.includes(arg));
};

/** The command whose words start `argv` (the longest such path). */
function commandOf(argv: readonly string[], commands: readonly CliCommand[]): CliCommand | undefined {
  return commands
    .filter((c) => c.path.every((word, i) => argv[i] === word))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** Runs `taskloom <argv>`; resolves to the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  const args = argv.length === 0 ? ['serve'] : [...argv];
  const first = args[0]!;
  if (HELP_FLAGS.includes(first) || first === 'help') {
    io.stdout.write(topHelp(commands));
    return ExitCode.ok;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${taskloomVersion()}\n`);
    return ExitCode.ok;
  }
  const command = commandOf(args, commands);
  if (!command) {
    const group = commands.filter((c) => c.path.length > 1 && c.path[0] === first);
    if (group.length > 0) {
      const wanted = asksHelp(args.slice(1));
      (wanted ? io.stdout : io.stderr).write(`${wanted ? '' : `taskloom ${first}: ${args[1] === undefined ? 'which one?' : `unknown command "${args[1]}"`}\n`}Commands:\n${listOf(group)}\n`);
      return wanted ? ExitCode.ok : ExitCode.usage;
    }
    io.stderr.write(`taskloom: unknown ${first.startsWith('-') ? 'option' : 'command'} "${first}"\n\n${topHelp(commands)}`);
    return ExitCode.usage;
  }
  const rest = args.slice(command.path.length);
  if (asksHelp(rest)) {
    io.stdout.write(`${command.help.trimEnd()}\n`);
    return ExitCode.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`taskloom ${nameOf(command)}: ${error.message}\nSee \`taskloom ${nameOf(command)} --help\`.\n`);
      return ExitCode.usage;
    }
    if (error instanceof CliFailure) {
      io.stderr.write(`taskloom ${nameOf(command)}: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`taskloom ${nameOf(command)}: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.failed;
  }
}

/** The process around `runCli`: real streams and environment; sets the exit code and lets the loop drain. */
export async function cliMain(argv: readonly string[]): Promise<void> {
  // `taskloom ... | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  process.exitCode = await runCli(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env });
}


if (isEntryPoint(import.meta.url)) await cliMain(process.argv.slice(2));
