// JSON nested 5,000 levels deep: task variables that deep were accepted and overflowed the stack when stored
// (500 INTERNAL_ERROR). Every JSON body, in every scope, is now refused past 100 levels with 400 VALIDATION_ERROR,
// before it is parsed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../layers/json-depth/json-depth.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';

const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const task = (variable: string) => `{"name":"deep","url":"https://example.com/","mode":"scrape","actions":[],"variables":{"v":${variable}}}`;

describe('JSON nesting depth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    assert.equal(nestsDeeperThan(arrays(100), 100), false);
    assert.equal(nestsDeeperThan(arrays(101), 100), true);
    assert.equal(nestsDeeperThan(objects(101), 100), true);
    assert.equal(nestsDeeperThan(`["${'['.repeat(500)}", "\\"[[[", {"k": "{{{{"}]`, 3), false);
    assert.equal(nestsDeeperThan('[1, [2], [3, [4]]]', 3), false);
  });

  describe('over HTTP', () => {
    let svc: TestService;
    let apiKey: string;
    const post = (url: string, raw: string, key: string | undefined = apiKey) =>
      svc.request('POST', url, { raw, apiKey: key, headers: { 'content-type': 'application/json' } });

    before(async () => {
      svc = await startService();
      ({ apiKey } = await setupAdmin(svc));
    });
    after(async () => { await svc.close(); });

    it('the attack: a task whose variables nest 5,000 levels deep gets 400, not 500', async () => {
      for (const variable of [objects(5000), arrays(5000)]) {
        const res = await post('/api/tasks', task(variable));
        assert.equal(res.status, 400, res.text.slice(0, 200));
        assert.equal(res.body.error, 'VALIDATION_ERROR');
        assert.match(res.body.details, new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
      }
      assert.deepEqual((await svc.request('GET', '/api/tasks/list', { apiKey })).body.tasks, []);
    });

    it('refuses it in every scope: the run endpoint\'s own parser, a public route, an anonymous caller', async () => {
      const created = await post('/api/tasks', task('1'));
      assert.equal(created.status, 200, created.text);
      const deep = `{"variables":{"v":${arrays(5000)}}}`;
      for (const [url, key] of [[`/api/tasks/${created.body.id}/api`, apiKey], ['/api/auth/login', undefined], ['/api/settings/theme', undefined]] as const) {
        const res = await post(url, deep, key);
        assert.deepEqual([res.status, res.body.error], [400, 'VALIDATION_ERROR'], url);
      }
      // A body the size of the limit, nested all the way, is refused as fast as any other.
      const huge = await post('/api/tasks', arrays(2_500_000));
      assert.deepEqual([huge.status, huge.body.error], [400, 'VALIDATION_ERROR']);
    });

    it('keeps nesting up to the limit, prototype-poisoning checks and other JSON errors as they were', async () => {
      // body 1 + variables 1 + v 1 + 97 = 100 levels
      const atLimit = await post('/api/tasks', task(arrays(97)));
      assert.equal(atLimit.status, 200, atLimit.text.slice(0, 200));
      const poisoned = await post('/api/tasks', '{"__proto__":{"admin":true}}');
      assert.deepEqual([poisoned.status, poisoned.body.error], [400, 'VALIDATION_ERROR']);
      const broken = await post('/api/tasks', '{"name":');
      assert.deepEqual([broken.status, broken.body.error], [400, 'VALIDATION_ERROR']);
    });
  });
});
