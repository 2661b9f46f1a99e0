import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../kernel/errors.js';
import { AcceptBody, InvitationCreated, InvitationList, InvitationParams, InviteBody } from './account-schemas.js';
import type { AccountAdmin } from '../../kernel/contracts/auth.js';
import { AttemptLimiter } from './attempt-limiter.js';
import { LOGIN_WINDOW_MS } from './login-guard.js';
import { setSessionCookie } from './session-cookie.js';
import { Success } from './schemas.js';

const tags = ['users'];
const { EMAIL_TAKEN, INVITATION_NOT_FOUND, INVITATION_UNUSABLE, RATE_LIMITED } = Errors;
/** Failed acceptances one address may make in 15 minutes (a token is 256 random bits: this only keeps noise down). */
export const ACCEPT_FAILURES_PER_ADDRESS = 20;

/** The dashboard page that accepts `token`: in the fragment, which no server (nor its log) receives. */
const acceptUrl = (request: FastifyRequest, token: string) => `${request.protocol}://${request.host}/invitation#${token}`;

/** Invitations: an admin invites (email, role), lists and revokes; the invitee accepts with a name and a password. */
export async function invitationRoutes(scope: FastifyInstance, options: { accounts: AccountAdmin; ttlHours: number }): Promise<void> {
  const { accounts } = options;
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const failures = new AttemptLimiter(ACCEPT_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS);

  app.get('/invitations', {
    config: { auth: 'authenticated', access: 'admin', errors: [] },
    schema: { tags, operationId: 'listInvitations', summary: 'Invitations still pending (admin)', response: { 200: InvitationList } },
  }, async () => ({ invitations: await accounts.invitations() }));

  app.post('/invitations', {
    config: { auth: 'authenticated', access: 'admin', errors: [EMAIL_TAKEN] },
    schema: {
      tags, operationId: 'createInvitation',
      summary: 'Invite someone (email, role): answers the one-time link, shown this once; it expires after expiresInHours (default INVITATION_TTL_HOURS) (admin)',
      body: InviteBody, response: { 200: InvitationCreated },
    },
  }, async (request) => {
    const { email, role, expiresInHours = options.ttlHours } = request.body;
    const invitedBy = request.principal.kind === 'session' ? request.principal.user.id : undefined;
    const { invitation, token } = await accounts.invite({ email, role, expiresInMs: expiresInHours * 3_600_000, invitedBy });
    return { invitation, token, url: acceptUrl(request, token) };
  });

  app.delete('/invitations/:id', {
    config: { auth: 'authenticated', access: 'admin', errors: [INVITATION_NOT_FOUND] },
    schema: { tags, operationId: 'revokeInvitation', summary: 'Revoke a pending invitation: its link is refused from now on (admin)', params: InvitationParams, response: { 200: Success } },
  }, async (request) => {
    await accounts.revokeInvitation(request.params.id);
    return { success: true };
  });

  app.post('/invitations/accept', {
    // The token is the credential; whoever holds it may set the account's name and password.
    config: { auth: 'public', errors: [INVITATION_NOT_FOUND, INVITATION_UNUSABLE, EMAIL_TAKEN, RATE_LIMITED, Errors.STORAGE_UNAVAILABLE] },
    schema: {
      tags, operationId: 'acceptInvitation', summary: 'Accept an invitation: creates the account with a name and password and logs it in',
      body: AcceptBody, response: { 200: Success },
    },
  }, async (request, reply) => {
    const retryAfterSeconds = failures.retryAfterSeconds(request.ip);
    if (retryAfterSeconds > 0) {
      void reply.header('retry-after', String(retryAfterSeconds));
      throw RATE_LIMITED({ seconds: retryAfterSeconds });
    }
    const { token, name, password } = request.body;
    try {
      setSessionCookie(request, reply, await accounts.acceptInvitation(token, { name, password }));
      return { success: true };
    } catch (error) {
      if (INVITATION_NOT_FOUND.is(error) || INVITATION_UNUSABLE.is(error)) failures.fail(request.ip);
      throw error;
    }
  });
}
