// Also `taskloom/plugin`, what a third-party plugin is written against: the typed route options (`config.auth`),
// `request.principal` and `app.services` come with it.
import type { FastifyPluginAsync } from 'fastify';
import type { ConfigSchema, Configurable, NoConfig } from './contracts/provider.js';
import './http/types.js';

export type { AuthPolicy, KernelServices, Principal } from './services.js';
export type { TaskloomModule } from './registry.js';

/**
 * An HTTP plugin contributed by a module: a Fastify plugin mounted under `prefix`. What it needs of other plugins
 * it names as fastify-plugin does, `fp(fn, { name, dependencies, decorators: { fastify: [...] } })`: the kernel
 * mounts it after the plugins that offer those (the order is computed, kernel/plugin-order.ts) and Fastify refuses
 * to start when one is missing. What it offers, it says in `decorates`. Its routes declare `config.auth`.
 */
export interface PluginDefinition<S extends ConfigSchema = NoConfig> extends Configurable<S> {
  name: string;
  /** Mount point, e.g. `/api/tasks`; omit to mount at the root. A fastify-plugin receives it as `options.prefix`. */
  prefix?: string;
  /** Registered with `{ prefix, config }`: `config` holds its variables when it has a `configSchema`. */
  plugin: FastifyPluginAsync<any>;
  /** The decorators it adds for every scope (with fastify-plugin): plugins that need one are mounted after it. */
  decorates?: readonly string[];
  /**
   * Decorators it uses when a plugin offers them, and does without otherwise: it reads them once the service is
   * ready (its onReady hook). Mounted after a plugin that `decorates` one.
   */
  uses?: readonly string[];
  /** It sees every route (an onRoute hook, a hook on every request): mounted before the plugins that add routes. */
  observesRoutes?: boolean;
}

export function definePlugin<S extends ConfigSchema = NoConfig>(definition: PluginDefinition<S>): PluginDefinition<S> {
  return definition;
}
