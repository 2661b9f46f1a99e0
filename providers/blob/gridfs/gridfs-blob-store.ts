import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridFSBucket, MongoClient, type GridFSFile, type MongoClientOptions, type ObjectId } from 'mongodb';
import { BLOB_NAME, type BlobInfo, type BlobStore } from '../../../kernel/contracts/blob.js';
import type { Logger } from '../../../kernel/contracts/logger.js';
import { Errors } from '../../../kernel/errors.js';

const BUCKET = 'taskloom_blobs';
const CHUNK_BYTES = 255 * 1024; // GridFS's default: a chunk document stays well under 16 MiB
const DELETE_BATCH = 1000;

export interface GridfsBlobStoreOptions {
  /** MONGODB_URL; its path names the database (default `taskloom`). */
  url: string;
  /** Overrides the URL's database (tests). */
  dbName?: string;
  logger: Logger;
}

function checkName(name: string): void {
  if (!BLOB_NAME.test(name)) throw Errors.VALIDATION_ERROR({ message: `blob name must match ${BLOB_NAME.source}` });
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const infoOf = (file: GridFSFile): BlobInfo => ({ name: file.filename, size: file.length, modifiedMs: file.uploadDate.getTime() });
/** The file a name stands for: the newest upload (ties broken by id), as every instance decides alike. */
const newer = (a: GridFSFile, b: GridFSFile) => a.uploadDate.getTime() - b.uploadDate.getTime() || a._id.toHexString().localeCompare(b._id.toHexString());

function databaseOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'taskloom';
  } catch {
    return 'taskloom';
  }
}

/** Time limits and a small pool, unless MONGODB_URL sets them (the operator's choice wins). */
function clientOptions(url: string): MongoClientOptions {
  const given = new Set((url.split('?')[1] ?? '').split('&').map((pair) => pair.split('=')[0]!.toLowerCase()));
  const defaults = { serverSelectionTimeoutMS: 5_000, connectTimeoutMS: 5_000, maxPoolSize: 5 };
  return Object.fromEntries(Object.entries(defaults).filter(([name]) => !given.has(name.toLowerCase())));
}

/**
 * GridFS has no atomic replace: a put uploads a new file, then removes the older files of its name. Until then
 * readers already take the newest, so they see the old blob or the whole new one.
 */
export async function openGridfsBlobStore(options: GridfsBlobStoreOptions): Promise<BlobStore> {
  const client = new MongoClient(options.url, clientOptions(options.url));
  const db = client.db(options.dbName ?? databaseOf(options.url));
  const bucket = new GridFSBucket(db, { bucketName: BUCKET, chunkSizeBytes: CHUNK_BYTES });
  const files = db.collection<GridFSFile>(`${BUCKET}.files`);
  const chunks = db.collection(`${BUCKET}.chunks`);
  try {
    await db.command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`the gridfs blob store cannot reach MongoDB: ${(error as Error).message}`);
  }

  async function filesNamed(filter: object): Promise<GridFSFile[]> {
    return files.find(filter).toArray();
  }

  async function newest(name: string): Promise<GridFSFile | undefined> {
    return (await filesNamed({ filename: name })).sort(newer).at(-1);
  }

  async function remove(ids: ObjectId[]): Promise<void> {
    if (ids.length === 0) return;
    await files.deleteMany({ _id: { $in: ids } });
    await chunks.deleteMany({ files_id: { $in: ids } });
  }

  let closing: Promise<void> | undefined;

  return {
    id: 'gridfs',

    async put(name, data, { contentType }) {
      checkName(name);
      const upload = bucket.openUploadStream(name, { metadata: { contentType } });
      try {
        await pipeline(data instanceof Readable ? data : Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]), upload);
      } catch (error) {
        await upload.abort().catch(() => undefined); // removes the chunks written so far
        throw error;
      }
      const all = await filesNamed({ filename: name });
      const mine = all.find((file) => file._id.equals(upload.id));
      if (!mine) throw new Error(`blob ${name} vanished while it was being written`);
      // Only older ones: two puts of one name finishing together must not remove each other.
      await remove(all.filter((file) => newer(file, mine) < 0).map((file) => file._id));
      return infoOf(mine);
    },

    async get(name) {
      checkName(name);
      const file = await newest(name);
      if (!file) return undefined;
      const contentType = (file.metadata?.contentType as string | undefined) ?? 'application/octet-stream';
      return { ...infoOf(file), contentType, stream: bucket.openDownloadStream(file._id) };
    },

    async stat(name) {
      checkName(name);
      const file = await newest(name);
      return file && infoOf(file);
    },

    async list(prefix = '') {
      const byName = new Map<string, GridFSFile>();
      for (const file of await filesNamed({ filename: { $regex: `^${escapeRegex(prefix)}` } })) {
        const other = byName.get(file.filename);
        if (BLOB_NAME.test(file.filename) && (!other || newer(other, file) < 0)) byName.set(file.filename, file);
      }
      return [...byName.values()].map(infoOf);
    },

    async delete(name) {
      checkName(name);
      const ids = (await filesNamed({ filename: name })).map((file) => file._id);
      await remove(ids);
      return ids.length > 0;
    },

    async deleteMany(names) {
      names.forEach(checkName);
      for (let at = 0; at < names.length; at += DELETE_BATCH) {
        await remove((await filesNamed({ filename: { $in: names.slice(at, at + DELETE_BATCH) } })).map((file) => file._id));
      }
    },

    close() {
      closing ??= client.close();
      return closing;
    },
  };
}
