import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { CONTRACT_VERSIONS, type Capability, type ProviderDefinition } from './contracts/provider.js';

/** An HTTP plugin contributed by a module: a Fastify plugin mounted under `prefix`. */
export interface PluginDefinition {
  name: string;
  /** Mount point, e.g. `/api/tasks`; omit to mount at the root. */
  prefix?: string;
  plugin: FastifyPluginAsync;
}

export function definePlugin(definition: PluginDefinition): PluginDefinition {
  return definition;
}

/** What a taskloom module (built-in or third-party) exports. */
export interface TaskloomModule {
  providers?: ProviderDefinition[];
  plugins?: PluginDefinition[];
}

/** Knows which providers exist for each capability and which plugins to mount. */
export class Registry {
  private readonly providers = new Map<Capability, Map<string, ProviderDefinition>>();
  private readonly pluginList: PluginDefinition[] = [];

  addProvider(definition: ProviderDefinition): void {
    const expected = CONTRACT_VERSIONS[definition.capability];
    if (expected === undefined) {
      throw new Error(`provider ${definition.id} names unknown capability "${definition.capability}"`);
    }
    if (definition.contractVersion !== expected) {
      throw new Error(
        `provider ${definition.capability}/${definition.id} speaks contract v${definition.contractVersion}; this taskloom speaks v${expected}`,
      );
    }
    const byId = this.providers.get(definition.capability) ?? new Map<string, ProviderDefinition>();
    if (byId.has(definition.id)) throw new Error(`provider ${definition.capability}/${definition.id} is registered twice`);
    byId.set(definition.id, definition);
    this.providers.set(definition.capability, byId);
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
  async load(specifiers: string[]): Promise<void> {
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
      const known = [...(this.providers.get(capability)?.keys() ?? [])].join(', ') || 'none';
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
}
