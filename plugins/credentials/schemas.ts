import { Type, type Static } from 'typebox';
import { namedSchema } from '../../kernel/http/named-schema.js';

/** What every response shows in place of a token; sent back in a PUT, it keeps the stored token. */
export const MASK = '********';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const ProviderId = Type.String({ minLength: 1, maxLength: 100, description: 'an output provider id, e.g. tablestore' });
const BaseUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of the product; SSRF-checked' });
const Token = Type.String({ minLength: 1, maxLength: 4096 });

/** Fields a client may send back as it received them; ignored. */
const echoed = {
  id: Type.Optional(Type.Unknown()),
  createdAt: Type.Optional(Type.Unknown()),
  updatedAt: Type.Optional(Type.Unknown()),
};

export const CredentialBody = Type.Object({
  provider: ProviderId,
  name: Name,
  config: Type.Object({ baseUrl: BaseUrl, token: Token }, { additionalProperties: false }),
  ...echoed,
}, { additionalProperties: false });
export type CredentialInput = Static<typeof CredentialBody>;

/** A PUT changes what it names; a token left out, or sent back as the mask, stays as stored. */
export const CredentialUpdateBody = Type.Object({
  provider: Type.Optional(ProviderId),
  name: Type.Optional(Name),
  config: Type.Optional(Type.Object({
    baseUrl: Type.Optional(BaseUrl),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: `a new token, or ${MASK} to keep it` })),
  }, { additionalProperties: false })),
  ...echoed,
}, { additionalProperties: false });
export type CredentialUpdate = Static<typeof CredentialUpdateBody>;

/** Serialisation keeps only these fields, so nothing else of a stored config can leak. */
export const Credential = namedSchema('Credential', Type.Object({
  id: Type.String(),
  name: Type.String(),
  provider: Type.String(),
  config: Type.Object({ baseUrl: Type.String(), token: Type.Literal(MASK) }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
}));
export type PublicCredential = Static<typeof Credential>;

export const Location = Type.Object({ id: Type.Integer(), name: Type.String() });

export const CredentialParams = Type.Object({ id: Id });
/** `databaseId` is checked by hand: a non-number must answer INVALID_DATABASE_ID, not VALIDATION_ERROR. */
export const DatabaseParams = Type.Object({ id: Id, databaseId: Type.String({ maxLength: 200 }) });

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
