import type { Logger } from '../../../kernel/contracts/logger.js';

const noop = (): void => undefined;

/** For tests and scripts that open a store without a logger. */
export const silentLogger: Logger = {
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  child: () => silentLogger,
};
