import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors, type ErrorDefinition } from '../../kernel/errors.js';
import { CreateUserBody, RoleBody, UserEnvelope, UserList, UserParams } from './account-schemas.js';
import type { AccountAdmin } from '../../kernel/contracts/auth.js';
import { Success } from './schemas.js';

const tags = ['users'];
const { EMAIL_TAKEN, LAST_ADMIN, USER_NOT_FOUND } = Errors;

/** The team's users, managed by an admin: list, add with a password, change a role, remove. */
export async function userRoutes(scope: FastifyInstance, options: { accounts: AccountAdmin }): Promise<void> {
  const { accounts } = options;
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const config = (errors: ErrorDefinition[]) => ({ auth: 'authenticated' as const, access: 'admin' as const, errors });

  app.get('/users', {
    config: config([]),
    schema: { tags, operationId: 'listUsers', summary: 'Every user with their role, when they joined and last logged in (admin)', response: { 200: UserList } },
  }, async () => ({ users: await accounts.list() }));

  app.post('/users', {
    config: config([EMAIL_TAKEN]),
    schema: { tags, operationId: 'createUser', summary: 'Add a user with a password the admin chose (admin)', body: CreateUserBody, response: { 200: UserEnvelope } },
  }, async (request) => ({ user: await accounts.create(request.body) }));

  app.patch('/users/:id', {
    config: config([USER_NOT_FOUND, LAST_ADMIN]),
    schema: {
      tags, operationId: 'setUserRole', summary: 'Change a user\'s role; it holds for their live sessions at once (admin)',
      params: UserParams, body: RoleBody, response: { 200: UserEnvelope },
    },
  }, async (request) => ({ user: await accounts.setRole(request.params.id, request.body.role) }));

  app.delete('/users/:id', {
    config: config([USER_NOT_FOUND, LAST_ADMIN]),
    schema: { tags, operationId: 'removeUser', summary: 'Remove a user and end their sessions (admin)', params: UserParams, response: { 200: Success } },
  }, async (request) => {
    await accounts.remove(request.params.id);
    return { success: true };
  });
}
