import { Errors, TaskloomError } from '../../../kernel/errors.js';
import { ClosingGate } from '../shared/closing-gate.js';
import { scrub } from './mongo-url.js';

/** Driver errors that mean "cannot reach or log in to the server", not "bad operation". */
const CONNECTION_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoServerClosedError',
  'MongoClientClosedError',
]);
/** AuthenticationFailed, Unauthorized. */
const ACCESS_CODES = new Set([18, 13]);

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return CONNECTION_ERRORS.has(error.name) || ACCESS_CODES.has((error as { code?: unknown }).code as number);
}

/**
 * Calls after close() reject; close() waits for the calls already started. Connection failures
 * become STORAGE_UNAVAILABLE with a reason naming the server but never the password; every other
 * error (a throwing `change`, a bad argument) passes unchanged.
 */
export class Gate {
  private readonly calls: ClosingGate;

  constructor(
    readonly target: string,
    private readonly secrets: string[],
  ) {
    this.calls = new ClosingGate(`the mongodb store at ${target}`, (error) => this.translate(error));
  }

  run<R>(work: () => Promise<R>): Promise<R> {
    return this.calls.run(work);
  }

  close(end: () => Promise<void>): Promise<void> {
    return this.calls.close(end);
  }

  scrub(text: string): string {
    return scrub(text, this.secrets);
  }

  translate(error: unknown): unknown {
    if (error instanceof TaskloomError || !isConnectionError(error)) return error;
    const detail = this.scrub((error as Error).message || (error as Error).name);
    const reason = `no connection to MongoDB at ${this.target} (${detail}): check MONGODB_URL and that the server is running`;
    const cause = new Error(detail);
    return Errors.STORAGE_UNAVAILABLE({ reason }, { cause, retryable: true });
  }
}
