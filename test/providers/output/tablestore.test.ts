import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../kernel/config.js';
import { Errors } from '../../../kernel/errors.js';
import { createOutboundClient, createOutboundGuard } from '../../../kernel/outbound/index.js';
import { Registry } from '../../../kernel/registry.js';
import { providers } from '../../../app/built-ins.js';
import { createTablestoreTarget, tablestoreOutput } from '../../../providers/output/tablestore/index.js';
import { statusError } from '../../../providers/output/tablestore/upstream-error.js';
import { createRecordingLogger } from '../../../testing/loggers.js';
import { outputContract, upstreamError, type OutputFixtureOptions } from '../../../testing/output.contract.js';
import { BASEROW_MAX_BATCH, startBaserowStandIn, type BaserowStandIn } from '../../stand-ins/baserow.js';

/** The tablestore provider, created as the kernel creates it, against a fresh Baserow stand-in. */
async function tablestoreFixture({ allowPrivateNetworks, logger }: OutputFixtureOptions) {
  const standIn = await startBaserowStandIn();
  const guard = createOutboundGuard({ allowPrivateNetworks, allowAddress: (ip) => ip === '127.0.0.1' });
  const client = createOutboundClient(guard);
  const config = loadConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  const target = await tablestoreOutput.create({
    config, logger, dataDir: config.dataDir, outbound: { guard, client }, signal: new AbortController().signal,
  });
  return {
    target,
    config: { baseUrl: standIn.url, token: standIn.token },
    databases: standIn.databases,
    database: { id: 11, tables: standIn.tables.get(11)! },
    tableId: 101,
    maxBatch: BASEROW_MAX_BATCH,
    received: () => standIn.rows.get(101) ?? [],
    batches: () => [...standIn.batches],
    fail: standIn.fail,
    reset: standIn.reset,
    async close() {
      await client.close();
      await standIn.close();
    },
  };
}

outputContract('tablestore', tablestoreFixture);

describe('tablestore: Baserow specifics', () => {
  let standIn: BaserowStandIn;
  let client: ReturnType<typeof createOutboundClient>;
  const logger = createRecordingLogger();
  const target = () => createTablestoreTarget(client, { logger, timeoutMs: 300 });
  const config = () => ({ baseUrl: `${standIn.url}//`, token: standIn.token });

  before(async () => {
    standIn = await startBaserowStandIn();
    client = createOutboundClient(createOutboundGuard({ allowPrivateNetworks: true }));
  });
  after(async () => {
    await client.close();
    await standIn.close();
  });

  it('is registered as output provider "tablestore" with the contract version the kernel speaks', () => {
    const registry = new Registry();
    registry.addModule({ providers });
    assert.ok(registry.providerIds('output').includes('tablestore'));
    assert.equal(registry.provider('output', 'tablestore'), tablestoreOutput);
  });

  it('pushes 450 rows as 3 batch requests of at most 200, with field names, to the documented paths', async () => {
    standIn.reset();
    const rows = Array.from({ length: 450 }, (_, i) => ({ Name: `n${i}` }));
    assert.equal(await target().push(config(), 101, rows), 450);
    assert.deepEqual(standIn.batches, [200, 200, 50]);
    assert.deepEqual(standIn.requests.map((r) => `${r.method} ${r.url}`), Array(3).fill('POST /api/database/rows/table/101/batch/?user_field_names=true'));
    assert.ok(standIn.requests.every((r) => r.authorization === `Token ${standIn.token}`));
  });

  it('reads databases from /api/applications/ and tables from /api/database/tables/database/{id}/ (trailing slashes stripped)', async () => {
    standIn.reset();
    assert.deepEqual(await target().listDatabases(config()), [{ id: 11, name: 'Sales' }, { id: 12, name: 'Ops' }]);
    assert.deepEqual(await target().listTables(config(), 12), [{ id: 201, name: 'Incidents' }]);
    assert.deepEqual(standIn.requests.map((r) => `${r.method} ${r.url}`), ['GET /api/applications/', 'GET /api/database/tables/database/12/']);
  });

  it('names Baserow\'s error code and tells the operator what to check', async () => {
    const wrongToken = await upstreamError(target().listDatabases({ ...config(), token: 'wrong-token-123' }), 'wrong-token-123');
    assert.match(wrongToken.message, /401 Unauthorized: ERROR_INVALID_ACCESS_TOKEN .*check the credential token/);
    const missing = await upstreamError(target().listTables(config(), 999), standIn.token);
    assert.match(missing.message, /404 .*ERROR_APPLICATION_DOES_NOT_EXIST.*check the database or table id/);
    assert.equal(missing.retryable, false);
  });

  it('gives up on a product that does not answer, with a retryable UPSTREAM_ERROR', async () => {
    standIn.fail('hang', { times: 1 });
    const error = await upstreamError(target().listDatabases(config()), standIn.token);
    assert.match(error.message, /did not answer within 300 ms/);
    assert.equal(error.retryable, true);
  });

  it('refuses a table id that is not a whole number before calling anyone', async () => {
    standIn.reset();
    await assert.rejects(target().push(config(), 1.5, [{ a: 1 }]), (e: unknown) => Errors.VALIDATION_ERROR.is(e));
    assert.equal(standIn.requests.length, 0);
  });
});

describe('tablestore: error translation (pure)', () => {
  it('reads Baserow\'s { error, detail } body, with an object detail as JSON', () => {
    const body = JSON.stringify({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { items: [{ code: 'max_length' }] } });
    assert.equal(statusError(400, body, 't0k3n').message,
      'tablestore answered 400 Bad Request: ERROR_REQUEST_BODY_VALIDATION ({"items":[{"code":"max_length"}]})');
  });

  it('flattens an HTML page and cuts long text', () => {
    assert.match(statusError(502, `<h1>Bad   gateway</h1>${'x'.repeat(1000)}`, 'secret-token').message, /^tablestore answered 502 Bad Gateway: Bad gateway x+…; the product failed/);
  });

  it('redacts the token wherever the upstream echoed it', () => {
    const error = statusError(401, JSON.stringify({ error: 'ERROR_X', detail: 'Token s3cr3t-token is unknown' }), 's3cr3t-token');
    assert.ok(!error.message.includes('s3cr3t-token'));
    assert.match(error.message, /Token \[redacted\] is unknown/);
  });
});
