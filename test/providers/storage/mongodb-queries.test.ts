import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimPipeline } from '../../../providers/storage/mongodb/claim-store.js';
import { NEWEST_FIRST, executionFields, executionFind } from '../../../providers/storage/mongodb/execution-query.js';
import { INDEXES } from '../../../providers/storage/mongodb/indexes.js';
import { parseMongoUrl, scrub } from '../../../providers/storage/mongodb/mongo-url.js';
import { emailLowerOf } from '../../../providers/storage/shared/user-email.js';
import { at, makeExecution, makeUser } from '../../../testing/storage/harness.js';

/** Pure pieces of the MongoDB provider: they run without a server. */
describe('mongodb execution queries', () => {
  it('maps an empty query to every record, newest first, unpaged', () => {
    assert.deepEqual(executionFind(), { filter: {}, sort: { startedAt: -1, seq: -1 }, skip: 0, limit: undefined });
  });

  it('maps status, taskId and an inclusive from/to range to a filter on the copied fields', () => {
    const found = executionFind({ status: 'error', taskId: 'task-1', from: at(2), to: at(5), limit: 50, offset: 100 });
    assert.deepEqual(found, {
      filter: { status: 'error', taskId: 'task-1', startedAt: { $gte: new Date(at(2)), $lte: new Date(at(5)) } },
      sort: NEWEST_FIRST,
      skip: 100,
      limit: 50,
    });
    assert.deepEqual(executionFind({ from: at(7) }).filter, { startedAt: { $gte: new Date(at(7)) } });
    assert.deepEqual(executionFind({ to: at(1) }).filter, { startedAt: { $lte: new Date(at(1)) } });
  });

  it('keeps limit 0 (the store answers [] itself: the driver reads 0 as "no limit")', () => {
    assert.equal(executionFind({ limit: 0 }).limit, 0);
  });

  it('ignores limit and offset for count', () => {
    assert.deepEqual(executionFind({ status: 'running', limit: 3, offset: 9 } as never, false), { filter: { status: 'running' }, sort: NEWEST_FIRST, skip: 0, limit: undefined });
  });

  it('rejects bad bounds and pages with a message naming the field', () => {
    assert.throws(() => executionFind({ from: 'yesterday' }), /executions: from must be an ISO timestamp, got "yesterday"/);
    assert.throws(() => executionFind({ to: '' }), /executions: to must be an ISO timestamp/);
    assert.throws(() => executionFind({ limit: -1 }), /executions: limit must be a whole number >= 0, got -1/);
    assert.throws(() => executionFind({ offset: 1.5 }), /executions: offset must be a whole number >= 0, got 1.5/);
  });

  it('matches a trigger in the summary JSON (older documents have no field of it), never inside a task name', () => {
    const { summary } = executionFind({ trigger: 'schedule' }).filter as { summary: { $regex: string } };
    const matches = (overrides: Parameters<typeof makeExecution>[0]) => new RegExp(summary.$regex).test(executionFields(makeExecution(overrides)).summary as string);
    assert.equal(matches({ trigger: 'schedule' }), true);
    assert.equal(matches({ trigger: 'api' }), false);
    assert.equal(matches({ trigger: 'api', taskName: '"trigger":"schedule",' }), false);
    assert.throws(() => executionFind({ trigger: 'a.*' as never }), /executions: trigger must be a word/);
  });

  it('matches an outcome in the summary JSON, or the status of the same name when the record has none (older records)', () => {
    // The operators the filter uses, evaluated as MongoDB does over the copied fields.
    const evaluate = (doc: Record<string, unknown>, filter: Record<string, unknown>): boolean => Object.entries(filter).every(([key, condition]) => {
      if (key === '$and') return (condition as Record<string, unknown>[]).every((part) => evaluate(doc, part));
      if (key === '$or') return (condition as Record<string, unknown>[]).some((part) => evaluate(doc, part));
      const value = doc[key];
      if (typeof condition === 'string') return value === condition;
      const { $regex, $not } = condition as { $regex?: string; $not?: RegExp };
      if ($regex !== undefined) return new RegExp($regex).test(String(value));
      return !$not!.test(String(value));
    });
    const matches = (query: Parameters<typeof executionFind>[0], overrides: Parameters<typeof makeExecution>[0]) =>
      evaluate(executionFields(makeExecution(overrides)), executionFind(query).filter as Record<string, unknown>);
    assert.equal(matches({ outcome: 'anti_bot' }, { status: 'error', outcome: 'anti_bot' }), true);
    assert.equal(matches({ outcome: 'error' }, { status: 'error', outcome: 'anti_bot' }), false);
    assert.equal(matches({ outcome: 'error' }, { status: 'error' }), true);
    assert.equal(matches({ outcome: 'anti_bot' }, { status: 'error', taskName: '"outcome":"anti_bot"' }), false);
    assert.equal(matches({ outcome: 'stopped', trigger: 'api' }, { status: 'success', outcome: 'stopped', trigger: 'api' }), true);
    assert.equal(matches({ outcome: 'stopped', trigger: 'schedule' }, { status: 'success', outcome: 'stopped', trigger: 'api' }), false);
    assert.throws(() => executionFind({ outcome: 'a|b' as never }), /executions: outcome must be a word/);
    // Contract 2.7: `changed` true or false in the summary JSON; a record without it matches neither.
    assert.equal(matches({ changed: true }, { status: 'success', changed: true }), true);
    assert.equal(matches({ changed: false }, { status: 'success', changed: true }), false);
    assert.equal(matches({ changed: false }, { status: 'success', changed: false }), true);
    assert.equal(matches({ changed: false }, { status: 'success' }), false);
    assert.equal(matches({ changed: true }, { status: 'success', taskName: '"changed":true' }), false);
    assert.equal(matches({ changed: true, outcome: 'success' }, { status: 'success', outcome: 'success', changed: true }), true);
  });

  it('copies the queryable fields of a record, with its summary as JSON', () => {
    const record = makeExecution({ status: 'running', taskId: 'task-9', startedAt: at(3) });
    const fields = executionFields(record);
    assert.deepEqual(fields.startedAt, new Date(at(3)));
    assert.equal(fields.status, 'running');
    assert.equal(fields.taskId, 'task-9');
    const { executionId, taskId, taskName, status, trigger, startedAt, durationMs } = record;
    assert.deepEqual(JSON.parse(fields.summary as string), { executionId, taskId, taskName, status, trigger, startedAt, durationMs });
    assert.deepEqual(executionFields(makeExecution({ startedAt: 'not a date' })).startedAt, new Date(0));
  });
});

describe('mongodb indexes', () => {
  const keysOf = (collection: string) => INDEXES[collection].map((index) => JSON.stringify(index.key));

  it('every history query has an index in its sort order: all, by status, by task', () => {
    for (const filter of [{}, { status: 'error' as const }, { taskId: 'task-1' }]) {
      const { filter: mongoFilter, sort } = executionFind(filter);
      const key = JSON.stringify({ ...Object.fromEntries(Object.keys(mongoFilter).map((field) => [field, 1])), ...(sort as Record<string, 1 | -1>) });
      assert.ok(keysOf('executions').includes(key), `an index ${key} on executions`);
    }
  });

  it('users are unique by emailLower, ignoring users without an email', () => {
    const index = INDEXES.users.find((i) => JSON.stringify(i.key) === '{"emailLower":1}');
    assert.equal(index?.unique, true);
    assert.deepEqual(index?.partialFilterExpression, { emailLower: { $type: 'string' } });
    assert.equal(emailLowerOf(makeUser({ email: 'Ada@Example.COM' })), 'ada@example.com');
  });

  it('keeps insertion order and expiry indexed; expired claims are dropped by a TTL index', () => {
    for (const collection of ['users', 'sessions', 'tasks', 'credentials']) assert.ok(keysOf(collection).includes('{"seq":1}'), collection);
    assert.ok(keysOf('sessions').includes('{"expiresAtMs":1}'));
    assert.deepEqual(INDEXES.claims, [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }]);
  });
});

describe('mongodb claim update', () => {
  it('takes the claim only when it is free, on the server clock, with the owner as a literal', () => {
    const [stage] = claimPipeline('$owner-looks-like-a-path', 60_000, 'token-1');
    const free = { $not: [{ $gt: ['$expiresAt', '$$NOW'] }] };
    assert.deepEqual(stage, {
      $set: {
        owner: { $cond: [free, { $literal: '$owner-looks-like-a-path' }, '$owner'] },
        token: { $cond: [free, { $literal: 'token-1' }, '$token'] },
        expiresAt: { $cond: [free, { $add: ['$$NOW', 60_000] }, '$expiresAt'] },
      },
    });
  });
});

describe('mongodb urls', () => {
  it('names hosts and database without credentials, for one host, several and srv', () => {
    assert.deepEqual(parseMongoUrl('mongodb://app:pw@db1:27017,db2:27017/taskloom?replicaSet=rs0'), { hosts: 'db1:27017,db2:27017', database: 'taskloom', secrets: ['pw'] });
    assert.deepEqual(parseMongoUrl('mongodb+srv://cluster0.example.net'), { hosts: 'cluster0.example.net', database: undefined, secrets: [] });
    assert.deepEqual(parseMongoUrl('mongodb://user@localhost/'), { hosts: 'localhost', database: undefined, secrets: [] });
    assert.equal(parseMongoUrl('not a url').hosts, '(unparseable MONGODB_URL)');
  });

  it('scrubs every spelling of a password with special characters', () => {
    const { secrets } = parseMongoUrl('mongodb://app:p%40ss%2Fw0rd@db:27017/x');
    const text = 'failed for p@ss/w0rd, p%40ss%2Fw0rd and p%40ss%2Fw0rd again';
    assert.equal(scrub(text, secrets), 'failed for ***, *** and *** again');
  });
});
