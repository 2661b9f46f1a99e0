import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/** A command that cannot go on: `message` is printed on stderr and the process exits with `exitCode`. */
export class CliFailure extends Error {
  constructor(message: string, readonly exitCode: ExitCodeValue) {
    super(message);
    this.name = 'CliFailure';
  }
}

/** Bad arguments or options (exit 2); the dispatcher adds a pointer to the command's --help. */
export class UsageError extends CliFailure {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = 'UsageError';
  }
}

/** A non-2xx answer of the service, with its `{ error, details }` body when it sent one. */
export class ApiError extends CliFailure {
  constructor(readonly status: number, readonly code: string | undefined, readonly details: string | undefined) {
    super(`${code ?? `HTTP ${status}`}${details ? `: ${details}` : ''}`, exitCodeOfStatus(status));
    this.name = 'ApiError';
  }
}

/** No HTTP answer at all: refused, unknown host, timed out. */
export class UnreachableError extends CliFailure {
  constructor(url: string, reason: string) {
    super(`cannot reach ${url} (${reason}); is the service running? Start it with \`taskloom serve\`, or pass --url`, ExitCode.unreachable);
    this.name = 'UnreachableError';
  }
}

/** Refused credentials read as "unreachable" for scripts; a refused argument as usage; a missing thing as 4. */
function exitCodeOfStatus(status: number): ExitCodeValue {
  if (status === 401 || status === 403) return ExitCode.unreachable;
  if (status === 404) return ExitCode.notFound;
  if (status === 400 || status === 413 || status === 422) return ExitCode.usage;
  return ExitCode.failed;
}
