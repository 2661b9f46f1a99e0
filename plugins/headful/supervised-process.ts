import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../../kernel/contracts/logger.js';

export interface ProcessSpec {
  /** For logs, e.g. `x11vnc`. */
  name: string;
  command: string;
  /** Called for each start: a restart may need other arguments (Xvfb keeps the display it got first). */
  args(): string[];
  /** Extra pipes beyond stdin/stdout/stderr (Xvfb's -displayfd 3). */
  extraPipes?: number;
  /** Resolves once the process serves; rejecting (or the process exiting first) counts as a failed start. */
  ready(child: ChildProcess): Promise<void>;
  /** Said in the log when the program is missing, e.g. `apt-get install x11vnc`. */
  installHint: string;
}

const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A process that ran this long was healthy: its next failure starts the backoff over. */
const STABLE_MS = 30_000;
const TERM_GRACE_MS = 3000;
/** The shell's exit code for a command it cannot find. */
const NOT_FOUND = 127;

/**
 * Runs the program (`$@`) under a shell that also watches its stdin, a pipe from this service: when the
 * service ends, even by SIGKILL (which runs no exit handler), the pipe closes and the program is ended,
 * so no helper outlives the service. (Chromium gets the same guarantee from its DevTools pipe.)
 */
const WATCHDOG = [
  'exec 9<&0',
  '"$@" 9<&- & pid=$!',
  'trap \'kill -TERM "$pid" 2>/dev/null\' TERM INT',
  // Holding none of the program's pipes, so they close when the program ends.
  '{ cat <&9; kill -TERM "$pid"; } >/dev/null 2>&1 3>&- & watch=$!',
  // A signal ends `wait` early: wait on until the program has really finished.
  'wait "$pid"; status=$?',
  'while kill -0 "$pid" 2>/dev/null; do wait "$pid"; status=$?; done',
  'kill "$watch" 2>/dev/null',
  'exit "$status"',
].join('\n');

// A service that exits without stopping its helpers (process.exit, an uncaught error) still ends them.
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
});

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined || pid <= 0) return; // -0 would be our own group
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Keeps one helper program running: started in its own process group (so a signal reaches whatever it
 * forks), restarted with a growing backoff when it dies, stopped with SIGTERM then SIGKILL.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private serving = false;
  private stopped = false;
  private gaveUp = false;
  private backoffMs = MIN_BACKOFF_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private firstReady: Promise<void>;
  private markReady!: () => void;
  private markFailed!: (error: Error) => void;

  constructor(private readonly spec: ProcessSpec, private readonly logger: Logger) {
    this.firstReady = new Promise((resolve, reject) => { this.markReady = resolve; this.markFailed = reject; });
    this.firstReady.catch(() => undefined); // a caller that never asks is not an unhandled rejection
  }

  /** True while the process runs and has said it is ready. */
  isRunning(): boolean {
    return this.serving && this.child !== undefined && alive(this.child);
  }

  /** Resolves once the process served for the first time; rejects when it is not installed. */
  ready(): Promise<void> {
    return this.firstReady;
  }

  start(): void {
    if (this.stopped || this.gaveUp) return;
    const child = spawn('sh', ['-c', WATCHDOG, this.spec.name, this.spec.command, ...this.spec.args()], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe', ...Array<'pipe'>(this.spec.extraPipes ?? 0).fill('pipe')],
    });
    this.child = child;
    this.serving = false;
    const startedAt = Date.now();
    if (child.pid !== undefined) liveGroups.add(child.pid);
    // Drained, never kept: a full pipe would stall the program.
    child.stdout?.resume();
    child.stderr?.resume();
    child.once('error', (error) => this.logger.error({ err: error }, `${this.spec.name} could not start`));
    child.once('exit', (code, signal) => {
      if (child.pid !== undefined) liveGroups.delete(child.pid);
      killGroup(child.pid, 'SIGKILL'); // the watchdog's leftovers, if any
      child.stdin?.destroy();
      if (this.child === child) this.serving = false;
      if (code === NOT_FOUND && !this.stopped) {
        this.gaveUp = true; // restarting cannot help
        const message = `${this.spec.name} is not installed (${this.spec.command}): ${this.spec.installHint}`;
        this.logger.error(message);
        this.markFailed(new Error(message));
      }
      if (this.stopped || this.gaveUp || this.child !== child) return;
      if (Date.now() - startedAt >= STABLE_MS) this.backoffMs = MIN_BACKOFF_MS;
      this.logger.warn({ code, signal, restartInMs: this.backoffMs }, `${this.spec.name} exited; restarting it`);
      this.restartTimer = setTimeout(() => this.start(), this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    });
    this.spec.ready(child).then(() => {
      if (this.child !== child || !alive(child)) return;
      this.serving = true;
      this.logger.info({ pid: child.pid }, `${this.spec.name} is running`);
      this.markReady();
    }, (error: unknown) => {
      if (this.child !== child || this.stopped) return;
      this.logger.warn({ err: error }, `${this.spec.name} did not become ready; restarting it`);
      killGroup(child.pid, 'SIGKILL'); // 'exit' schedules the restart
    });
  }

  /** Ends the process (and its group) and stops restarting it. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.pid === undefined || !alive(child)) return;
    const closed = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), TERM_GRACE_MS);
    await closed;
    clearTimeout(timer);
    killGroup(child.pid, 'SIGKILL'); // stragglers of the group, if any
    liveGroups.delete(child.pid);
  }
}
