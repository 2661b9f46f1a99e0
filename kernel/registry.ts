import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { KernelConfig } from './config.js';
import { CONTRACT_ACCEPTS, CONTRACT_VERSIONS, type Capability, type CapabilityInstances, type CapabilityServices, type LayerDefinition } from './contracts/provider.js';
import type { ProviderContext, ProviderDefinition } from './contracts/provider.js';
import { readModuleConfig } from './module-config.js';
import type { PluginDefinition } from './plugin.js';

export { definePlugin, type PluginDefinition } from './plugin.js';

/** What a taskloom module (built-in or third-party) exports. */
export interface TaskloomModule {
  /** What it provides to capabilities: implementations (defineProvider), and layers over them (defineLayer). */
  providers?: Array<ProviderDefinition | LayerDefinition>;
  plugins?: PluginDefinition[];
}

/** The context every provider is created with (`registry.create`), less its own variables. */
export type SharedContext = Omit<ProviderContext, 'config' | 'dataDir'> & { config: KernelConfig };

/** Why a capability's provider is required, for the message of a missing variable. */
const CHOSEN_BY: Record<Capability, (id: string) => string> = {
  storage: (id) => `when STORAGE=${id}`,
  auth: (id) => `when AUTH_PROVIDER=${id}`,
  browser: (id) => `when BROWSER_ENGINE=${id}`,
  scheduler: (id) => `when SCHEDULER=${id}`,
  blob: (id) => `when BLOB_STORE=${id}`,
  queue: (id) => `when QUEUE=${id}`,
  ai: (id) => `when TASKLOOM_AI_SLOTS binds a slot to ${id}`,
  output: (id) => `for credentials of the output provider ${id}`,
  captcha: (id) => `when CAPTCHA_SOLVER=${id}`,
};

function parseVersion(version: unknown): { major: number; minor: number } | undefined {
  // A whole number is how providers written before minor versions say `N.0`.
  const match = typeof version === 'number' ? [String(version), String(version), '0'] : /^(\d+)\.(\d+)$/.exec(String(version));
  return match && Number.isInteger(Number(match[1])) ? { major: Number(match[1]), minor: Number(match[2]) } : undefined;
}

/** Why this taskloom cannot use a provider built for `version` of the capability's contract, or undefined. */
export function versionProblem(capability: Capability, version: unknown): string | undefined {
  const speaks = parseVersion(CONTRACT_VERSIONS[capability])!;
  const accepts = parseVersion(CONTRACT_ACCEPTS[capability])!;
  const built = parseVersion(version);
  const here = `this taskloom speaks ${capability} contract ${CONTRACT_VERSIONS[capability]}`;
  if (!built) return `declares contract version "${String(version)}"; expected major.minor, e.g. ${CONTRACT_VERSIONS[capability]}`;
  if (built.major !== speaks.major) {
    return `is built for ${capability} contract ${built.major}.${built.minor}, another major version: ${here}; use a release of it built for ${speaks.major}.x`;
  }
  if (built.minor > speaks.minor) return `is built for ${capability} contract ${built.major}.${built.minor}, newer than ${here}: upgrade taskloom`;
  if (built.minor < accepts.minor) return `is built for ${capability} contract ${built.major}.${built.minor}; ${here} and needs at least ${CONTRACT_ACCEPTS[capability]}`;
  return undefined;
}

/** Knows which providers exist for each capability and which plugins to mount, and creates providers. */
export class Registry {
  private readonly providers = new Map<Capability, Map<string, ProviderDefinition>>();
  private readonly pluginList: PluginDefinition[] = [];
  private readonly layerMap = new Map<Capability, LayerDefinition>();
  private shared: SharedContext | undefined;

  addProvider(definition: ProviderDefinition | LayerDefinition): void {
    if ('wrap' in definition) return this.addLayer(definition);
    if (!Object.hasOwn(CONTRACT_VERSIONS, definition.capability)) {
      throw new Error(`provider ${definition.id} names unknown capability "${definition.capability}"`);
    }
    const problem = versionProblem(definition.capability, definition.contractVersion);
    if (problem) throw new Error(`provider ${definition.capability}/${definition.id} ${problem}`);
    const byId = this.providers.get(definition.capability) ?? new Map<string, ProviderDefinition>();
    if (byId.has(definition.id)) throw new Error(`provider ${definition.capability}/${definition.id} is registered twice`);
    byId.set(definition.id, definition);
    this.providers.set(definition.capability, byId);
  }

  addLayer(definition: LayerDefinition): void {
    const other = this.layerMap.get(definition.capability);
    if (other) throw new Error(`layer ${definition.id} and layer ${other.id} both wrap the ${definition.capability} capability`);
    this.layerMap.set(definition.capability, definition);
  }

  layers(): LayerDefinition[] {
    return [...this.layerMap.values()];
  }

  addPlugin(definition: PluginDefinition): void {
    if (this.pluginList.some((p) => p.name === definition.name)) throw new Error(`plugin ${definition.name} is registered twice`);
    this.pluginList.push(definition);
  }

  addModule(module: TaskloomModule): void {
    for (const provider of module.providers ?? []) this.addProvider(provider);
    for (const plugin of module.plugins ?? []) this.addPlugin(plugin);
  }

  /** Imports modules by npm name or file path (relative to the working directory) and adds them. */
  async load(specifiers: readonly string[]): Promise<void> {
    for (const specifier of specifiers) {
      const target = specifier.startsWith('.') || path.isAbsolute(specifier)
        ? pathToFileURL(path.resolve(specifier)).href
        : specifier;
      const module = (await import(target)) as TaskloomModule & { default?: TaskloomModule };
      this.addModule(module.default ?? module);
    }
  }

  provider<C extends Capability>(capability: C, id: string): ProviderDefinition<C> {
    const definition = this.providers.get(capability)?.get(id);
    if (!definition) {
      const known = this.providerIds(capability).join(', ') || 'none';
      throw new Error(`no ${capability} provider "${id}" is registered (known: ${known})`);
    }
    return definition as ProviderDefinition<C>;
  }

  providerIds(capability: Capability): string[] {
    return [...(this.providers.get(capability)?.keys() ?? [])];
  }

  plugins(): readonly PluginDefinition[] {
    return this.pluginList;
  }

  /**
   * The context `create` gives every provider (the kernel sets it at start, and again with the storage once that
   * exists; a command such as `taskloom migrate` sets one per configuration it opens).
   */
  configure(shared: SharedContext): void {
    this.shared = shared;
  }

  /** Creates provider `id` of `capability` from the one context, with its own variables read out of the configuration. */
  async create<C extends Capability>(capability: C, id: string): Promise<CapabilityInstances[C]> {
    const shared = this.context(`${capability} provider ${id}`);
    const definition = this.provider(capability, id);
    const config = readModuleConfig(definition, shared.config.variables, { required: true, when: CHOSEN_BY[capability](id) });
    return definition.create({ ...shared, dataDir: shared.config.dataDir, config });
  }

  /** Provider `id` of `capability` as plugins get it (`app.services`): created, then wrapped by the capability's layer. */
  async service<C extends Capability>(capability: C, id: string): Promise<CapabilityServices[C]> {
    const layer = this.layerMap.get(capability) as LayerDefinition<C> | undefined;
    if (!layer && capability === 'browser') {
      throw new Error('no layer wraps the browser capability: the composition root registers one (the browser pool)');
    }
    const instance = await this.create(capability, id);
    if (!layer) return instance as unknown as CapabilityServices[C]; // no layer: the service is the instance (never browser)
    const shared = this.context(`layer ${layer.id}`);
    const config = readModuleConfig(layer, shared.config.variables, { required: true });
    return layer.wrap(instance, { ...shared, dataDir: shared.config.dataDir, config });
  }

  private context(what: string): SharedContext {
    if (!this.shared) throw new Error(`the registry has no context yet: cannot create ${what}`);
    return this.shared;
  }

  /** Each registered provider with whether the configuration chose it (its required variables must then be set). */
  *definitions(config: KernelConfig): Generator<{ definition: ProviderDefinition; chosen: boolean; when: string }> {
    const chosen: Partial<Record<Capability, string[]>> = {
      storage: [config.storage], auth: [config.authProvider], browser: [config.browserEngine], scheduler: [config.scheduler],
      blob: [config.blobStore], queue: [config.queue], ai: Object.values(config.aiSlots),
    };
    for (const [capability, byId] of this.providers) {
      for (const [id, definition] of byId) {
        yield { definition, chosen: chosen[capability]?.includes(id) ?? false, when: CHOSEN_BY[capability](id) };
      }
    }
  }
}
