import os from 'node:os';
import { Readable } from 'node:stream';
import pg from 'pg';
import { BLOB_NAME, type BlobInfo, type BlobStore } from '../../../kernel/contracts/blob.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors } from '../../../kernel/errors.js';

/** Bytes per chunk row: a blob is read and written a chunk at a time, never held whole. */
const CHUNK_BYTES = 256 * 1024;
const DELETE_BATCH = 1000;

/**
 * One row per blob and its bytes in chunk rows (as GridFS does), so a large blob streams both ways. A put writes
 * its chunks under a row without a name and names it (dropping the blob it replaces) as its transaction commits:
 * readers see the old blob or the new one.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS taskloom_blobs (
  id bigserial PRIMARY KEY,
  name text UNIQUE,
  content_type text NOT NULL,
  size bigint NOT NULL DEFAULT 0,
  modified_ms bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS taskloom_blob_chunks (
  blob_id bigint NOT NULL REFERENCES taskloom_blobs (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (blob_id, seq)
);`;

export interface PostgresBlobStoreOptions {
  /** DATABASE_URL: the tables live in this database. */
  url: string;
  logger: Logger;
}

interface BlobRow {
  id: string;
  name: string;
  content_type: string;
  size: string;
  modified_ms: string;
}

const infoOf = (row: BlobRow): BlobInfo => ({ name: row.name, size: Number(row.size), modifiedMs: Number(row.modified_ms) });

function checkName(name: string): void {
  if (!BLOB_NAME.test(name)) throw Errors.VALIDATION_ERROR({ message: `blob name must match ${BLOB_NAME.source}` });
}

/** pg takes its default user from $USER, often unset in containers; psql takes the account's name. */
function fillDefaultUser(): void {
  if (pg.defaults.user) return;
  try {
    pg.defaults.user = os.userInfo().username;
  } catch {
    // No account entry for this uid: DATABASE_URL or PGUSER names the user.
  }
}

/** `data` as pieces of exactly CHUNK_BYTES (the last one shorter). */
async function* chunksOf(data: Uint8Array | Readable): AsyncGenerator<Buffer> {
  if (!(data instanceof Readable)) {
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
    return;
  }
  let pending = Buffer.alloc(0);
  for await (const piece of data) {
    pending = Buffer.concat([pending, Buffer.from(piece as Uint8Array)]);
    while (pending.length >= CHUNK_BYTES) {
      yield pending.subarray(0, CHUNK_BYTES);
      pending = pending.subarray(CHUNK_BYTES);
    }
  }
  if (pending.length > 0) yield pending;
}

export async function openPostgresBlobStore(options: PostgresBlobStoreOptions): Promise<BlobStore> {
  fillDefaultUser();
  const pool = new pg.Pool({
    connectionString: options.url, max: 5, connectionTimeoutMillis: 5_000, query_timeout: 30_000, idleTimeoutMillis: 10_000,
    keepAlive: true, application_name: 'taskloom-blobs',
  });
  // An idle connection the server ended: the pool drops it; the next query opens another.
  pool.on('error', (error) => options.logger.warn({ err: error }, 'a PostgreSQL blob store connection failed'));

  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      const broken = await client.query('ROLLBACK').then(() => false, () => true);
      client.release(broken);
      throw error;
    }
  }

  try {
    await transaction(async (client) => {
      // Two instances starting together would race to create the tables.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('taskloom_blobs schema'))");
      await client.query(SCHEMA);
    });
  } catch (error) {
    await pool.end();
    throw error;
  }

  async function readChunks(id: string, name: string, size: number): Promise<Readable> {
    async function* chunks() {
      let read = 0;
      for (let seq = 0; read < size; seq++) {
        const { rows } = await pool.query<{ data: Buffer }>('SELECT data FROM taskloom_blob_chunks WHERE blob_id = $1 AND seq = $2', [id, seq]);
        if (!rows[0]) throw new Error(`blob ${name} was replaced or removed while it was being read`);
        read += rows[0].data.length;
        yield rows[0].data;
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  let closing: Promise<void> | undefined;

  return {
    id: 'postgres',

    async put(name, data, { contentType }) {
      checkName(name);
      return transaction(async (client) => {
        const { rows } = await client.query<{ id: string }>('INSERT INTO taskloom_blobs (content_type) VALUES ($1) RETURNING id', [contentType]);
        const id = rows[0]!.id;
        let seq = 0;
        let size = 0;
        for await (const chunk of chunksOf(data)) {
          await client.query('INSERT INTO taskloom_blob_chunks (blob_id, seq, data) VALUES ($1, $2, $3)', [id, seq++, chunk]);
          size += chunk.length;
        }
        // Puts of one name wait for each other here, so the one committing last is the one kept.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`taskloom_blob:${name}`]);
        await client.query('DELETE FROM taskloom_blobs WHERE name = $1', [name]);
        const named = await client.query<BlobRow>(
          `UPDATE taskloom_blobs SET name = $2, size = $3, modified_ms = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
           WHERE id = $1 RETURNING name, size, modified_ms`,
          [id, name, size],
        );
        return infoOf(named.rows[0]!);
      });
    },

    async get(name) {
      checkName(name);
      const { rows } = await pool.query<BlobRow>('SELECT id, name, content_type, size, modified_ms FROM taskloom_blobs WHERE name = $1', [name]);
      const row = rows[0];
      if (!row) return undefined;
      const info = infoOf(row);
      return { ...info, contentType: row.content_type, stream: await readChunks(row.id, name, info.size) };
    },

    async stat(name) {
      checkName(name);
      const { rows } = await pool.query<BlobRow>('SELECT name, size, modified_ms FROM taskloom_blobs WHERE name = $1', [name]);
      return rows[0] && infoOf(rows[0]);
    },

    async list(prefix = '') {
      const { rows } = await pool.query<BlobRow>(
        'SELECT name, size, modified_ms FROM taskloom_blobs WHERE name IS NOT NULL AND starts_with(name, $1)', [prefix],
      );
      return rows.map(infoOf);
    },

    async delete(name) {
      checkName(name);
      return ((await pool.query('DELETE FROM taskloom_blobs WHERE name = $1', [name])).rowCount ?? 0) > 0;
    },

    async deleteMany(names) {
      names.forEach(checkName);
      for (let at = 0; at < names.length; at += DELETE_BATCH) {
        await pool.query('DELETE FROM taskloom_blobs WHERE name = ANY($1::text[])', [names.slice(at, at + DELETE_BATCH)]);
      }
    },

    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}
