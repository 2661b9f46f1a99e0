import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** The server the PostgreSQL tests use: TEST_DATABASE_URL, or the local one. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  name: string;
  /** A connection URL for it; `port` reaches it through another port (a proxy on 127.0.0.1). */
  url(port?: number): string;
  /** Drops it, ending the connections still open. */
  drop(): Promise<void>;
}

/** Whether the server answers; the reason to skip when it does not. */
export async function postgresUnavailable(): Promise<string | false> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return false;
  } catch (error) {
    return `PostgreSQL is not reachable at ${new URL(POSTGRES_URL).host} (${(error as Error).message}): start it, or set TEST_DATABASE_URL`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database with a unique name on the test server. */
export async function createTestDatabase(prefix = 'taskloom_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    name,
    url(port?: number) {
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${name}`;
      if (port !== undefined) url.host = `127.0.0.1:${port}`;
      return url.toString();
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export interface ProxiedTestDatabase extends TestDatabase {
  /** The TCP proxy in front of it, already up: `down()` cuts it, `blackhole()` keeps sockets open and silent. */
  proxy: TcpProxy;
  /** The URL through the proxy. */
  proxiedUrl: string;
  /** Takes the proxy down and drops the database. */
  close(): Promise<void>;
}

/** A fresh database reached through a TCP proxy of its own, so a test can cut it off from the service. */
export async function createProxiedTestDatabase(prefix: string): Promise<ProxiedTestDatabase> {
  const db = await createTestDatabase(prefix);
  const target = new URL(db.url());
  const proxy = createTcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.up();
  return {
    ...db,
    proxy,
    proxiedUrl: db.url(proxy.port),
    async close() {
      await proxy.down();
      await db.drop();
    },
  };
}
