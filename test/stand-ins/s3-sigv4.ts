// Checks AWS Signature Version 4 on a request as S3 does (header signing), written from AWS's description of the
// algorithm, and decodes `aws-chunked` bodies: the stand-in holds the real client to what S3 would accept.
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** Why S3 would refuse the request: an error code and message; undefined when the signature holds. */
export interface SigV4Refusal {
  status: number;
  code: string;
  message: string;
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
export const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding, as SigV4 canonicalises query parameters. */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  const pairs = rawQuery.split('&').map((part) => {
    const at = part.indexOf('=');
    const [key, value] = at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
    return [encode(decodeURIComponent(key)), encode(decodeURIComponent(value))] as const;
  });
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

/** Checks the request's Authorization header against `credentials` (the payload hash is checked by the caller). */
export function checkSignature(req: IncomingMessage, credentials: SigV4Credentials): SigV4Refusal | undefined {
  const header = req.headers.authorization;
  if (!header) return { status: 403, code: 'AccessDenied', message: 'Anonymous access is not allowed' };
  const match = AUTH.exec(header);
  if (!match) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed' };
  const [, accessKeyId, date, region, signedHeaders, signature] = match as unknown as string[];
  if (accessKeyId !== credentials.accessKeyId) {
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  }
  if (region !== credentials.region) {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: `the region '${region}' is wrong; expecting '${credentials.region}'` };
  }
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!amzDate.startsWith(date!) || payloadHash === '') {
    return { status: 400, code: 'InvalidRequest', message: 'x-amz-date and x-amz-content-sha256 must be sent and signed' };
  }
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) {
    return { status: 400, code: 'InvalidRequest', message: 'host, x-amz-date and x-amz-content-sha256 must be signed' };
  }
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const canonicalRequest = [
    req.method,
    queryAt < 0 ? url : url.slice(0, queryAt),
    canonicalQuery(queryAt < 0 ? '' : url.slice(queryAt + 1)),
    ...names.map((name) => `${name}:${String(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}`),
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${credentials.secretAccessKey}`, date!);
  for (const part of [region!, 's3', 'aws4_request']) key = hmac(key, part);
  if (createHmac('sha256', key).update(stringToSign).digest('hex') !== signature) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}

/** The payload of an `aws-chunked` body (`<hex size>[;chunk-signature=...]\r\n<bytes>\r\n`... `0\r\n`, trailers). */
export function decodeAwsChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('aws-chunked body ends inside a chunk header');
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!Number.isInteger(size) || size < 0) throw new Error('aws-chunked body has a bad chunk size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
