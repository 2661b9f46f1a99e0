import type { PluginDefinition } from './plugin.js';

/** What fastify-plugin records on a plugin it wraps. */
interface PluginMeta {
  name?: string;
  dependencies?: string[];
  decorators?: { fastify?: string[] };
}

const metaOf = (definition: PluginDefinition): PluginMeta =>
  ((definition.plugin as unknown as Record<symbol, PluginMeta | undefined>)[Symbol.for('plugin-meta')]) ?? {};

/**
 * The order to mount `plugins` in, computed from what each names: after the plugins it depends on (their
 * fastify-plugin names) and after those that offer the decorators it needs or uses; observers of every route
 * before the plugins that add routes. Otherwise the given order holds. A need no plugin here offers is left to
 * Fastify (the kernel's own, or a plugin that does not say what it decorates); a cycle is refused, naming it.
 */
export function orderPlugins(plugins: readonly PluginDefinition[]): PluginDefinition[] {
  const metas = plugins.map(metaOf);
  const before = plugins.map(() => new Set<number>());
  plugins.forEach((plugin, i) => {
    const meta = metas[i]!;
    for (const name of meta.dependencies ?? []) metas.forEach((other, j) => { if (other.name === name && j !== i) before[i]!.add(j); });
    for (const decorator of [...(meta.decorators?.fastify ?? []), ...(plugin.uses ?? [])]) {
      plugins.forEach((other, j) => { if (j !== i && other.decorates?.includes(decorator)) before[i]!.add(j); });
    }
    if (!plugin.observesRoutes) plugins.forEach((other, j) => { if (other.observesRoutes) before[i]!.add(j); });
  });
  const placed = new Set<number>();
  const order: PluginDefinition[] = [];
  while (order.length < plugins.length) {
    // The first plugin, in the given order, whose predecessors are all placed.
    const next = plugins.findIndex((_, i) => !placed.has(i) && [...before[i]!].every((j) => placed.has(j)));
    if (next < 0) {
      const stuck = plugins.filter((_, i) => !placed.has(i)).map((plugin) => plugin.name);
      throw new Error(`plugins ${stuck.join(', ')} need each other in a cycle: no order can mount them`);
    }
    placed.add(next);
    order.push(plugins[next]!);
  }
  return order;
}
