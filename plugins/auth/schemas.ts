import { Type } from 'typebox';

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });

export const User = Type.Object({ id: Type.Optional(Type.String()), name: Type.String(), email: Type.String() });

export const UserEnvelope = Type.Object({ user: User });
export const SetupStatus = Type.Object({ setupRequired: Type.Boolean() });

export const SetupBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ format: 'email', maxLength: 320 }),
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
