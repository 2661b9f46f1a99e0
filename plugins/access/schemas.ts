import { Type } from 'typebox';
import { ApiKey, Scope } from '../../kernel/contracts/records.js';

export { ErrorBody } from '../../kernel/http/error-body.js';
export { ApiKey };

export const NewApiKeyBody = Type.Object({
  name: ApiKey.properties.name,
  scopes: Type.Array(Scope, { minItems: 1, maxItems: 4, uniqueItems: true }),
  taskIds: Type.Optional(ApiKey.properties.taskIds),
  expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time', maxLength: 64, description: 'ISO 8601, in the future' }), Type.Null()])),
}, { additionalProperties: false });

export const CreatedApiKey = Type.Object({
  key: Type.String({ description: 'the full key: shown this once, only its hash is kept' }),
  apiKey: ApiKey,
});

export const ApiKeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
