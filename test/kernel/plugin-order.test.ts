// One wiring rule between plugins: each names what it needs (fastify-plugin dependencies and decorators, or a
// decorator it uses when offered) and what it offers; the kernel computes the mount order from that, so the order
// the composition lists them in does not matter, and a missing need stops start-up naming it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fp from 'fastify-plugin';
import { plugins, providers } from '../../app/built-ins.js';
import { definePlugin, type PluginDefinition } from '../../kernel/plugin.js';
import { orderPlugins } from '../../kernel/plugin-order.js';
import { Registry } from '../../kernel/registry.js';
import { startService } from '../support/service.js';

interface Meta { name?: string; dependencies?: string[]; decorators?: { fastify?: string[] } }
const metaOf = (p: PluginDefinition): Meta => (p.plugin as unknown as Record<symbol, Meta>)[Symbol.for('plugin-meta')] ?? {};

/** Every ordering rule that `order` must keep, as broken ones ("a before b"). */
function broken(order: readonly PluginDefinition[]): string[] {
  const at = (p: PluginDefinition) => order.indexOf(p);
  const problems: string[] = [];
  for (const p of order) {
    const meta = metaOf(p);
    for (const other of order) {
      if (other === p) continue;
      const offers = [...(meta.decorators?.fastify ?? []), ...(p.uses ?? [])].some((d) => other.decorates?.includes(d));
      const named = meta.dependencies?.includes(metaOf(other).name ?? '') ?? false;
      if ((offers || named || (other.observesRoutes && !p.observesRoutes)) && at(other) > at(p)) problems.push(`${other.name} before ${p.name}`);
    }
  }
  return problems;
}

function registryOf(list: PluginDefinition[]): Registry {
  const registry = new Registry();
  registry.addModule({ providers, plugins: list });
  return registry;
}

describe('plugin order', () => {
  it('mounts every plugin after what it needs and the route observers first, whatever order they are listed in', () => {
    for (const list of [plugins, [...plugins].reverse(), [...plugins].sort((a, b) => (a.name.length - b.name.length) || b.name.localeCompare(a.name))]) {
      const order = orderPlugins(list);
      assert.equal(order.length, list.length);
      assert.deepEqual(broken(order), [], list.map((p) => p.name).join(','));
    }
    const names = orderPlugins([...plugins].reverse()).map((p) => p.name);
    assert.ok(names.indexOf('executions') < names.indexOf('runs') && names.indexOf('runs') < names.indexOf('schedules'));
    assert.ok(names.indexOf('instances') < names.indexOf('executions') && names.indexOf('data') < names.indexOf('retention'));
    assert.deepEqual(names.slice(0, 3).sort(), ['http-metrics', 'openapi', 'tracing']);
  });

  it('keeps the listed order where nothing is needed', () => {
    const a = definePlugin({ name: 'a', plugin: async () => {} });
    const b = definePlugin({ name: 'b', plugin: async () => {} });
    assert.deepEqual(orderPlugins([b, a]).map((p) => p.name), ['b', 'a']);
  });

  it('refuses plugins that need each other, naming them', () => {
    const a = definePlugin({ name: 'a', decorates: ['x'], plugin: fp(async () => {}, { name: 'a', decorators: { fastify: ['y'] } }) });
    const b = definePlugin({ name: 'b', decorates: ['y'], plugin: fp(async () => {}, { name: 'b', decorators: { fastify: ['x'] } }) });
    assert.throws(() => orderPlugins([a, b]), /plugins a, b need each other in a cycle/);
  });

  it('starts the service from the built-in plugins listed backwards', async () => {
    const svc = await startService({}, undefined, { registry: registryOf([...plugins].reverse()) });
    try {
      const health = await svc.request('GET', '/api/health');
      assert.equal(health.status, 200);
      const document = await svc.request('GET', '/api/openapi.json');
      assert.ok(Object.keys(document.body.paths).includes('/api/schedules/status/all'), 'the document saw the routes of later plugins');
    } finally {
      await svc.close();
    }
  });

  it('stops start-up naming what a plugin needs when no plugin offers it', async () => {
    const withoutRuns = plugins.filter((p) => p.name !== 'runs');
    await assert.rejects(startService({}, undefined, { registry: registryOf(withoutRuns) }),
      /The decorator 'taskRuns' required by 'taskloom-schedules' is not present in Fastify/);
  });
});
