import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { inspect } from 'node:util';
import type { BlobStore } from '../../../kernel/contracts/blob.js';
import { loadConfig } from '../../../kernel/config.js';
import { checkConfig } from '../../../kernel/module-config.js';
import { Registry } from '../../../kernel/registry.js';
import { builtIns } from '../../../app/built-ins.js';
import { s3BlobStore } from '../../../providers/blob/s3/index.js';
import { blobContract } from '../../../testing/blob.contract.js';
import { createRecordingLogger } from '../../../testing/loggers.js';
import { startS3StandIn, type S3StandIn } from '../../stand-ins/s3.js';

/** The s3 store as the kernel creates it (through its configSchema's variables), against `standIn`. */
async function openStore(standIn: S3StandIn, bucket: string, overrides: Record<string, string> = {}, logger = createRecordingLogger()): Promise<BlobStore> {
  const variables = {
    BLOB_STORE: 's3', S3_ENDPOINT: standIn.url, S3_BUCKET: bucket, S3_REGION: standIn.region,
    AWS_ACCESS_KEY_ID: standIn.accessKeyId, AWS_SECRET_ACCESS_KEY: standIn.secretAccessKey, LOG_LEVEL: 'silent', ...overrides,
  };
  const registry = new Registry();
  registry.addModule(builtIns);
  const config = loadConfig(variables);
  registry.configure({ config, logger, outbound: undefined as never, signal: new AbortController().signal });
  return registry.create('blob', 's3');
}

blobContract('s3 (a local stand-in of the S3 wire protocol)', async () => {
  const standIn = await startS3StandIn();
  const store = await openStore(standIn, 'taskloom-blobs');
  return {
    store,
    openSecond: () => openStore(standIn, 'taskloom-blobs'),
    async cleanup() {
      await store.close();
      await standIn.close();
    },
  };
});

describe('blob store: s3', () => {
  let standIn: S3StandIn;
  const logger = createRecordingLogger();
  const secretSeen = (text: string) => text.includes(standIn.secretAccessKey);
  before(async () => {
    standIn = await startS3StandIn({ region: 'eu-central-1' });
  });
  after(() => standIn.close());
  beforeEach(() => standIn.reset());

  it('creates its bucket when missing, and signs every request with the configured credentials', async () => {
    const store = await openStore(standIn, 'made-at-start', {}, logger);
    try {
      assert.deepEqual(standIn.operations, ['HeadBucket', 'CreateBucket']);
      await store.put('exec_1_1.png', Buffer.from('png bytes'), { contentType: 'image/png' });
      const object = standIn.buckets.get('made-at-start')!.get('exec_1_1.png')!;
      assert.deepEqual([object.body.toString(), object.contentType], ['png bytes', 'image/png']);
    } finally {
      await store.close();
    }
  });

  it('sends a short stream as one PutObject and a long one as a multipart upload', async () => {
    const store = await openStore(standIn, 'parts', {}, logger);
    try {
      standIn.reset();
      await store.put('short_1.webm', Readable.from([randomBytes(1000)]), { contentType: 'video/webm' });
      assert.deepEqual(standIn.operations, ['PutObject', 'HeadObject']);
      standIn.reset();
      const long = randomBytes(11 * 1024 * 1024);
      await store.put('long_1.webm', Readable.from([long.subarray(0, 4_000_000), long.subarray(4_000_000)]), { contentType: 'video/webm' });
      assert.deepEqual(standIn.operations.filter((op) => op !== 'UploadPart'), ['CreateMultipartUpload', 'CompleteMultipartUpload', 'HeadObject']);
      assert.equal(standIn.operations.filter((op) => op === 'UploadPart').length, 3);
      assert.deepEqual(standIn.buckets.get('parts')!.get('long_1.webm')!.body, long);
    } finally {
      await store.close();
    }
  });

  it('is refused with wrong credentials, and says so without the secret', async () => {
    const wrong = { AWS_SECRET_ACCESS_KEY: `${standIn.secretAccessKey}-wrong` };
    await assert.rejects(openStore(standIn, 'refused', wrong, logger), (error: Error) => {
      assert.match(error.message, /HTTP 403/);
      assert.ok(!secretSeen(error.message) && !error.message.includes(wrong.AWS_SECRET_ACCESS_KEY), error.message);
      return true;
    });
    const unknown = { AWS_ACCESS_KEY_ID: 'AKIDNOTKNOWNHERE' };
    const store = await openStore(standIn, 'refused-later', {}, logger);
    try {
      await assert.rejects(openStore(standIn, 'refused-later', unknown, logger), /HTTP 403/);
    } finally {
      await store.close();
    }
  });

  it('rejects when S3 fails (after the SDK\'s retries), naming the status and code, never a credential', async () => {
    const store = await openStore(standIn, 'failing', {}, logger);
    try {
      standIn.fail(500);
      for (const attempt of [() => store.put('a_1.png', Buffer.from('x'), { contentType: 'image/png' }), () => store.get('a_1.png'), () => store.list()]) {
        await assert.rejects(attempt(), (error: Error) => {
          assert.match(error.message, /HTTP 500\): InternalError/);
          assert.ok(!secretSeen(inspect(error, { depth: 5 })), 'the error holds the secret');
          return true;
        });
      }
      standIn.reset();
      await store.put('a_1.png', Buffer.from('x'), { contentType: 'image/png' });
      assert.equal((await store.stat('a_1.png'))?.size, 1);
    } finally {
      await store.close();
    }
    assert.ok(logger.lines.length > 0, 'the store logged');
    assert.ok(!logger.lines.some(secretSeen), 'a log line holds the secret');
  });

  it('is chosen with BLOB_STORE=s3, which requires S3_BUCKET', () => {
    const registry = new Registry();
    registry.addModule(builtIns);
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 's3' }), registry), /S3_BUCKET is required when BLOB_STORE=s3/);
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'No_Caps' }), registry), /S3_BUCKET is "No_Caps"; expected a bucket name/);
    assert.throws(() => checkConfig(loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'ftp://x' }), registry), /S3_ENDPOINT must be an http/);
    assert.equal(s3BlobStore.id, 's3');
  });
});
