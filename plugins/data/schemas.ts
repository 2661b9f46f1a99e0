import { Type } from 'typebox';
import { CAPTURE_NAME_PATTERN, MAX_NAME_LENGTH } from './capture-names.js';
import { COOKIE_MASK } from './cookie-service.js';

// The capture record (kernel/contracts/records.ts) is the one definition.
export { Capture } from '../../kernel/contracts/records.js';

export const CaptureQuery = Type.Object({
  runId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only the captures of this execution' })),
});

export const CaptureParams = Type.Object({
  name: Type.String({ pattern: CAPTURE_NAME_PATTERN, maxLength: MAX_NAME_LENGTH }),
});

export const Cleared = Type.Object({ success: Type.Boolean(), deleted: Type.Integer() });

export const Cookie = Type.Object({
  name: Type.String(),
  value: Type.Literal(COOKIE_MASK, { description: 'always masked' }),
  domain: Type.String(),
  path: Type.String(),
  expires: Type.Number({ description: 'epoch seconds; -1 for a session cookie' }),
  httpOnly: Type.Optional(Type.Boolean()),
  secure: Type.Optional(Type.Boolean()),
  sameSite: Type.Optional(Type.Enum(['Strict', 'Lax', 'None'])),
});

export const CookieList = Type.Object({ cookies: Type.Array(Cookie) });

export const DomainParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 255, description: 'a leading dot is ignored; subdomains keep their cookies' }),
});

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
