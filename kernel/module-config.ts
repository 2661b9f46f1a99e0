import { CHOICE_VARIABLES, ConfigError, type KernelConfig } from './config.js';
import type { ConfigOf, ConfigSchema, Configurable } from './contracts/provider.js';
import type { Registry } from './registry.js';

type Property = Record<string, unknown> & { '~refine'?: Array<{ check(value: unknown): boolean; error(value: unknown): string }> };

export interface ReadOptions {
  /** Whether the schema's required variables must be set (the chosen provider), or only checked when set. */
  required: boolean;
  /** Why they are required, for the message: `when STORAGE=postgres`. */
  when?: string;
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** The property's rule in words, for `VAR is "x"; expected ...`. */
function expected(property: Property): string {
  if (typeof property.description === 'string') return property.description;
  const values = (property.enum ?? (property.anyOf as Property[] | undefined)?.map((p) => p.const)) as unknown[] | undefined;
  if (values) return `one of ${values.join(', ')}`;
  if (property.type === 'boolean') return 'true or false';
  if (property.type === 'integer' || property.type === 'number') {
    const kind = property.type === 'integer' ? 'a whole number' : 'a number';
    const { minimum: min, maximum: max } = property;
    if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
    return min !== undefined ? `${kind} of at least ${min}` : max !== undefined ? `${kind} of at most ${max}` : kind;
  }
  return property.pattern ? `text matching ${property.pattern}` : 'other text';
}

/** `raw` as the property's type, or a reason it is not one (undefined: it is). */
function convert(property: Property, raw: string): { value?: unknown; bad?: boolean } {
  const type = property.type ?? (property.anyOf as Property[] | undefined)?.[0]?.type;
  if (type === 'boolean') {
    const word = raw.toLowerCase();
    return TRUE.includes(word) ? { value: true } : FALSE.includes(word) ? { value: false } : { bad: true };
  }
  if (type === 'integer' || type === 'number') {
    const n = Number(raw);
    if (raw === '' || Number.isNaN(n) || (type === 'integer' && !Number.isInteger(n))) return { bad: true };
    return { value: n };
  }
  return { value: raw };
}

/** True when `value` keeps the property's JSON-schema limits. */
function withinLimits(property: Property, value: unknown): boolean {
  const values = (property.enum ?? (property.anyOf as Property[] | undefined)?.map((p) => p.const)) as unknown[] | undefined;
  if (values && !values.includes(value)) return false;
  if (typeof property.const !== 'undefined' && property.const !== value) return false;
  if (typeof value === 'number') {
    if (typeof property.minimum === 'number' && value < property.minimum) return false;
    if (typeof property.maximum === 'number' && value > property.maximum) return false;
  }
  if (typeof value === 'string') {
    if (typeof property.minLength === 'number' && value.length < property.minLength) return false;
    if (typeof property.maxLength === 'number' && value.length > property.maxLength) return false;
    if (typeof property.pattern === 'string' && !new RegExp(property.pattern, 'u').test(value)) return false;
  }
  return true;
}

/**
 * A module's variables out of `variables` (the environment as the kernel read it, trimmed, empty ones unset),
 * converted and checked against its `configSchema`. A bad or missing value throws a ConfigError: one line
 * naming the variable; a value the schema refines (a secret, say) is never repeated in it.
 */
export function readModuleConfig<S extends ConfigSchema>(
  module: Configurable<S>,
  variables: Readonly<Record<string, string>>,
  options: ReadOptions,
): ConfigOf<S> {
  const schema = module.configSchema;
  if (!schema) return {} as ConfigOf<S>;
  const prefix = module.configPrefix ?? '';
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties as Record<string, Property>)) {
    const variable = prefix + name;
    const raw = variables[variable];
    if (raw === undefined) {
      if (property.default !== undefined) out[name] = property.default;
      else if (required.has(name) && options.required) throw new ConfigError(variable, `is required${options.when ? ` ${options.when}` : ''}`);
      continue;
    }
    const { value, bad } = convert(property, raw);
    if (bad || !withinLimits(property, value)) throw new ConfigError(variable, `is "${raw}"; expected ${expected(property)}`);
    const refused = property['~refine']?.find((refinement) => !refinement.check(value));
    if (refused) throw new ConfigError(variable, refused.error(value));
    out[name] = value;
  }
  return out as ConfigOf<S>;
}

/**
 * Start-up's check of a configuration against the registry: each capability names a registered provider, and
 * every provider's and plugin's variables are valid (those of the chosen providers and the plugins set when
 * required). Throws the first ConfigError.
 */
export function checkConfig(config: KernelConfig, registry: Registry): void {
  for (const [capability, variable] of Object.entries(CHOICE_VARIABLES) as Array<[keyof typeof CHOICE_VARIABLES, string]>) {
    const id = config[CHOICE_KEYS[capability]];
    const known = registry.providerIds(capability);
    if (!known.includes(id)) {
      throw new ConfigError(variable, `is "${id}"; expected one of ${known.join(', ') || 'none'} (a module in TASKLOOM_MODULES may add others)`);
    }
  }
  const ai = registry.providerIds('ai');
  for (const [slot, id] of Object.entries(config.aiSlots)) {
    if (!ai.includes(id)) throw new ConfigError('TASKLOOM_AI_SLOTS', `binds slot ${slot} to AI provider "${id}", which no module registers (known: ${ai.join(', ') || 'none'})`);
  }
  for (const { definition, chosen, when } of registry.definitions(config)) readModuleConfig(definition, config.variables, { required: chosen, when });
  for (const layer of registry.layers()) readModuleConfig(layer, config.variables, { required: true });
  for (const plugin of registry.plugins()) readModuleConfig(plugin, config.variables, { required: true });
}

const CHOICE_KEYS = {
  storage: 'storage', auth: 'authProvider', browser: 'browserEngine', scheduler: 'scheduler', blob: 'blobStore', queue: 'queue',
} as const;
