// Loggers for tests: one that drops everything, one that keeps every line so a test can look for a secret.
import { inspect } from 'node:util';
import type { Logger } from '../kernel/contracts/logger.js';

export const silentLogger: Logger = {
  fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {},
  child: () => silentLogger,
};

/** A logger that keeps every line (as text, objects inspected 8 levels deep) in `lines`. */
export function createRecordingLogger(lines: string[] = []): Logger & { lines: string[] } {
  const record = (level: string) => (obj: unknown, msg?: string) => { lines.push(`${level} ${inspect(obj, { depth: 8 })} ${msg ?? ''}`); };
  const logger = {
    lines,
    fatal: record('fatal'), error: record('error'), warn: record('warn'),
    info: record('info'), debug: record('debug'), trace: record('trace'),
    child: (bindings: Record<string, unknown>) => { record('child')(bindings); return logger; },
  };
  return logger;
}
