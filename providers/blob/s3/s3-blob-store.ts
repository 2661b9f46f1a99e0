import { Readable } from 'node:stream';
import {
  CreateBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand,
  PutObjectCommand, S3Client, S3ServiceException, paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BLOB_NAME, type BlobInfo, type BlobStore } from '../../../kernel/contracts/blob.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors } from '../../../kernel/errors.js';

const DELETE_BATCH = 1000; // the most keys one DeleteObjects takes
const PART_BYTES = 5 * 1024 * 1024; // S3's smallest part: a stream up to this size is one PutObject

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible store's URL; addressed path-style (`<endpoint>/<bucket>/<key>`). Unset: Amazon S3. */
  endpoint?: string;
  /** Unset: the AWS SDK's default chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  logger: Logger;
}

function checkName(name: string): void {
  if (!BLOB_NAME.test(name)) throw Errors.VALIDATION_ERROR({ message: `blob name must match ${BLOB_NAME.source}` });
}

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (error: unknown) => statusOf(error) === 404;

/**
 * A plain error for what the SDK threw: the operation, the status and S3's code and message. The SDK's own error
 * carries the response (and a logger would print it); this one carries nothing that could hold a credential.
 */
function failure(what: string, error: unknown): Error {
  if (Errors.VALIDATION_ERROR.is(error)) return error;
  const status = statusOf(error);
  const code = error instanceof S3ServiceException ? error.name : (error as Error)?.name ?? 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`S3 ${what} failed${status ? ` (HTTP ${status})` : ''}: ${code}: ${message}`);
}

export async function openS3BlobStore(options: S3BlobStoreOptions): Promise<BlobStore> {
  const { bucket, endpoint } = options;
  const client = new S3Client({
    region: options.region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Checksums only where S3 requires them: many S3-compatible stores refuse the newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const where = `bucket ${bucket}${endpoint ? ` at ${new URL(endpoint).host}` : ''}`;

  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw failure(`${what} (${where})`, error);
    }
  }

  async function stat(name: string): Promise<BlobInfo | undefined> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: name }));
      return { name, size: head.ContentLength ?? 0, modifiedMs: head.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw failure(`HeadObject ${name} (${where})`, error);
    }
  }

  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket })).catch(async (error: unknown) => {
      if (!isMissing(error)) throw error;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      options.logger.info({ bucket, endpoint: endpoint && new URL(endpoint).host }, 'created the S3 bucket for blobs');
    });
  } catch (error) {
    client.destroy();
    throw failure(`opening ${where}`, error);
  }

  let closed = false;

  return {
    id: 's3',

    async put(name, data, { contentType }) {
      checkName(name);
      await call(`PutObject ${name}`, async () => {
        if (!(data instanceof Readable)) {
          await client.send(new PutObjectCommand({ Bucket: bucket, Key: name, Body: data, ContentType: contentType, ContentLength: data.byteLength }));
          return;
        }
        // A stream of unknown length: one PutObject up to PART_BYTES, a multipart upload beyond (aborted on failure).
        await new Upload({ client, params: { Bucket: bucket, Key: name, Body: data, ContentType: contentType }, partSize: PART_BYTES, queueSize: 2 }).done();
      });
      const info = await stat(name);
      if (!info) throw new Error(`blob ${name} vanished while it was being written (${where})`);
      return info;
    },

    async get(name) {
      checkName(name);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: name }));
        return {
          name, size: object.ContentLength ?? 0, modifiedMs: object.LastModified?.getTime() ?? 0,
          contentType: object.ContentType ?? 'application/octet-stream', stream: object.Body as Readable,
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw failure(`GetObject ${name} (${where})`, error);
      }
    },

    async stat(name) {
      checkName(name);
      return stat(name);
    },

    list(prefix = '') {
      return call('ListObjectsV2', async () => {
        const found: BlobInfo[] = [];
        for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix })) {
          for (const object of page.Contents ?? []) {
            // Objects others put in the bucket under names no blob can have are not blobs.
            if (object.Key && BLOB_NAME.test(object.Key)) {
              found.push({ name: object.Key, size: object.Size ?? 0, modifiedMs: object.LastModified?.getTime() ?? 0 });
            }
          }
        }
        return found;
      });
    },

    async delete(name) {
      checkName(name);
      // S3 answers a delete the same whether or not the object was there.
      if (!(await stat(name))) return false;
      await call(`DeleteObject ${name}`, () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name })));
      return true;
    },

    async deleteMany(names) {
      names.forEach(checkName);
      for (let at = 0; at < names.length; at += DELETE_BATCH) {
        const batch = names.slice(at, at + DELETE_BATCH);
        const answer = await call('DeleteObjects', () => client.send(new DeleteObjectsCommand({
          Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        })));
        const refused = answer.Errors ?? [];
        if (refused.length > 0) {
          throw new Error(`S3 DeleteObjects (${where}) left ${refused.length} blob(s), e.g. ${refused[0]!.Key}: ${refused[0]!.Code} ${refused[0]!.Message ?? ''}`);
        }
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      client.destroy();
    },
  };
}
