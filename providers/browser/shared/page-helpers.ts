/** What both engines share when wrapping a page: the viewport default, scripts, timeout messages. */

/** The viewport a context gets when the caller names none (Playwright's default, for both engines). */
export const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const;

/**
 * The source evaluated inside the page: `body` becomes an async function there, called with `args`.
 * Compiling it in the page (not `new Function` here) keeps user JavaScript out of the service's process,
 * and sending source (not a Node function) keeps transpiler helpers out of the page.
 */
export function pageScript(body: string, args: Record<string, unknown>): string {
  return `(async function (args) {\n${body}\n}).call(undefined, ${JSON.stringify(args ?? {})})`;
}

/** An error naming what was awaited, the same for both engines. */
export function timeoutError(what: string, timeoutMs: number, cause: unknown): Error {
  const error = new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`, { cause });
  error.name = 'TimeoutError';
  return error;
}

/** Runs `action`, turning the engine's timeout error into `timeoutError(what)`. */
export async function timed<T>(what: string, timeoutMs: number, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw timeoutError(what, timeoutMs, error);
    throw error;
  }
}

/** Session cookies are -1; anything not a positive number of seconds is taken as one. */
export function normaliseExpires(expires: number | undefined): number {
  return typeof expires === 'number' && expires > 0 ? expires : -1;
}
