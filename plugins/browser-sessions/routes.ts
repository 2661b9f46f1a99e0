import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import net from 'node:net';
import { Errors } from '../../kernel/errors.js';
import { createHostRule, parseHost } from '../../layers/allowed-hosts/host-rule.js';
import type { BrowserSessions } from '../headful/decorators.js';
import { devtoolsPath } from './devtools-relay.js';
import type { RelayTokens } from './relay-tokens.js';
import type { RemoteSessions } from './remote-sessions.js';
import { CloseBody, ErrorBody, OpenAnswer, OpenBody, Success } from './schemas.js';

const config = { auth: 'authenticated' } as const;

/** No body is `{}`: every field of these bodies is optional. */
async function noBodyIsEmpty(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
const tags = ['browser'];

/** `address:port` of this end of the caller's connection (an IPv4 client of a dual-stack socket shows as IPv4). */
function connectedTo(request: FastifyRequest): string {
  const socket = request.raw.socket;
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return `${net.isIPv6(address) ? `[${address}]` : address}:${socket.localPort}`;
}

export interface BrowserRouteOptions {
  sessions: BrowserSessions;
  tokens: RelayTokens;
  /** The sessions other instances hold. */
  remote: RemoteSessions;
}

/** `POST /api/browser/open` and `POST /api/browser/close`. */
export async function browserRoutes(scope: FastifyInstance, options: BrowserRouteOptions): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { sessions, tokens, remote } = options;

  const hostRule = createHostRule(app.services.config);
  /**
   * The relayed endpoint, whose token opens the browser: on the Host the caller used only when it is a name this
   * service is configured under (HOST, ALLOWED_HOSTS, localhost), else on the address its connection reached;
   * never on a Host as sent, which a proxy or a rebound name could have chosen.
   */
  const wsEndpoint = (request: FastifyRequest, sessionId: string) => {
    const parsed = parseHost(request.host);
    const host = parsed && hostRule.named(parsed.hostname) ? request.host : connectedTo(request);
    return `${request.protocol === 'https' ? 'wss' : 'ws'}://${host}${devtoolsPath(sessionId)}?token=${tokens.issue(sessionId)}`;
  };

  app.post('/open', {
    // The browser did not start (502), or the service is stopping (503).
    config: { ...config, access: 'run', errors: [Errors.UPSTREAM_ERROR, Errors.SHUTTING_DOWN] },
    preValidation: noBodyIsEmpty,
    schema: {
      tags,
      operationId: 'openBrowser',
      summary: 'Open (or reuse) the managed browser; answers its session id and a DevTools WebSocket URL relayed by this service',
      body: OpenBody,
      response: { 200: OpenAnswer, 400: ErrorBody, 401: ErrorBody, 502: ErrorBody, 503: ErrorBody },
    },
  }, async (request, reply) => {
    const session = await sessions.open({ headless: request.body.headless });
    reply.header('cache-control', 'no-store');
    return { sessionId: session.id, wsEndpoint: wsEndpoint(request, session.id), headless: session.headless };
  });

  app.post('/close', {
    // 502: the instance holding the browser did not answer.
    config: { ...config, access: 'run', errors: [Errors.NOT_FOUND, Errors.UPSTREAM_ERROR] },
    preValidation: noBodyIsEmpty,
    schema: {
      tags,
      operationId: 'closeBrowser',
      summary: 'End a browser session (its browser closes), on whichever instance holds it; without `sessionId`, the open one',
      body: CloseBody,
      response: { 200: Success, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 502: ErrorBody },
    },
  }, async (request) => {
    // An instance's managed browser holds at most one session: "the open one" is this instance's, else the one
    // session another instance holds (with several elsewhere, the caller names one).
    const local = sessions.current()?.id;
    const elsewhere = request.body.sessionId ?? local ? [] : await remote.heldElsewhere();
    if (elsewhere.length > 1) {
      throw Errors.NOT_FOUND({}, { details: `No browser session is open on this instance, and ${elsewhere.length} are on others: name one with sessionId` });
    }
    const sessionId = request.body.sessionId ?? local ?? elsewhere[0];
    if (sessionId === undefined) {
      throw Errors.NOT_FOUND({}, { details: 'No browser session is open: nothing to close (POST /api/browser/open starts one)' });
    }
    if (sessionId === local) {
      await sessions.close(sessionId);
      tokens.revoke(sessionId);
    } else {
      await remote.close(sessionId);
    }
    return { success: true };
  });
}
