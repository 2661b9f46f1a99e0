// A local server speaking the part of the S3 REST API (path-style addressing) the s3 blob store uses, with S3's
// XML answers and error bodies; every request must carry a valid Signature Version 4 for its credentials.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSignature, decodeAwsChunked, sha256Hex } from './s3-sigv4.js';

export interface StoredObject {
  body: Buffer;
  contentType: string;
  /** Whole seconds, as S3 keeps them. */
  lastModified: Date;
  etag: string;
}

/** How the next answers go wrong: an S3 error status (500 InternalError, 503 SlowDown, ...) or an unreadable 200. */
export type S3Failure = number | 'garbage';

export interface S3StandIn {
  /** The endpoint, `http://127.0.0.1:<port>`. */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Objects by bucket, then key. */
  buckets: Map<string, Map<string, StoredObject>>;
  /** The operation of every request, in order (`PutObject`, `UploadPart`, ...). */
  operations: string[];
  /** Answers the next `times` requests (default: every one until `reset`) with `failure`. */
  fail(failure: S3Failure, options?: { times?: number }): void;
  reset(): void;
  close(): Promise<void>;
}

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const MAX_KEYS = 1000;
const CODES: Record<number, string> = { 500: 'InternalError', 503: 'SlowDown', 403: 'AccessDenied', 400: 'InvalidRequest' };

const xmlEscape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const xmlUnescape = (text: string) => text
  .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
  .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
  .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const wholeSeconds = () => new Date(Math.floor(Date.now() / 1000) * 1000);
const tagsOf = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => xmlUnescape(m[1]!));

function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function error(req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string): void {
  if (req.method === 'HEAD') return void res.writeHead(status).end();
  xml(res, status, `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><RequestId>${randomBytes(8).toString('hex')}</RequestId></Error>`);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return String(req.headers['content-encoding'] ?? '').includes('aws-chunked') ? decodeAwsChunked(body) : body;
}

export async function startS3StandIn(options: { region?: string } = {}): Promise<S3StandIn> {
  const credentials = { accessKeyId: 'STANDINACCESSKEY7F3A', secretAccessKey: `stand-in-secret-${randomBytes(12).toString('hex')}`, region: options.region ?? 'us-east-1' };
  const buckets = new Map<string, Map<string, StoredObject>>();
  const uploads = new Map<string, { bucket: string; key: string; contentType: string; parts: Map<number, Buffer> }>();
  const operations: string[] = [];
  const state = { failure: undefined as S3Failure | undefined, remaining: 0 };

  function list(res: ServerResponse, bucket: string, objects: Map<string, StoredObject>, query: URLSearchParams): void {
    const prefix = query.get('prefix') ?? '';
    const after = query.has('continuation-token') ? Buffer.from(query.get('continuation-token')!, 'base64url').toString() : query.get('start-after') ?? '';
    const maxKeys = Math.min(Number(query.get('max-keys') ?? MAX_KEYS), MAX_KEYS);
    const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page.map((key) => {
      const object = objects.get(key)!;
      return `<Contents><Key>${xmlEscape(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${xmlEscape(object.etag)}</ETag>`
        + `<Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    }).join('');
    const next = truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString('base64url')}</NextContinuationToken>` : '';
    xml(res, 200, `<ListBucketResult xmlns="${NS}"><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>`
      + `<MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`);
  }

  function sendObject(req: IncomingMessage, res: ServerResponse, object: StoredObject): void {
    res.writeHead(200, {
      'content-type': object.contentType, 'content-length': object.body.length, etag: object.etag,
      'last-modified': object.lastModified.toUTCString(), 'accept-ranges': 'bytes',
    });
    res.end(req.method === 'HEAD' ? undefined : object.body);
  }

  /** One request: its operation's name, then its answer. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const [bucket = '', ...rest] = url.pathname.slice(1).split('/');
    const key = decodeURIComponent(rest.join('/'));
    const q = url.searchParams;
    const method = req.method ?? 'GET';
    const operation = key === ''
      ? ({ PUT: 'CreateBucket', HEAD: 'HeadBucket', GET: 'ListObjectsV2', POST: q.has('delete') ? 'DeleteObjects' : 'Unknown' } as Record<string, string>)[method] ?? 'Unknown'
      : method === 'PUT' ? (q.has('uploadId') ? 'UploadPart' : 'PutObject')
        : method === 'POST' ? (q.has('uploads') ? 'CreateMultipartUpload' : 'CompleteMultipartUpload')
          : method === 'DELETE' ? (q.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject')
            : method === 'HEAD' ? 'HeadObject' : 'GetObject';
    operations.push(operation);

    const refused = checkSignature(req, credentials);
    const body = await readBody(req);
    if (refused) return error(req, res, refused.status, refused.code, refused.message);
    const declared = String(req.headers['x-amz-content-sha256']);
    if (/^[0-9a-f]{64}$/.test(declared) && declared !== sha256Hex(body) && !String(req.headers['content-encoding'] ?? '').includes('aws-chunked')) {
      return error(req, res, 400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
    }
    if (state.failure !== undefined && state.remaining > 0) {
      state.remaining -= 1;
      if (state.failure === 'garbage') return void res.writeHead(200, { 'content-type': 'application/xml' }).end('<<not xml');
      return error(req, res, state.failure, CODES[state.failure] ?? 'InternalError', 'the stand-in was told to fail');
    }

    if (operation === 'CreateBucket') {
      if (!buckets.has(bucket)) buckets.set(bucket, new Map());
      return void res.writeHead(200, { location: `/${bucket}` }).end();
    }
    const objects = buckets.get(bucket);
    if (!objects) return error(req, res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    const object = objects.get(key);
    switch (operation) {
      case 'HeadBucket':
        return void res.writeHead(200).end();
      case 'ListObjectsV2':
        if (q.get('list-type') !== '2') return error(req, res, 400, 'InvalidArgument', 'only ListObjectsV2 (list-type=2) is served');
        return list(res, bucket, objects, q);
      case 'DeleteObjects': {
        const deleted = tagsOf(body.toString('utf8'), 'Key');
        if (deleted.length > 1000) return error(req, res, 400, 'MalformedXML', 'at most 1000 keys per request');
        for (const name of deleted) objects.delete(name);
        const quiet = /<Quiet>true<\/Quiet>/.test(body.toString('utf8'));
        return xml(res, 200, `<DeleteResult xmlns="${NS}">${quiet ? '' : deleted.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join('')}</DeleteResult>`);
      }
      case 'PutObject':
        objects.set(key, { body, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), lastModified: wholeSeconds(), etag: `"${md5(body)}"` });
        return void res.writeHead(200, { etag: objects.get(key)!.etag }).end();
      case 'GetObject':
      case 'HeadObject':
        return object ? sendObject(req, res, object) : error(req, res, 404, 'NoSuchKey', 'The specified key does not exist.');
      case 'DeleteObject':
        objects.delete(key);
        return void res.writeHead(204).end();
      case 'CreateMultipartUpload': {
        const uploadId = randomBytes(12).toString('hex');
        uploads.set(uploadId, { bucket, key, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), parts: new Map() });
        return xml(res, 200, `<InitiateMultipartUploadResult xmlns="${NS}"><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
      }
      case 'UploadPart':
      case 'CompleteMultipartUpload':
      case 'AbortMultipartUpload': {
        const upload = uploads.get(q.get('uploadId') ?? '');
        if (!upload || upload.bucket !== bucket || upload.key !== key) return error(req, res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
        if (operation === 'UploadPart') {
          upload.parts.set(Number(q.get('partNumber')), body);
          return void res.writeHead(200, { etag: `"${md5(body)}"` }).end();
        }
        uploads.delete(q.get('uploadId')!);
        if (operation === 'AbortMultipartUpload') return void res.writeHead(204).end();
        const numbers = tagsOf(body.toString('utf8'), 'PartNumber').map(Number);
        if (numbers.length === 0 || numbers.some((n) => !upload.parts.has(n))) return error(req, res, 400, 'InvalidPart', 'a listed part was not uploaded');
        const parts = numbers.map((n) => upload.parts.get(n)!);
        const etag = `"${md5(Buffer.concat(parts.map((p) => Buffer.from(md5(p), 'hex'))))}-${parts.length}"`;
        objects.set(key, { body: Buffer.concat(parts), contentType: upload.contentType, lastModified: wholeSeconds(), etag });
        return xml(res, 200, `<CompleteMultipartUploadResult xmlns="${NS}"><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`);
      }
      default:
        return error(req, res, 501, 'NotImplemented', `the stand-in does not serve ${method} ${url.pathname}`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((failure: unknown) => {
      if (!res.headersSent) error(req, res, 500, 'InternalError', String(failure));
      else res.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...credentials,
    buckets,
    operations,
    fail(failure, { times = Infinity } = {}) {
      state.failure = failure;
      state.remaining = times;
    },
    reset() {
      state.failure = undefined;
      state.remaining = 0;
      operations.length = 0;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
