import pino from 'pino';
import type { KernelConfig } from './config.js';
import { redactQuery } from './http/query-redaction.js';
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

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the values of secret-named query parameters (`?token=`, `?apiKey=`) masked. */
const serializers = {
  req: (req: LoggedRequest) => ({
    method: req.method,
    url: typeof req.url === 'string' ? redactQuery(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  url: (url: unknown) => (typeof url === 'string' ? redactQuery(url) : url),
};

export function createLogger(config: Pick<KernelConfig, 'logLevel'>): pino.Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers,
    base: { service: 'taskloom' },
    // Lines written while a request's work runs (a plugin's own logger, a run it started) carry its id too.
    mixin: (_object, _level, logger) => {
      const reqId = bindsRequestId(logger) ? undefined : currentRequestId();
      return reqId === undefined ? {} : { reqId };
    },
  });
}
