// The bar every blob store meets. A provider's test (ours or a third party's) calls
// `blobContract('my-store', factory)` with a factory that opens a fresh, empty store of its own;
// test/providers/blob/disk.test.ts is the worked example.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { BlobInfo, BlobStore } from '../kernel/contracts/blob.js';
import { Errors } from '../kernel/errors.js';

export interface BlobHarness {
  /** A fresh store holding nothing. */
  store: BlobStore;
  /** A second store on the same place, as another instance of the service opens it. */
  openSecond(): Promise<BlobStore>;
  /** Closes what the harness opened and removes what it made. */
  cleanup(): Promise<void>;
}

export type BlobHarnessFactory = () => Promise<BlobHarness>;

/** Large enough to take several chunks or parts in every store (S3 multipart starts at 5 MiB). */
const LARGE = 6 * 1024 * 1024 + 12_345;

/** `bytes` as a stream of 64 KiB pieces, failing with `failAt` bytes sent when given. */
function streamOf(bytes: Buffer, failAt?: number): Readable {
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += 65_536) {
      if (failAt !== undefined && at >= failAt) throw new Error('the source failed mid-way');
      yield bytes.subarray(at, at + 65_536);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return Readable.from(pieces(), { objectMode: false });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const names = (list: BlobInfo[]) => list.map((info) => info.name).sort();
const invalid = (error: unknown) => Errors.VALIDATION_ERROR.is(error);

export function blobContract(storeName: string, factory: BlobHarnessFactory): void {
  describe(`blob contract: ${storeName}`, () => {
    let harness: BlobHarness;
    let store: BlobStore;
    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
    });
    afterEach(() => harness.cleanup());

    it('stores bytes and gives them back with their size, type and time; stat and list agree', async () => {
      const data = randomBytes(1000);
      const before = Date.now();
      const put = await store.put('exec_1_1.png', data, { contentType: 'image/png' });
      const afterPut = Date.now();
      assert.equal(put.name, 'exec_1_1.png');
      assert.equal(put.size, 1000);
      assert.ok(Number.isInteger(put.modifiedMs), 'modifiedMs is whole milliseconds');
      // Some stores keep whole seconds only (S3's Last-Modified).
      assert.ok(put.modifiedMs >= before - 1000 && put.modifiedMs <= afterPut + 1000, `modifiedMs ${put.modifiedMs} is not the time of the put`);
      const got = await store.get('exec_1_1.png');
      assert.ok(got, 'get found the blob');
      assert.deepEqual(await readAll(got.stream), data);
      assert.deepEqual({ name: got.name, size: got.size, modifiedMs: got.modifiedMs, contentType: got.contentType },
        { ...put, contentType: 'image/png' });
      assert.deepEqual(await store.stat('exec_1_1.png'), put);
      assert.deepEqual(await store.list(), [put]);
    });

    it('keeps the media type given to put', async () => {
      const types = [['a_1.webm', 'video/webm'], ['a_2.jpg', 'image/jpeg'], ['a_3.png', 'image/png']] as const;
      for (const [name, contentType] of types) await store.put(name, Buffer.from(name), { contentType });
      for (const [name, contentType] of types) {
        const got = await store.get(name);
        assert.equal(got?.contentType, contentType, name);
        assert.equal((await readAll(got!.stream)).toString(), name);
      }
    });

    it('answers undefined and false for a blob that does not exist', async () => {
      assert.equal(await store.get('missing_1.png'), undefined);
      assert.equal(await store.stat('missing_1.png'), undefined);
      assert.equal(await store.delete('missing_1.png'), false);
      await store.deleteMany(['missing_1.png', 'missing_2.png']);
      await store.deleteMany([]);
      assert.deepEqual(await store.list(), []);
    });

    it('stores an empty blob', async () => {
      const put = await store.put('empty_1.png', new Uint8Array(0), { contentType: 'image/png' });
      assert.equal(put.size, 0);
      const got = await store.get('empty_1.png');
      assert.equal(got?.size, 0);
      assert.equal((await readAll(got!.stream)).length, 0);
    });

    it('replaces a blob of the same name', async () => {
      await store.put('same_1.png', Buffer.from('first version'), { contentType: 'image/png' });
      const second = await store.put('same_1.png', Buffer.from('second'), { contentType: 'image/png' });
      assert.equal(second.size, 6);
      assert.equal((await readAll((await store.get('same_1.png'))!.stream)).toString(), 'second');
      assert.deepEqual(await store.list(), [second]);
    });

    it('stores a large stream and streams it back whole', async () => {
      const data = randomBytes(LARGE);
      const put = await store.put('video_1.webm', streamOf(data), { contentType: 'video/webm' });
      assert.equal(put.size, LARGE);
      const got = await store.get('video_1.webm');
      assert.equal(got?.size, LARGE);
      assert.ok(got!.stream instanceof Readable, 'get gives a stream');
      assert.equal(sha(await readAll(got!.stream)), sha(data));
    });

    it('stores nothing when the stream fails, and keeps the blob it would have replaced', async () => {
      await store.put('kept_1.webm', Buffer.from('the old one'), { contentType: 'video/webm' });
      const data = randomBytes(LARGE);
      await assert.rejects(store.put('kept_1.webm', streamOf(data, 3 * 1024 * 1024), { contentType: 'video/webm' }), /failed mid-way/);
      await assert.rejects(store.put('new_1.webm', streamOf(data, 1024 * 1024), { contentType: 'video/webm' }), /failed mid-way/);
      assert.equal(await store.stat('new_1.webm'), undefined);
      assert.equal((await readAll((await store.get('kept_1.webm'))!.stream)).toString(), 'the old one');
      assert.deepEqual(names(await store.list()), ['kept_1.webm']);
    });

    it('a reader that stops early leaves the store working', async () => {
      await store.put('big_1.webm', streamOf(randomBytes(LARGE)), { contentType: 'video/webm' });
      for (let i = 0; i < 15; i++) {
        const got = await store.get('big_1.webm');
        for await (const chunk of got!.stream) {
          assert.ok((chunk as Uint8Array).length > 0);
          break; // destroys the stream
        }
      }
      assert.equal((await store.stat('big_1.webm'))?.size, LARGE);
      await store.put('after_1.png', Buffer.from('still writable'), { contentType: 'image/png' });
      assert.equal((await readAll((await store.get('after_1.png'))!.stream)).toString(), 'still writable');
    });

    it('lists by prefix, read literally (no wildcard, no pattern)', async () => {
      for (const name of ['a_1.png', 'a_2.jpg', 'ab_1.png', 'aXb_1.png', 'b_1.png', 'a.b_1.png']) {
        await store.put(name, Buffer.from(name), { contentType: 'image/png' });
      }
      assert.deepEqual(names(await store.list('a_')), ['a_1.png', 'a_2.jpg']);
      assert.deepEqual(names(await store.list('a.')), ['a.b_1.png']);
      assert.deepEqual(names(await store.list('a')), ['a.b_1.png', 'aXb_1.png', 'a_1.png', 'a_2.jpg', 'ab_1.png'].sort());
      assert.deepEqual(names(await store.list('')), ['a.b_1.png', 'aXb_1.png', 'a_1.png', 'a_2.jpg', 'ab_1.png', 'b_1.png'].sort());
      for (const prefix of ['a%', '%', 'a*', '.*', 'a[', '../a', 'zzz']) assert.deepEqual(await store.list(prefix), [], prefix);
      const one = (await store.list('b_'))[0]!;
      assert.deepEqual(one, await store.stat('b_1.png'));
    });

    it('deletes one blob, and many at once (more than one request of 1000 holds)', async () => {
      await store.put('gone_1.png', Buffer.from('x'), { contentType: 'image/png' });
      await store.put('stays_1.png', Buffer.from('y'), { contentType: 'image/png' });
      assert.equal(await store.delete('gone_1.png'), true);
      assert.equal(await store.get('gone_1.png'), undefined);
      assert.equal(await store.delete('gone_1.png'), false);
      const many = Array.from({ length: 1003 }, (_, i) => `many_${i}.png`);
      for (let at = 0; at < many.length; at += 25) {
        await Promise.all(many.slice(at, at + 25).map((name) => store.put(name, Buffer.from(name), { contentType: 'image/png' })));
      }
      assert.equal((await store.list('many_')).length, 1003);
      await store.deleteMany([...many, 'never_1.png']);
      assert.deepEqual(names(await store.list()), ['stays_1.png']);
    });

    it('refuses names that are not flat blob names', async () => {
      const bad = ['', '.hidden', '../x_1.png', 'a/b_1.png', 'a\\b_1.png', 'a\0b', 'x'.repeat(256), 'a b.png', 'ä_1.png'];
      for (const name of bad) {
        const label = JSON.stringify(name);
        await assert.rejects(store.put(name, Buffer.from('x'), { contentType: 'image/png' }), invalid, `put ${label}`);
        await assert.rejects(store.get(name), invalid, `get ${label}`);
        await assert.rejects(store.stat(name), invalid, `stat ${label}`);
        await assert.rejects(store.delete(name), invalid, `delete ${label}`);
        await assert.rejects(store.deleteMany(['ok_1.png', name]), invalid, `deleteMany ${label}`);
      }
      await store.put('x'.repeat(255), Buffer.from('longest'), { contentType: 'application/octet-stream' });
      assert.deepEqual(names(await store.list()), ['x'.repeat(255)]);
    });

    it('is shared by another instance on the same place: what one writes the other reads and deletes', async () => {
      const other = await harness.openSecond();
      try {
        const data = randomBytes(70_000);
        const put = await store.put('shared_1.png', data, { contentType: 'image/png' });
        const got = await other.get('shared_1.png');
        assert.deepEqual(await readAll(got!.stream), data);
        assert.deepEqual(await other.list('shared_'), [put]);
        assert.equal(await other.delete('shared_1.png'), true);
        assert.equal(await store.get('shared_1.png'), undefined);
      } finally {
        await other.close();
      }
    });

    it('close is idempotent', async () => {
      const other = await harness.openSecond();
      await other.close();
      await other.close();
    });
  });
}
