import pino from 'pino';
import type { KernelConfig } from './config.js';
import { bindsRequestId, currentRequestId } from './http/request-id.js';

/** Paths whose values never reach a log line, whatever a plugin passes in. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers.key',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.apiKey',
  '*.apiKeys',
  '*.key',
  '*.secret',
];

export function createLogger(config: Pick<KernelConfig, 'logLevel'>): pino.Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { service: 'taskloom' },
    // Lines written while a request's work runs (a plugin's own logger, a run it started) carry its id too.
    mixin: (_object, _level, logger) => {
      const reqId = bindsRequestId(logger) ? undefined : currentRequestId();
      return reqId === undefined ? {} : { reqId };
    },
  });
}
