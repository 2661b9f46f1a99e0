import { Type } from 'typebox';
import { defineProvider } from '../../../kernel/contracts/provider.js';
import { BLOB_CONTRACT_VERSION } from '../../../kernel/contracts/blob.js';

const endpoint = Type.Refine(Type.String(), (value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, () => 'must be an http:// or https:// URL, e.g. https://s3.example.com');

/**
 * Blob store `s3` (`BLOB_STORE=s3`): objects in one bucket of Amazon S3 or an S3-compatible store (S3_ENDPOINT,
 * addressed path-style). Credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or without them the AWS SDK's
 * default chain (a profile, an instance role). The implementation (and the AWS SDK) loads only when chosen.
 */
export const s3BlobStore = defineProvider({
  capability: 'blob',
  id: 's3',
  contractVersion: BLOB_CONTRACT_VERSION,
  configSchema: Type.Object({
    S3_BUCKET: Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', description: 'a bucket name: 3 to 63 lower-case letters, digits, "." and "-"' }),
    S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
    S3_ENDPOINT: Type.Optional(endpoint),
    AWS_ACCESS_KEY_ID: Type.Optional(Type.String()),
    AWS_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
    AWS_SESSION_TOKEN: Type.Optional(Type.String()),
  }),
  create: async (ctx) => {
    const { S3_BUCKET: bucket, S3_REGION: region, S3_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN } = ctx.config;
    // The registry checked it; a direct create (a test, a tool) may still come without.
    if (!bucket) throw new Error('the s3 blob store needs S3_BUCKET');
    if ((AWS_ACCESS_KEY_ID === undefined) !== (AWS_SECRET_ACCESS_KEY === undefined)) {
      throw new Error('the s3 blob store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together (or neither, for the AWS default credentials)');
    }
    const credentials = AWS_ACCESS_KEY_ID && AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: AWS_ACCESS_KEY_ID, secretAccessKey: AWS_SECRET_ACCESS_KEY, ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}) }
      : undefined;
    const { openS3BlobStore } = await import('./s3-blob-store.js');
    return openS3BlobStore({ bucket, region, endpoint: S3_ENDPOINT, credentials, logger: ctx.logger.child({ blob: 's3' }) });
  },
});
