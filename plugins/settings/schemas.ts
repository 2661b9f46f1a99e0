import { Type, type Static } from 'typebox';
import { namedSchema } from '../../kernel/http/named-schema.js';
import { Proxy } from '../../kernel/contracts/records.js';

// The proxy record (kernel/contracts/records.ts) is the one definition; the body is made from it.
export { Proxy };

export { ErrorBody } from '../../kernel/http/error-body.js';

export const ROTATION_MODES = ['round-robin', 'random'] as const;
export const SELECTOR_FINDERS = ['highlight', 'ai'] as const;
export const THEMES = ['dark', 'light', 'solarized-light', 'solarized-dark'] as const;

/** Limits of the stored proxy list and of one request. */
export const MAX_PROXIES = 1000;

const ProxyId = Proxy.properties.id;

/** A Proxy without id. `id` is accepted (a client may send back what it read) and ignored. */
export const ProxyBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 200 })),
  ...Type.Omit(Proxy, ['id']).properties,
}, { additionalProperties: false });
export type ProxyInput = Static<typeof ProxyBody>;

export const ProxyImportBody = Type.Object({
  proxies: Type.Array(ProxyBody, { maxItems: MAX_PROXIES, description: 'entries with the server of a stored proxy update it' }),
}, { additionalProperties: false });

export const ProxyIdsBody = Type.Object({
  ids: Type.Array(ProxyId, { minItems: 1, maxItems: MAX_PROXIES }),
}, { additionalProperties: false });

export const RotationBody = Type.Object({
  defaultProxyId: Type.Optional(Type.Union([ProxyId, Type.Null()], { description: 'null or "host": no proxy' })),
  includeDefaultInRotation: Type.Optional(Type.Boolean()),
  rotationMode: Type.Optional(Type.Enum([...ROTATION_MODES])),
}, { additionalProperties: false });

export const ProxyParams = Type.Object({ id: ProxyId });

export const ProxySettings = namedSchema('ProxySettings', Type.Object({
  proxies: Type.Array(Proxy, { description: 'always starts with the built-in entry `host` (no proxy)' }),
  defaultProxyId: Type.String(),
  includeDefaultInRotation: Type.Boolean(),
  rotationMode: Type.Enum([...ROTATION_MODES]),
}));

/** `GET /proxies/blocks`: runs and bot walls per site and proxy (this instance's, since it started). */
export const ProxyBlocks = namedSchema('ProxyBlocks', Type.Object({
  coolDownMs: Type.Integer({ description: 'how long a proxy stays blocked for a site after a bot wall there' }),
  blocks: Type.Array(Type.Object({
    site: Type.String({ description: "the task URL's host" }),
    proxy: Type.String({ description: 'the proxy server, or `host` (no proxy)' }),
    proxyId: Type.Optional(Type.String({ description: 'the stored proxy of that server, if it still exists' })),
    label: Type.Optional(Type.String()),
    runs: Type.Integer({ minimum: 0, description: 'rotated runs through it at that site' }),
    blocks: Type.Integer({ minimum: 0, description: 'of those, the ones that met a bot wall (outcome anti_bot)' }),
    blockRate: Type.Number({ minimum: 0, maximum: 1 }),
    blockedUntil: Type.Optional(Type.String({ description: 'ISO 8601; rotation passes over it for that site until then' })),
  })),
}));

export const SelectorFinderBody = Type.Object({ selectorFinder: Type.Enum([...SELECTOR_FINDERS]) }, { additionalProperties: false });

/** Any string is accepted; one outside the four themes is saved as `dark`. */
export const ThemeBody = Type.Object({ theme: Type.String() }, { additionalProperties: false });
export const ThemeReply = Type.Object({ theme: Type.Enum([...THEMES]) });

const ApiKeyList = Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 20 });

/** The four key endpoints: path, body field, and whether the entries are secret. */
export const KEY_SLOTS = [
  { slot: 'providerA', path: '/provider-a-api-key', field: 'providerAApiKeys' },
  { slot: 'providerB', path: '/provider-b-api-key', field: 'providerBApiKeys' },
  { slot: 'providerC', path: '/provider-c-api-key', field: 'providerCApiKeys' },
  { slot: 'providerD', path: '/provider-d-api-key', field: 'providerDApiKeys' },
] as const;
export type KeyField = (typeof KEY_SLOTS)[number]['field'];

export const apiKeysBody = (field: KeyField) => Type.Object({ [field]: ApiKeyList }, { additionalProperties: false });
export const apiKeysReply = (field: KeyField) => Type.Object({ [field]: Type.Array(Type.String()) });

const ModelName = Type.String({ minLength: 1, maxLength: 200 });

export const AiModels = Type.Object({
  providerA: ModelName,
  providerB: ModelName,
  providerC: ModelName,
  providerD: ModelName,
});

export const AiModelsBody = Type.Object({
  providerA: Type.Optional(ModelName),
  providerB: Type.Optional(ModelName),
  providerC: Type.Optional(ModelName),
  providerD: Type.Optional(ModelName),
}, { additionalProperties: false });
export type AiModelsInput = Static<typeof AiModelsBody>;
