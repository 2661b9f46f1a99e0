// A stand-in MongoDB server on 127.0.0.1 that keeps documents in memory, speaking enough of the wire protocol
// (OP_QUERY hello, then OP_MSG with body and document-sequence sections) for the real driver's GridFS: insert,
// find with filters, sort, limit and cursors (getMore, killCursors), delete, and the index commands GridFS checks.
// Filters support equality and $eq, $ne, $in, $gt, $gte, $lt, $lte, $regex. No transactions, no unique indexes.
import net, { type AddressInfo } from 'node:net';
import { BSON, Long } from 'mongodb';

type Doc = Record<string, unknown>;

export interface MongoDocumentsStandIn {
  /** `mongodb://127.0.0.1:<port>/<db>` */
  url: string;
  /** Documents by `db.collection`. */
  collections: Map<string, Doc[]>;
  /** Every command's name, in order. */
  commands: string[];
  close(): Promise<void>;
}

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const BATCH_BYTES = 4 * 1024 * 1024;

const isPlain = (v: unknown): v is Doc => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const bsonType = (v: unknown) => (v as { _bsontype?: string } | null)?._bsontype;

function scalar(v: unknown): unknown {
  if (v instanceof Date) return v.getTime();
  if (bsonType(v) === 'ObjectId') return (v as { toHexString(): string }).toHexString();
  if (bsonType(v) === 'Long') return Number(v);
  return v;
}
const equal = (a: unknown, b: unknown) => scalar(a) === scalar(b);
function compare(a: unknown, b: unknown): number {
  const [x, y] = [scalar(a), scalar(b)] as [number | string, number | string];
  return x < y ? -1 : x > y ? 1 : 0;
}

function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([field, condition]) => {
    const value = field.split('.').reduce<unknown>((at, key) => (isPlain(at) ? at[key] : undefined), doc);
    if (!isPlain(condition) || !Object.keys(condition).every((key) => key.startsWith('$'))) return equal(value, condition);
    return Object.entries(condition).every(([op, arg]) => {
      switch (op) {
        case '$eq': return equal(value, arg);
        case '$ne': return !equal(value, arg);
        case '$in': return (arg as unknown[]).some((item) => equal(value, item));
        case '$gt': return value !== undefined && compare(value, arg) > 0;
        case '$gte': return value !== undefined && compare(value, arg) >= 0;
        case '$lt': return value !== undefined && compare(value, arg) < 0;
        case '$lte': return value !== undefined && compare(value, arg) <= 0;
        case '$regex': return typeof value === 'string' && new RegExp(String(arg), String(condition.$options ?? '')).test(value);
        case '$options': return true;
        default: throw new Error(`the stand-in does not know the operator ${op}`);
      }
    });
  });
}

export async function startMongoDocumentsStandIn(dbName = 'taskloom'): Promise<MongoDocumentsStandIn> {
  const collections = new Map<string, Doc[]>();
  const indexes = new Map<string, Doc[]>();
  const cursors = new Map<string, { ns: string; rest: Doc[] }>();
  const commands: string[] = [];
  let nextCursor = 1;

  /** The first batch that fits, and a cursor id for the rest (0 when nothing is left). */
  function batch(ns: string, docs: Doc[], first: boolean, id?: string): Doc {
    let bytes = 0;
    let count = 0;
    while (count < docs.length && (count === 0 || bytes + BSON.calculateObjectSize(docs[count]!) < BATCH_BYTES)) bytes += BSON.calculateObjectSize(docs[count++]!);
    const rest = docs.slice(count);
    let cursorId = 0;
    if (rest.length > 0) {
      const key = id ?? String(nextCursor++);
      cursors.set(key, { ns, rest });
      cursorId = Number(key);
    } else if (id) cursors.delete(id);
    return { cursor: { [first ? 'firstBatch' : 'nextBatch']: docs.slice(0, count), id: Long.fromNumber(cursorId), ns }, ok: 1 };
  }

  function run(command: Doc, connectionId: number): Doc {
    const name = Object.keys(command)[0]!;
    commands.push(name);
    const ns = `${String(command.$db)}.${String(command[name])}`;
    const docs = collections.get(ns) ?? [];
    switch (name) {
      case 'hello': case 'isMaster': case 'ismaster':
        return {
          helloOk: true, isWritablePrimary: true, ismaster: true, maxBsonObjectSize: 16 * 1024 * 1024, maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000, localTime: new Date(), connectionId, minWireVersion: 0, maxWireVersion: 21, readOnly: false, ok: 1,
        };
      case 'ping': case 'endSessions': case 'buildInfo':
        return { ok: 1 };
      case 'insert':
        collections.set(ns, [...docs, ...(command.documents as Doc[])]);
        return { n: (command.documents as Doc[]).length, ok: 1 };
      case 'find': {
        let found = docs.filter((doc) => matches(doc, (command.filter as Doc | undefined) ?? {}));
        const sort = Object.entries((command.sort as Doc | undefined) ?? {});
        if (sort.length > 0) found = found.sort((a, b) => sort.reduce((order, [key, way]) => order || compare(a[key], b[key]) * Number(way), 0));
        if (typeof command.skip === 'number') found = found.slice(command.skip);
        const limit = Number(command.limit ?? 0);
        if (limit > 0) found = found.slice(0, limit);
        return batch(ns, found, true);
      }
      case 'getMore': {
        const id = String(Number(command.getMore));
        const cursor = cursors.get(id);
        if (!cursor) return { ok: 0, code: 43, codeName: 'CursorNotFound', errmsg: `cursor id ${id} not found` };
        return batch(cursor.ns, cursor.rest, false, id);
      }
      case 'killCursors':
        for (const id of command.cursors as unknown[]) cursors.delete(String(Number(id)));
        return { cursorsKilled: command.cursors, ok: 1 };
      case 'delete': {
        let removed = 0;
        let kept = docs;
        for (const { q, limit } of command.deletes as Array<{ q: Doc; limit: number }>) {
          const before = kept.length;
          let left = Number(limit) === 1 ? 1 : Infinity;
          kept = kept.filter((doc) => !(left > 0 && matches(doc, q) && left--));
          removed += before - kept.length;
        }
        collections.set(ns, kept);
        return { n: removed, ok: 1 };
      }
      case 'listIndexes':
        if (!collections.has(ns)) return { ok: 0, code: 26, codeName: 'NamespaceNotFound', errmsg: `ns does not exist: ${ns}` };
        return batch(ns, [{ v: 2, key: { _id: 1 }, name: '_id_' }, ...(indexes.get(ns) ?? [])], true);
      case 'createIndexes':
        if (!collections.has(ns)) collections.set(ns, []);
        indexes.set(ns, [...(indexes.get(ns) ?? []), ...(command.indexes as Doc[]).map((index) => ({ v: 2, ...index }))]);
        return { numIndexesBefore: 1, numIndexesAfter: 1 + (indexes.get(ns)?.length ?? 0), ok: 1 };
      default:
        return { ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: `the stand-in does not serve ${name}` };
    }
  }

  function header(length: number, responseTo: number, opCode: number): Buffer {
    const head = Buffer.alloc(16);
    head.writeInt32LE(length, 0);
    head.writeInt32LE(responseTo, 8);
    head.writeInt32LE(opCode, 12);
    return head;
  }

  function answerTo(message: Buffer, connectionId: number): Buffer | undefined {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_QUERY) {
      let at = 20;
      while (message[at] !== 0) at++;
      at += 1 + 8; // the collection name's NUL, numberToSkip, numberToReturn
      const doc = BSON.serialize(run(BSON.deserialize(message.subarray(at, at + message.readInt32LE(at))), connectionId));
      const body = Buffer.alloc(20);
      body.writeInt32LE(1, 16);
      return Buffer.concat([header(16 + 20 + doc.length, requestId, OP_REPLY), body, doc]);
    }
    if (opCode !== OP_MSG) return undefined;
    const flags = message.readUInt32LE(16);
    const end = message.length - ((flags & 1) !== 0 ? 4 : 0); // a checksum ends the message
    let command: Doc = {};
    for (let at = 20; at < end;) {
      const kind = message[at]!;
      const size = message.readInt32LE(at + 1);
      if (kind === 0) {
        command = { ...BSON.deserialize(message.subarray(at + 1, at + 1 + size)), ...command };
        at += 1 + size;
        continue;
      }
      // A document sequence: size, the field's name, then documents.
      const nameEnd = message.indexOf(0, at + 5);
      const field = message.subarray(at + 5, nameEnd).toString('utf8');
      const docs: Doc[] = [];
      for (let doc = nameEnd + 1; doc < at + 1 + size; doc += message.readInt32LE(doc)) docs.push(BSON.deserialize(message.subarray(doc, doc + message.readInt32LE(doc))));
      command[field] = docs;
      at += 1 + size;
    }
    if ((flags & 2) !== 0) return undefined; // moreToCome: no answer expected
    let reply: Doc;
    try {
      reply = run(command, connectionId);
    } catch (error) {
      reply = { ok: 0, code: 2, codeName: 'BadValue', errmsg: (error as Error).message };
    }
    const doc = BSON.serialize(reply);
    return Buffer.concat([header(16 + 5 + doc.length, requestId, OP_MSG), Buffer.alloc(5), doc]);
  }

  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const connectionId = ++connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const answer = answerTo(pending.subarray(0, length), connectionId);
        pending = pending.subarray(length);
        if (answer) socket.write(answer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mongodb://127.0.0.1:${(server.address() as AddressInfo).port}/${dbName}`,
    collections,
    commands,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
