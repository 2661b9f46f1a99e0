// Every route, called by each role and each scope: generated from the route table (issue 24), not hand-listed.
// A caller who lacks the route's declared scope hears 403 naming it; one who holds it gets past the check (the
// bodies are empty and the ids made up, so a 400 or 404 is the route's own answer, which proves access passed).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Scope } from '../../kernel/contracts/records.js';
import { ROLE_SCOPES } from '../../layers/access-scopes/scopes.js';
import type { RouteEntry } from '../../kernel/http/route-policy.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { createKey, loginAs } from '../support/team.js';

interface Caller { name: string; scopes: readonly Scope[]; cookie?: string; apiKey?: string }

/** Bodies that pass no route's validation where it matters: setting the system key to a weak one is refused. */
const BODIES: Record<string, unknown> = { 'POST /api/settings/api-key': { apiKey: 'weak' } };

const pathOf = (route: RouteEntry) => route.url.replace(/:(\w+)/g, 'no-such-$1').replace(/\*$/, 'no-such-file');

describe('access: every route with each role and each scope', () => {
  let svc: TestService;
  const callers: Caller[] = [];
  let routes: RouteEntry[];

  before(async () => {
    svc = await startService();
    const admin = await setupAdmin(svc);
    // The spec's system key holds every scope (its setting route is sent a weak key below, so it stays the same).
    callers.push({ name: 'the system key', scopes: ROLE_SCOPES.admin, apiKey: admin.apiKey });
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      callers.push({ name: `role ${role}`, scopes: ROLE_SCOPES[role], cookie: await loginAs(svc, role) });
    }
    for (const scope of ['read', 'run', 'write', 'admin'] as const) {
      callers.push({ name: `key scoped ${scope}`, scopes: [scope], apiKey: (await createKey(svc, admin.cookie, { scopes: [scope] })).key });
    }
    // Logging out ends the caller's session: that route comes last.
    routes = svc.service.app.routeTable.filter((r) => r.auth !== 'public' && r.method !== 'HEAD')
      .sort((a, b) => Number(a.url === '/api/auth/logout') - Number(b.url === '/api/auth/logout'));
  });
  after(async () => { await svc.close(); });

  it('every non-public route declares a scope, and the table covers the whole API', () => {
    assert.ok(routes.length >= 100, `only ${routes.length} protected routes`);
    for (const route of routes) assert.ok(route.access, `${route.method} ${route.url} declares no scope`);
  });

  it('the API description names each protected operation\'s scope and lists its 403', async () => {
    const doc = (await svc.request('GET', '/api/openapi.json')).body;
    for (const route of routes.filter((r) => r.url.startsWith('/api/'))) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      assert.ok(op, `${route.method} ${path} is not described`);
      assert.match(op.description ?? '', new RegExp(`^Needs the \`${route.access}\` scope\\.`), `${route.method} ${path}`);
      assert.ok(op.responses['403'], `${route.method} ${path} lists no 403`);
    }
  });

  it('answers 403 naming the scope exactly where the caller lacks it, and gets past the check otherwise', async () => {
    let refused = 0, passed = 0;
    for (const caller of callers) {
      for (const route of routes) {
        const label = `${caller.name}: ${route.method} ${route.url} (needs ${route.access})`;
        const key = `${route.method} ${route.url}`;
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : BODIES[key] ?? {};
        const res = await svc.request(route.method, pathOf(route), { cookie: caller.cookie, apiKey: caller.apiKey, body });
        // A route for one kind of credential refuses the other kind whatever its scopes (the spec's rule).
        const wrongKind = (route.auth === 'session' && caller.apiKey) || (route.auth === 'apiKey' && caller.cookie);
        if (!caller.scopes.includes(route.access!)) {
          assert.equal(res.status, 403, `${label}: answered ${res.status} ${res.text.slice(0, 200)}`);
          assert.equal(res.body.error, 'FORBIDDEN', label);
          if (!wrongKind) assert.match(res.body.details, new RegExp(`"${route.access}" scope`), label);
          refused++;
        } else if (wrongKind) {
          assert.equal(res.status, 403, `${label}: the wrong kind of credential answered ${res.status}`);
          assert.doesNotMatch(res.body.details, /scope/, label);
        } else {
          assert.notEqual(res.status, 403, `${label}: refused although held: ${res.text.slice(0, 200)}`);
          assert.notEqual(res.status, 401, `${label}: ${res.text.slice(0, 200)}`);
          passed++;
        }
      }
    }
    console.log(`# ${callers.length} callers x ${routes.length} routes: ${refused} refused for their scope, ${passed} let through`);
    assert.ok(refused > 100 && passed > 100);
  });
});
