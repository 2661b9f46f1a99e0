import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { PageDevtools } from '../../kernel/contracts/browser.js';
import { Errors } from '../../kernel/errors.js';
import type { RunService } from '../runs/index.js';
import { handoffPage } from './handoff-page.js';
import { ErrorBody } from './schemas.js';
import { sendJson, type createRunLive } from './run-live.js';
import { pressKey, sendMouse, type KeyInput, type MouseInput } from './studio-input.js';
import type { SocketRoute } from './upgrade.js';

/** The handoff page's session cookie (its value: a secret of one paused run, kept hashed in runs/human-pause.ts). */
const COOKIE = 'taskloom_handoff';
const ID = '[A-Za-z0-9_-]{1,128}';

const cookiePath = (executionId: string) => `/api/studio/handoff/${encodeURIComponent(executionId)}`;

type Pauses = RunService['pauses'];

/** The paused run the request's handoff cookie is for, or undefined. */
function sessionRun(pauses: Pauses, executionId: string, cookies: Record<string, string | undefined>) {
  const secret = cookies[COOKIE];
  return secret ? pauses.bySession(executionId, secret) : undefined;
}

/** The page (with a fresh nonce for its script), no-store and never framed. */
function sendPage(reply: FastifyReply, executionId: string, found: NonNullable<ReturnType<typeof sessionRun>>, fromLink: boolean) {
  const nonce = crypto.randomBytes(16).toString('base64');
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`)
    .type('text/html; charset=utf-8')
    .send(handoffPage({ executionId, nonce, ...found.state, headful: !found.run.view.page?.devtools, fromLink }));
}

/**
 * The handoff page of a run waiting for a person (README: A person in the loop), public but for one run:
 * - `GET /api/studio/handoff/{id}?token=…`: the single-use link. Its token is exchanged for a cookie (HttpOnly,
 *   SameSite=Lax, path of that run's page only, until the pause ends) and the page answered (its script takes the
 *   token out of the address bar). A used, replaced or expired token answers 410 HANDOFF_ENDED.
 * - `GET /api/studio/handoff/{id}`: the page (live view, mouse and keys, Resume), with that cookie; else 410.
 * - `POST /api/studio/handoff/{id}/resume`: resumes the run, with that cookie; the cookie then stops working.
 */
export async function handoffRoutes(app: FastifyInstance, options: { runs: RunService }): Promise<void> {
  const { pauses } = options.runs;
  const Params = Type.Object({ id: Type.String({ pattern: `^${ID}$` }) });
  // A query parameter named `token`: the request log redacts it (kernel/http/query-redaction.ts).
  const LinkQuery = Type.Object({ token: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{20,100}$' })) });
  const Html = { description: 'the handoff page (HTML)', type: 'string' } as const;
  const errors = [Errors.HANDOFF_ENDED];

  app.get('/handoff/:id', {
    config: { auth: 'public', errors },
    schema: {
      tags: ['studio'], operationId: 'showHandoffPage', params: Params, querystring: LinkQuery, response: { 200: Html, 410: ErrorBody },
      summary: 'The handoff page of a run waiting for a person (live view with mouse and keys, Resume): with `token` the single-use link, which sets the handoff cookie; without, that cookie',
    },
  }, async (request: FastifyRequest<{ Params: { id: string }; Querystring: { token?: string } }>, reply) => {
    const { id } = request.params;
    const { token } = request.query;
    if (token === undefined) {
      const found = sessionRun(pauses, id, request.cookies);
      if (!found) throw Errors.HANDOFF_ENDED();
      return sendPage(reply, id, found, false);
    }
    const opened = pauses.open(id, token);
    const found = opened && pauses.bySession(id, opened.session);
    if (!opened || !found) throw Errors.HANDOFF_ENDED();
    void reply.setCookie(COOKIE, opened.session, {
      httpOnly: true, sameSite: 'lax', path: cookiePath(id), secure: request.protocol === 'https', maxAge: Math.ceil(opened.maxAgeMs / 1000),
    });
    return sendPage(reply, id, found, true);
  });

  app.post('/handoff/:id/resume', {
    config: { auth: 'public', errors },
    schema: {
      tags: ['studio'], operationId: 'resumeFromHandoff', params: Params, response: { 200: Type.Object({ success: Type.Boolean(), status: Type.String() }), 410: ErrorBody },
      summary: "The handoff page's Resume (its cookie, not a login); 410 once the handoff is over",
    },
  }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const found = sessionRun(pauses, request.params.id, request.cookies);
    if (!found || !pauses.resume(request.params.id)) throw Errors.HANDOFF_ENDED();
    return { success: true, status: 'running' };
  });
}

/** `GET /api/studio/handoff/{id}/live` (WebSocket, the page's cookie): the run's page, and the person's mouse and keys. */
export function handoffSocketRoute(deps: { app: FastifyInstance; runs: RunService; runLive: ReturnType<typeof createRunLive> }): SocketRoute {
  const { pauses } = deps.runs;
  return {
    path: new RegExp(`^/api/studio/handoff/(${ID})/live/?$`),
    public: true,
    async accept(match, req: IncomingMessage) {
      const executionId = match[1]!;
      const cookies = req.headers.cookie ? deps.app.parseCookie(req.headers.cookie) : {};
      const found = sessionRun(pauses, executionId, cookies);
      if (!found) throw Errors.FORBIDDEN({ hint: 'This handoff is over (resumed or expired), or the link was not opened in this browser' });
      const { run } = found;
      return (ws) => {
        deps.runLive.watch(ws, run, { type: 'hello', executionId, status: run.status });
        // The view is the person's only while the pause lasts: then it closes (the run goes on unwatched by them).
        void found.over.then(() => {
          sendJson(ws, { type: 'handoff-over' });
          ws.close(1000, 'handoff over');
        });
        let devtools: Promise<PageDevtools | undefined> | undefined;
        let queue = Promise.resolve();
        const session = () => (devtools ??= run.view.page?.devtools?.().catch(() => undefined) ?? Promise.resolve(undefined));
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          let message: ({ type: 'key' } & KeyInput) | ({ type: 'mouse' } & MouseInput);
          try {
            message = JSON.parse(String(data)) as typeof message;
          } catch {
            return sendJson(ws, { type: 'error', message: 'Messages are JSON' });
          }
          queue = queue.then(async () => {
            // Input only while the pause lasts: once resumed or expired the page is the run's again.
            if (!sessionRun(pauses, executionId, cookies)) return sendJson(ws, { type: 'error', message: 'The handoff is over' });
            const target = await session();
            if (!target) return;
            if (message.type === 'key' && typeof message.key === 'string') await pressKey(target, message);
            else if (message.type === 'mouse' && Number.isFinite(message.x) && Number.isFinite(message.y)) await sendMouse(target, message);
          }).catch((error: unknown) => sendJson(ws, { type: 'error', message: error instanceof Error ? error.message : String(error) }));
        });
        ws.on('close', () => void devtools?.then((open) => open?.detach()).catch(() => undefined));
      };
    },
  };
}
