import type { FastifyPluginAsync } from 'fastify';
import type { ConfigSchema, Configurable, NoConfig } from './contracts/provider.js';

/** An HTTP plugin contributed by a module: a Fastify plugin mounted under `prefix`. */
export interface PluginDefinition<S extends ConfigSchema = NoConfig> extends Configurable<S> {
  name: string;
  /** Mount point, e.g. `/api/tasks`; omit to mount at the root. */
  prefix?: string;
  plugin: FastifyPluginAsync<any>;
}

export function definePlugin<S extends ConfigSchema = NoConfig>(definition: PluginDefinition<S>): PluginDefinition<S> {
  return definition;
}
