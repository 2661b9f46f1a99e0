import { Type } from 'typebox';
import { User, UserRecord } from '../../kernel/contracts/records.js';

// The user record (kernel/contracts/records.ts) is the one definition; `User` is its answer.
export { User };

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });

export const UserEnvelope = Type.Object({ user: User });
export const SetupStatus = Type.Object({ setupRequired: Type.Boolean() });

export const SetupBody = Type.Object({
  ...Type.Pick(UserRecord, ['name', 'email']).properties,
  password: Type.String({ minLength: 8, maxLength: 1024 }),
});

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const SetApiKeyBody = Type.Union([
  Type.Object({ apiKey: Type.Optional(Type.String({ minLength: 1 })) }),
  Type.Null(),
]);

export const ApiKeyStatus = Type.Object({ configured: Type.Boolean(), preview: Type.Union([Type.String(), Type.Null()]) });
export const ApiKeyCreated = Type.Object({ success: Type.Boolean(), apiKey: Type.String() });
