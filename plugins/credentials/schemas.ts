import { Type, type Static } from 'typebox';
import { Credential, CredentialRecord, MASK } from '../../kernel/contracts/records.js';

// The credential record (kernel/contracts/records.ts) is the one definition; the bodies are made from it, and
// `Credential` is its answer (serialisation keeps only its fields and always writes the mask for the token).
export { Credential, MASK };
export type PublicCredential = Credential;

const { id, provider, name, config } = CredentialRecord.properties;
const settable = { provider, name };

/** Fields a client may send back as it received them; ignored. */
const echoed = {
  id: Type.Optional(Type.Unknown()),
  createdAt: Type.Optional(Type.Unknown()),
  updatedAt: Type.Optional(Type.Unknown()),
};

export const CredentialBody = Type.Object({ ...settable, config, ...echoed }, { additionalProperties: false });
export type CredentialInput = Static<typeof CredentialBody>;

/** A PUT changes what it names; a token left out, or sent back as the mask, stays as stored. */
export const CredentialUpdateBody = Type.Object({
  ...Type.Partial(Type.Object(settable)).properties,
  config: Type.Optional(Type.Object(Type.Partial(config).properties, { additionalProperties: false })),
  ...echoed,
}, { additionalProperties: false });
export type CredentialUpdate = Static<typeof CredentialUpdateBody>;

export const Location = Type.Object({ id: Type.Integer(), name: Type.String() });

export const CredentialParams = Type.Object({ id });
/** `databaseId` is checked by hand: a non-number must answer INVALID_DATABASE_ID, not VALIDATION_ERROR. */
export const DatabaseParams = Type.Object({ id, databaseId: Type.String({ maxLength: 200 }) });

export { ErrorBody } from '../../kernel/http/error-body.js';
export const Success = Type.Object({ success: Type.Boolean() });
