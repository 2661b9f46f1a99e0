import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginResult } from '../../kernel/contracts/auth.js';
import { SESSION_COOKIE } from '../../kernel/http/credentials.js';

/** Sets the session cookie of a login (setup, login, an accepted invitation). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, login: LoginResult): void {
  void reply.setCookie(SESSION_COOKIE, login.token, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: request.protocol === 'https',
    expires: new Date(login.expiresAtMs),
  });
}
