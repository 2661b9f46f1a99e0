import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { inspect } from 'node:util';
import pg from 'pg';
import { createPostgresStorage, openPostgresStorage } from '../../../providers/storage/postgres/postgres-storage.js';
import { makeTask } from '../../../testing/storage/harness.js';
import { recordingLogger } from './json-harness.js';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
after(() => admin.end());

const PASSWORD = 'Sup3r-S3cret-pw';
/** `url` pointed at another host:port, with a password in it that must never be shown. */
function withPassword(port: number): string {
  const target = new URL(url);
  target.host = `127.0.0.1:${port}`;
  target.password = PASSWORD;
  return target.toString();
}

function assertUnavailable(error: unknown, ...patterns: RegExp[]): true {
  assert.ok(error instanceof Error);
  assert.equal((error as Error & { code?: string }).code, 'STORAGE_UNAVAILABLE');
  for (const pattern of patterns) assert.match(error.message, pattern);
  assert.ok(!inspect(error, { depth: 10 }).includes(PASSWORD), 'the password is not in the error, its cause or its stack');
  return true;
}

/** A TCP proxy to the test PostgreSQL that can be cut (every connection dropped, port closed) and restored. */
function tcpProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  let port = 0;
  return {
    get port() {
      return port;
    },
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    })),
    down: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }),
  };
}

describe('postgres storage health', () => {
  it('check() rejects with a clear reason when the server is unreachable, without the password', async () => {
    const logger = recordingLogger();
    const storage = createPostgresStorage({ url: withPassword(1), logger });
    try {
      await assert.rejects(storage.check(), (error) =>
        assertUnavailable(error, /no connection to PostgreSQL at 127\.0\.0\.1:1\/\w+ /, /ECONNREFUSED/, /check DATABASE_URL and that the server is running/),
      );
      await assert.rejects(storage.tasks.list(), (error) => assertUnavailable(error, /no connection to PostgreSQL/));
      assert.ok(!inspect(logger.entries, { depth: 10 }).includes(PASSWORD));
    } finally {
      await storage.close();
    }
  });

  it('start-up rejects the same way when the server is unreachable', async () => {
    await assert.rejects(openPostgresStorage({ url: withPassword(1) }), (error) => assertUnavailable(error, /127\.0\.0\.1:1/, /ECONNREFUSED/));
  });

  it('check() gives up after checkTimeoutMs on a server that accepts but never answers', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const storage = createPostgresStorage({ url: withPassword(port), checkTimeoutMs: 300, connectTimeoutMs: 1000 });
    try {
      const started = Date.now();
      await assert.rejects(storage.check(), (error) => assertUnavailable(error, /did not answer SELECT 1 within 300 ms/));
      assert.ok(Date.now() - started < 900, `gave up after ${Date.now() - started} ms`);
    } finally {
      await storage.close();
      silent.close();
    }
  });

  it('check() rejects while the database is cut off and resolves again once it is back', async () => {
    const proxy = tcpProxy(new URL(url));
    await proxy.up();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const logger = recordingLogger();
    const storage = await openPostgresStorage({ url: withPassword(proxy.port), schema, logger });
    try {
      const task = makeTask();
      await storage.tasks.put(task);
      await storage.check();

      await proxy.down();
      await assert.rejects(storage.check(), (error) => assertUnavailable(error, /no connection to PostgreSQL/));
      await assert.rejects(storage.tasks.get(task.id), (error) => assertUnavailable(error, /no connection to PostgreSQL/));

      await proxy.up();
      await storage.check();
      assert.deepEqual(await storage.tasks.get(task.id), task);
      assert.ok(!inspect(logger.entries, { depth: 10 }).includes(PASSWORD));
    } finally {
      await storage.close();
      await proxy.down();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });
});
