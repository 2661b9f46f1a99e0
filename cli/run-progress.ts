import { styleText } from 'node:util';
import type { LogLine } from './api-types.js';

type Output = NodeJS.WritableStream & { isTTY?: boolean };

const LEVEL_STYLE: Record<string, Parameters<typeof styleText>[0]> = { debug: 'gray', info: 'cyan', warn: 'yellow', error: 'red' };
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface RunProgress {
  log(line: LogLine): void;
  status(status: string): void;
  /** Clears the live status line (TTY); call before anything else is written. */
  end(): void;
}

/**
 * The progress of a run on stderr: one line per log event with its time since the run was queued. On a terminal, levels are coloured and a last line shows the status and elapsed time, redrawn in
 * place; elsewhere (a pipe, a CI log) lines are plain and status changes are lines too.
 */
export function createRunProgress(out: Output, label: string): RunProgress {
  const tty = out.isTTY === true;
  let firstAt: number | undefined;
  let status = 'queued';
  let frame = 0;
  let ended = false;
  const startedMs = Date.now();
  // styleText drops the colours itself when the stream is not a terminal or NO_COLOR is set.
  const paint = (style: Parameters<typeof styleText>[0], text: string) => styleText(style, text, { stream: out });

  const lineOf = (line: LogLine) => {
    const at = Date.parse(line.at);
    firstAt ??= at;
    const elapsed = `${((at - firstAt) / 1000).toFixed(1)}s`.padStart(7);
    return `${paint('dim', elapsed)} ${paint(LEVEL_STYLE[line.level] ?? 'white', line.level.padEnd(5))} ${line.message}`;
  };
  const statusLine = () => `${SPINNER[frame++ % SPINNER.length]} ${label}: ${status} ${((Date.now() - startedMs) / 1000).toFixed(1)}s`;
  const clear = () => out.write('\r\x1b[2K');
  const timer = tty ? setInterval(() => { clear(); out.write(statusLine()); }, 100) : undefined;
  timer?.unref();

  return {
    log(line) {
      if (tty) clear();
      out.write(`${lineOf(line)}\n`);
      if (tty) out.write(statusLine());
    },
    status(next) {
      status = next;
      if (!tty) out.write(`status: ${next}\n`);
    },
    end() {
      if (timer && !ended) {
        ended = true;
        clearInterval(timer);
        clear();
      }
    },
  };
}
