import net, { type AddressInfo } from 'node:net';
import { BSON, Long } from 'mongodb';

/**
 * A stand-in MongoDB server on 127.0.0.1 speaking just enough of the wire protocol for the real driver to connect
 * and run the calls the provider makes at start-up and for an empty store: the handshake (OP_QUERY hello), then
 * OP_MSG commands answered `ok` (find and aggregate with no documents). `silence()` makes it a silent peer: every
 * connection open then, or opened before `answer()`, stays open and never gets a byte back (as when a firewall
 * loses its state); connections opened after `answer()` are served.
 */
export interface MongoStandIn {
  url: string;
  silence(): void;
  answer(): void;
  close(): Promise<void>;
}

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

function hello(connectionId: number) {
  return {
    helloOk: true, isWritablePrimary: true, ismaster: true, maxBsonObjectSize: 16 * 1024 * 1024, maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000, localTime: new Date(), connectionId, minWireVersion: 0, maxWireVersion: 21, readOnly: false, ok: 1,
  };
}

/** The answer to one command document. */
function reply(command: Record<string, unknown>, connectionId: number): Record<string, unknown> {
  const name = Object.keys(command)[0]!;
  if (name === 'hello' || name === 'isMaster' || name === 'ismaster') return hello(connectionId);
  if (name === 'find' || name === 'aggregate') {
    return { cursor: { firstBatch: [], id: Long.fromNumber(0), ns: `${command.$db}.${String(command[name])}` }, ok: 1 };
  }
  return { ok: 1 };
}

function header(length: number, responseTo: number, opCode: number): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(0, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

/** One whole message in, its answer out (or undefined when it has none). */
function answerTo(message: Buffer, connectionId: number): Buffer | undefined {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_QUERY) {
    let at = 20;
    while (message[at] !== 0) at++;
    at += 1 + 8; // the collection name's NUL, numberToSkip, numberToReturn
    const size = message.readInt32LE(at);
    const doc = BSON.serialize(reply(BSON.deserialize(message.subarray(at, at + size)), connectionId));
    const body = Buffer.alloc(20);
    body.writeInt32LE(1, 16); // numberReturned (flags 0, cursor 0, startingFrom 0)
    return Buffer.concat([header(16 + 20 + doc.length, requestId, OP_REPLY), body, doc]);
  }
  if (opCode === OP_MSG) {
    const size = message.readInt32LE(21); // flagBits (4 bytes) and the section kind 0 (1 byte) come first
    const command = BSON.deserialize(message.subarray(21, 21 + size));
    if ((message.readUInt32LE(16) & 2) !== 0) return undefined; // moreToCome: no answer expected
    const doc = BSON.serialize(reply(command, connectionId));
    return Buffer.concat([header(16 + 5 + doc.length, requestId, OP_MSG), Buffer.alloc(5), doc]);
  }
  return undefined;
}

export async function startMongoStandIn(): Promise<MongoStandIn> {
  let silent = false;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const dead = new WeakSet<net.Socket>();
  const server = net.createServer((socket) => {
    const connectionId = ++connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (silent) dead.add(socket);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      if (dead.has(socket)) return;
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
  const { port } = server.address() as AddressInfo;
  return {
    url: `mongodb://127.0.0.1:${port}/tl`,
    silence: () => {
      silent = true;
      for (const socket of sockets) dead.add(socket);
    },
    answer: () => { silent = false; },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
