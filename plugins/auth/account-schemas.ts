import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { Invitation as ContractInvitation, ManagedUser as ContractManagedUser } from '../../kernel/contracts/auth.js';
import { Role, UserRecord } from '../../kernel/contracts/records.js';

/** The longest an invitation may stay open (30 days), whatever INVITATION_TTL_HOURS or the request asks. */
export const MAX_INVITATION_HOURS = 30 * 24;

const Password = Type.String({ minLength: 8, maxLength: 1024 });

export const ManagedUser = Type.Object({
  ...Type.Pick(UserRecord, ['id', 'name', 'email', 'createdAt', 'lastLoginAt']).properties,
  role: Role,
});
export const UserList = Type.Object({ users: Type.Array(ManagedUser) });
export const UserEnvelope = Type.Object({ user: ManagedUser });
export const UserParams = Type.Object({ id: UserRecord.properties.id });

export const CreateUserBody = Type.Object({
  ...Type.Pick(UserRecord, ['name', 'email']).properties,
  password: Password,
  role: Role,
});
export const RoleBody = Type.Object({ role: Role });

export const Invitation = Type.Object({
  ...Type.Pick(UserRecord, ['id', 'email', 'role', 'createdAt']).properties,
  role: Role,
  expiresAt: Type.String(),
  invitedBy: Type.Optional(UserRecord.properties.id),
});
export const InvitationList = Type.Object({ invitations: Type.Array(Invitation) });
export const InvitationParams = Type.Object({ id: UserRecord.properties.id });

export const InviteBody = Type.Object({
  email: UserRecord.properties.email,
  role: Role,
  expiresInHours: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INVITATION_HOURS, description: 'default INVITATION_TTL_HOURS' })),
});
export const InvitationCreated = Type.Object({
  invitation: Invitation,
  token: Type.String({ description: 'the one-time token, shown this once' }),
  url: Type.String({ description: 'the dashboard page that accepts it (the token in its fragment, never sent to a server log)' }),
});

export const AcceptBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 400 }),
  name: UserRecord.properties.name,
  password: Password,
});

// The answers are the contract's types (auth.ts), described for the API: a change to one side stops the build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const answersMatchContract: [Same<Static<typeof Invitation>, ContractInvitation>, Same<Static<typeof ManagedUser>, ContractManagedUser>] = [true, true];
