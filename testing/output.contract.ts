// The bar every output provider meets. A provider's test (ours or a third party's) calls
// `outputContract('my-product', factory)` with a factory that builds a fresh target around its own product
// stand-in; taskloom's test/providers/output/tablestore.test.ts is the worked example.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Logger } from '../kernel/contracts/logger.js';
import type { OutputCredentialConfig, OutputLocation, OutputTarget } from '../kernel/contracts/output.js';
import { Errors, TaskloomError } from '../kernel/errors.js';
import { createRecordingLogger } from './loggers.js';

/** How the product is told to misbehave: the HTTP status named, an unreadable 200, or a redirect. */
export type OutputFailure = '401' | '429' | '500' | 'garbage' | { redirectTo: string };

export interface OutputFixtureOptions {
  /** False: the target's outbound guard refuses private addresses, except the product stand-in's own. */
  allowPrivateNetworks: boolean;
  /** Hand this to the provider as its context logger; the suite checks no line carries the token. */
  logger: Logger;
}

/** A fresh target talking to a fresh product stand-in. */
export interface OutputFixture {
  target: OutputTarget;
  /** A working credential for the stand-in. */
  config: OutputCredentialConfig;
  /** What `listDatabases` must answer, in order. */
  databases: OutputLocation[];
  /** A database and what `listTables` must answer for it. */
  database: { id: number; tables: OutputLocation[] };
  /** A table `push` may write to. */
  tableId: number;
  /** The most rows the product accepts in one request. */
  maxBatch: number;
  /** Rows the product holds for `tableId`, in the order received. */
  received(): Record<string, unknown>[];
  /** Rows in each push request the product accepted, in order. */
  batches(): number[];
  /** After `after` good answers (default 0), answers `times` requests (default all, until reset) with `failure`. */
  fail(failure: OutputFailure, options?: { times?: number; after?: number }): void;
  reset(): void;
  close(): Promise<void>;
}

export type OutputFixtureFactory = (options: OutputFixtureOptions) => Promise<OutputFixture>;

/** Resolves to the UPSTREAM_ERROR `promise` rejects with, after checking the token appears nowhere in it. */
export async function upstreamError(promise: Promise<unknown>, token: string): Promise<TaskloomError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(Errors.UPSTREAM_ERROR.is(error), `expected UPSTREAM_ERROR, got ${inspect(error)}`);
  assert.equal(error.statusCode, 502);
  assert.ok(!inspect(error, { depth: 8 }).includes(token), `the error carries the token: ${error.message}`);
  return error;
}

const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ Name: `row ${i}`, Count: i }));

async function listen(host: string, onHit: () => void): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => { onHit(); res.end('[]'); });
  server.listen(0, host);
  await once(server, 'listening');
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}` };
}

export function outputContract(name: string, factory: OutputFixtureFactory): void {
  describe(`output contract: ${name}`, () => {
    const logger = createRecordingLogger();
    let f: OutputFixture;
    before(async () => { f = await factory({ allowPrivateNetworks: true, logger }); });
    after(async () => { await f.close(); });

    it('lists the databases the credential can see, as { id, name } only', async (t) => {
      if (!f.target.capabilities.browse) return t.skip(`${name} does not browse (capabilities.browse is false)`);
      assert.deepEqual(await f.target.listDatabases(f.config), f.databases);
    });

    it('lists the tables of a database, as { id, name } only', async (t) => {
      if (!f.target.capabilities.browse) return t.skip(`${name} does not browse (capabilities.browse is false)`);
      assert.deepEqual(await f.target.listTables(f.config, f.database.id), f.database.tables);
    });

    it('pushes nothing for no rows', async () => {
      f.reset();
      assert.equal(await f.target.push(f.config, f.tableId, []), 0);
      assert.deepEqual(f.batches(), []);
    });

    it('pushes 450 rows in order, in as few requests as the product allows', async () => {
      f.reset();
      const rows = rowsOf(450);
      assert.equal(await f.target.push(f.config, f.tableId, rows), 450);
      assert.deepEqual(f.received(), rows);
      assert.ok(f.batches().every((size) => size <= f.maxBatch), `batches ${f.batches().join(', ')}`);
      assert.equal(f.batches().length, Math.ceil(450 / f.maxBatch));
    });

    for (const [failure, retryable] of [['401', false], ['429', true], ['500', true]] as const) {
      it(`maps an upstream ${failure} to UPSTREAM_ERROR (retryable ${retryable}) naming the status, not the token`, async () => {
        f.reset();
        f.fail(failure);
        const error = await upstreamError(f.target.push(f.config, f.tableId, rowsOf(3)), f.config.token);
        assert.match(error.message, new RegExp(failure));
        assert.equal(error.retryable, retryable);
      });
    }

    it('maps an unreadable answer to UPSTREAM_ERROR without repeating the token it echoed', async () => {
      f.reset();
      f.fail('garbage');
      const error = await upstreamError(f.target.push(f.config, f.tableId, rowsOf(3)), f.config.token);
      assert.equal(error.retryable, false);
    });

    it('says how many rows were written when a later batch fails', async () => {
      f.reset();
      f.fail('500', { after: 1, times: 1 });
      const error = await upstreamError(f.target.push(f.config, f.tableId, rowsOf(f.maxBatch + 1)), f.config.token);
      assert.match(error.message, new RegExp(`${f.maxBatch} of ${f.maxBatch + 1}`));
      assert.equal(f.received().length, f.maxBatch);
    });

    it('maps an unreachable product to a retryable UPSTREAM_ERROR', async () => {
      const { server, url } = await listen('127.0.0.1', () => undefined);
      server.close();
      await once(server, 'close');
      const error = await upstreamError(f.target.push({ ...f.config, baseUrl: url }, f.tableId, rowsOf(1)), f.config.token);
      assert.equal(error.retryable, true);
    });

    it('never writes the token to its logger', () => {
      const leaking = logger.lines.filter((line) => line.includes(f.config.token));
      assert.deepEqual(leaking, []);
    });
  });

  describe(`output contract: ${name}, private networks disallowed`, () => {
    const logger = createRecordingLogger();
    let f: OutputFixture;
    let trap: { server: Server; url: string };
    let trapHits = 0;
    before(async () => {
      f = await factory({ allowPrivateNetworks: false, logger });
      trap = await listen('127.0.0.2', () => { trapHits += 1; });
    });
    after(async () => {
      trap.server.close();
      await f.close();
    });

    it('reaches the product itself (its address is allowed)', async () => {
      f.reset();
      assert.equal(await f.target.push(f.config, f.tableId, rowsOf(2)), 2);
    });

    it('refuses a redirect to a private address without reaching it', async () => {
      f.reset();
      f.fail({ redirectTo: `${trap.url}/` });
      const error = await upstreamError(f.target.push(f.config, f.tableId, rowsOf(2)), f.config.token);
      assert.match(error.message, /refused/);
      assert.equal(error.retryable, false);
      assert.equal(trapHits, 0);
    });

    it('refuses a private base URL without reaching it', async () => {
      const error = await upstreamError(f.target.push({ ...f.config, baseUrl: trap.url }, f.tableId, rowsOf(2)), f.config.token);
      assert.match(error.message, /refused/);
      assert.equal(trapHits, 0);
    });
  });
}
