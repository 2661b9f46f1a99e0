import crypto from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * pg-boss ids are UUIDs. A caller's id that is one is used as it is; any other id names a UUID derived from the
 * queue and the id (SHA-1, as a version 5 UUID is), so `cancel` and `state` find the job by the caller's id.
 */
export function engineId(queue: string, id: string): string {
  if (UUID.test(id)) return id;
  const hex = crypto.createHash('sha1').update(`${queue}\u0000${id}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What a job's `data` column holds: the caller's id beside the payload. */
export interface StoredJob<P = unknown> {
  id: string;
  payload: P;
}
