// Service processes sharing one fresh PostgreSQL database and one run queue (pg-boss in that database, or BullMQ on
// Redis under a key prefix of their own), for the shared-queue end-to-end tests.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../support/postgres-database.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { ADMIN, makeTempDir, request, sessionCookie, type ApiResponse, type RequestOptions } from '../support/service.js';

export type SharedQueue = 'pg-boss' | 'bullmq';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Member {
  name: string;
  proc: ServiceProcess;
  call<T = any>(method: string, url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Whether this process ran (started) the execution: its log says so. */
  ran(executionId: string): boolean;
}

export interface Cluster {
  spawn(name: string, extra?: Record<string, string>): Promise<Member>;
  /** The admin's API key (set up through the first member spawned). */
  apiKey(): string;
  /** The shared database's URL; through `port` (a proxy on 127.0.0.1) when given, for a member that can be cut off. */
  dbUrl(port?: number): string;
  close(): Promise<void>;
}

/** Why the engine of `queue` cannot be used here, or false. */
export async function queueUnavailable(queue: SharedQueue): Promise<string | false> {
  const pg = await postgresUnavailable();
  if (pg || queue === 'pg-boss') return pg;
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 3000 });
    socket.once('connect', () => { socket.end(); resolve(false); });
    socket.once('error', (error) => resolve(`Redis is not reachable at ${hostname}:${port} (${error.message}): start it, or set TEST_REDIS_URL`));
    socket.once('timeout', () => { socket.destroy(); resolve(`Redis at ${hostname}:${port} did not answer`); });
  });
}

/** Polls `read` until `done` holds; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value).slice(0, 500)})`);
    await sleep(200);
  }
}

export async function createCluster(queue: SharedQueue): Promise<Cluster> {
  const db: TestDatabase = await createTestDatabase(`taskloom_${queue.replace('-', '')}`);
  const prefix = `taskloom-e2e-${randomBytes(5).toString('hex')}`;
  const secretsKey = randomBytes(32).toString('base64');
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  let apiKey = '';
  return {
    apiKey: () => apiKey,
    dbUrl: (port) => db.url(port),
    async spawn(name, extra = {}) {
      const dir = await makeTempDir(`taskloom-${name}-`);
      dirs.push(dir);
      const proc = await spawnService({
        STORAGE: 'postgres', DATABASE_URL: db.url(), DATA_DIR: dir, ALLOW_PRIVATE_NETWORKS: 'true', SECRETS_KEY: secretsKey,
        QUEUE: queue, ...(queue === 'bullmq' ? { REDIS_URL, QUEUE_PREFIX: prefix } : {}), INSTANCE_ID: `instance-${name}`, ...extra,
      });
      procs.push(proc);
      const member: Member = {
        name, proc,
        call: (method, url, options) => request(proc.baseUrl, method, url, { apiKey, ...options }),
        ran: (executionId) => proc.output().split('\n').some((line) => line.includes('"run started"') && line.includes(executionId)),
      };
      if (!apiKey) {
        const setup = await member.call('POST', '/api/auth/setup', { body: ADMIN });
        assert.equal(setup.status, 200, setup.text);
        apiKey = (await member.call('POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey;
      }
      return member;
    },
    async close() {
      await Promise.all(procs.map((proc) => proc.stop('SIGKILL')));
      await db.drop();
      await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
      if (queue === 'bullmq') await dropRedisPrefix(prefix);
    },
  };
}

/** Removes the Redis keys of a BullMQ queue prefix (QUEUE_PREFIX) a test used. */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
