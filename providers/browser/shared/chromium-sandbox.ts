import type { Logger } from '../../../kernel/contracts/logger.js';

/**
 * Chromium's sandbox (each renderer in its own user namespace under a seccomp filter) needs unprivileged
 * user namespaces or a setuid helper, and refuses to start as root. A Chromium that cannot have it exits at
 * start-up saying so; it is then started with --no-sandbox, with one warning per executable saying what is
 * lost, and later launches of that executable skip the attempt.
 */
const unusable = new Map<string, string>();

/** The switch to add: none when the sandbox is to be tried. */
export function sandboxArgs(executablePath: string, runsAsRoot: boolean): string[] {
  return runsAsRoot || unusable.has(executablePath) ? ['--no-sandbox'] : [];
}

/** The start-up failure of a Chromium whose sandbox could not be set up, else undefined. */
export function sandboxFailure(stderr: readonly string[]): string | undefined {
  return stderr.find((line) => /no usable sandbox|sandbox helper|move to new namespace|zygote.*(namespace|sandbox)|setuid sandbox/i.test(line));
}

export function markSandboxUnusable(executablePath: string, reason: string, logger: Logger | undefined): void {
  if (unusable.has(executablePath)) return;
  unusable.set(executablePath, reason);
  logger?.warn({ executablePath, reason: reason.replace(/^\[[^\]]*\]\s*/, '') },
    'Chromium\'s sandbox cannot work here (no unprivileged user namespaces, e.g. a container\'s seccomp profile): it runs ' +
    'with --no-sandbox, so a compromised page runs with all the rights of the browser\'s user');
}

/** Whether an earlier launch of this executable found no sandbox (tests). */
export const sandboxKnownUnusable = (executablePath: string) => unusable.has(executablePath);
