import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { DocumentStore, StorageProvider } from '../../kernel/contracts/storage.js';
import { makeBrowserState, makeCredential, makeHealing, makeSession, makeTask, makeUser, type CurrentHarness } from './harness.js';

/** How to exercise one DocumentStore generically: build a document, and read/write a text field of it. */
interface DocCase<T extends { id: string }> {
  name: string;
  /** Undefined for an optional store the provider leaves out. */
  store(storage: StorageProvider): DocumentStore<T> | undefined;
  make(): T;
  label(doc: T): string;
  withLabel(doc: T, label: string): T;
}

const cases: DocCase<any>[] = [
  { name: 'users', store: (s) => s.users, make: () => makeUser(), label: (d) => d.name, withLabel: (d, name) => ({ ...d, name }) },
  { name: 'sessions', store: (s) => s.sessions, make: () => makeSession(), label: (d) => d.userId, withLabel: (d, userId) => ({ ...d, userId }) },
  { name: 'tasks', store: (s) => s.tasks, make: () => makeTask(), label: (d) => d.name, withLabel: (d, name) => ({ ...d, name }) },
  { name: 'credentials', store: (s) => s.credentials, make: () => makeCredential(), label: (d) => d.name, withLabel: (d, name) => ({ ...d, name }) },
  // Optional (2.4): each task's fingerprints and repairs.
  {
    name: 'healing', store: (s) => s.healing, make: () => makeHealing(),
    label: (d) => d.fingerprints[0].selector, withLabel: (d, selector) => ({ ...d, fingerprints: [{ ...d.fingerprints[0], selector }] }),
  },
  // Optional (2.8): named browser states, keyed by name.
  { name: 'browserStates', store: (s) => s.browserStates, make: () => makeBrowserState(), label: (d) => d.source ?? '', withLabel: (d, source) => ({ ...d, source }) },
];

export function documentCases(current: CurrentHarness): void {
  for (const c of cases) documentStoreCases(current, c);
}

function documentStoreCases<T extends { id: string }>(current: CurrentHarness, c: DocCase<T>): void {
  const store = (): DocumentStore<T> => c.store(current().storage)!;
  /** A test of the store, skipped when the provider leaves an optional store out. */
  const check = (name: string, fn: (t: TestContext) => Promise<void>) => it(name, async (t) => {
    if (!c.store(current().storage)) {
      t.skip(`this provider has no ${c.name} store (optional in the contract)`);
      return;
    }
    await fn(t);
  });

  describe(`${c.name} (document store)`, () => {
    check('revision (when the provider offers it) changes with every change and only then', async (t) => {
      const revision = store().revision?.bind(store());
      if (!revision) {
        t.skip('this provider does not report a revision (optional in the contract)');
        return;
      }
      const doc = c.make();
      const r0 = await revision();
      assert.equal(await revision(), r0, 'unchanged without writes');
      await store().put(doc);
      const r1 = await revision();
      assert.notEqual(r1, r0);
      await store().list();
      assert.equal(await revision(), r1, 'reads do not change it');
      await store().update(doc.id, (d) => c.withLabel(d, 'changed'));
      const r2 = await revision();
      assert.notEqual(r2, r1);
      await store().delete(doc.id);
      assert.notEqual(await revision(), r2);
    });

    check('put resolves to the stored document and get returns it', async () => {
      const doc = c.make();
      assert.deepEqual(await store().put(doc), doc);
      assert.deepEqual(await store().get(doc.id), doc);
    });

    check('get of a missing id resolves undefined', async () => {
      await store().put(c.make());
      assert.equal(await store().get('no-such-id'), undefined);
    });

    check('list returns every document in insertion order', async () => {
      const docs = Array.from({ length: 5 }, () => c.make());
      for (const doc of docs) await store().put(doc);
      assert.deepEqual(await store().list(), docs);
    });

    check('put with an existing id replaces the document', async () => {
      const doc = c.make();
      await store().put(doc);
      const replaced = c.withLabel(doc, 'replaced');
      assert.deepEqual(await store().put(replaced), replaced);
      assert.deepEqual(await store().get(doc.id), replaced);
      assert.equal(await store().count(), 1);
      assert.deepEqual(await store().list(), [replaced]);
    });

    check('returns copies: mutating inputs or results changes nothing stored', async () => {
      const doc = c.make();
      const original = structuredClone(doc);
      const put = await store().put(doc);
      Object.assign(doc, c.withLabel(doc, 'mutated input'));
      Object.assign(put, c.withLabel(put, 'mutated put result'));
      const got = await store().get(original.id);
      assert.ok(got);
      Object.assign(got, c.withLabel(got, 'mutated get result'));
      const [listed] = await store().list();
      Object.assign(listed, c.withLabel(listed, 'mutated list result'));
      const updated = await store().update(original.id, (cur) => cur);
      assert.ok(updated);
      Object.assign(updated, c.withLabel(updated, 'mutated update result'));
      assert.deepEqual(await store().get(original.id), original);
    });

    check('update applies the change and resolves to the stored document', async () => {
      const doc = c.make();
      await store().put(doc);
      const updated = await store().update(doc.id, (cur) => c.withLabel(cur, 'changed'));
      assert.deepEqual(updated, c.withLabel(doc, 'changed'));
      assert.deepEqual(await store().get(doc.id), c.withLabel(doc, 'changed'));
    });

    check('update hands change a copy; returning undefined leaves the document unchanged', async () => {
      const doc = c.make();
      await store().put(doc);
      const result = await store().update(doc.id, (cur) => {
        Object.assign(cur, c.withLabel(cur, 'mutated in place'));
        return undefined;
      });
      assert.deepEqual(result, doc);
      assert.deepEqual(await store().get(doc.id), doc);
    });

    check('update of a missing id resolves undefined without calling change or storing anything', async () => {
      let calls = 0;
      const result = await store().update('no-such-id', (cur) => {
        calls += 1;
        return cur;
      });
      assert.equal(result, undefined);
      assert.equal(calls, 0);
      assert.equal(await store().count(), 0);
      assert.equal(await store().get('no-such-id'), undefined);
    });

    check('update rejects with the error change throws and stores nothing', async () => {
      const doc = c.make();
      await store().put(doc);
      const boom = new Error('change failed');
      await assert.rejects(
        store().update(doc.id, () => {
          throw boom;
        }),
        (error) => error === boom,
      );
      assert.deepEqual(await store().get(doc.id), doc);
    });

    check('50 concurrent updates lose no change', async () => {
      const doc = c.withLabel(c.make(), '0');
      await store().put(doc);
      await Promise.all(
        Array.from({ length: 50 }, () => store().update(doc.id, (cur) => c.withLabel(cur, String(Number(c.label(cur)) + 1)))),
      );
      const stored = await store().get(doc.id);
      assert.ok(stored);
      assert.equal(c.label(stored), '50');
    });

    check('delete removes the document and resolves true once', async () => {
      const [a, b] = [c.make(), c.make()];
      await store().put(a);
      await store().put(b);
      assert.equal(await store().delete(a.id), true);
      assert.equal(await store().delete(a.id), false);
      assert.equal(await store().get(a.id), undefined);
      assert.deepEqual(await store().list(), [b]);
    });

    check('count follows puts and deletes', async () => {
      assert.equal(await store().count(), 0);
      const docs = Array.from({ length: 3 }, () => c.make());
      await Promise.all(docs.map((doc) => store().put(doc)));
      assert.equal(await store().count(), 3);
      await store().delete(docs[1].id);
      assert.equal(await store().count(), 2);
    });
  });
}
