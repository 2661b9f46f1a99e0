// What lets instances share browser sessions without shared memory, on its own: relay tokens any instance with the
// shared key verifies, the signed peer header (one purpose, session and receiver, 30 s, once), the URL an instance
// advertises in its lease, and the records of which instance holds which session.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import type { Logger } from '../../kernel/contracts/logger.js';
import type { StorageProvider } from '../../kernel/contracts/storage.js';
import { PeerAuth } from '../../plugins/browser-sessions/peer-auth.js';
import { claimKey, RelayTokens } from '../../plugins/browser-sessions/relay-tokens.js';
import { SessionRecords } from '../../plugins/browser-sessions/session-records.js';
import { listenUrl } from '../../plugins/instances/advertised-url.js';
import { createInstance } from '../../plugins/instances/instance.js';
import { openJsonStorage } from '../../providers/storage/json/index.js';
import { makeTempDir } from '../support/service.js';

const silent: Logger = { fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, child: () => silent };

async function openStorage(t: TestContext): Promise<StorageProvider> {
  const dir = await makeTempDir('taskloom-peers-');
  const storage = await openJsonStorage({ dir, logger: silent });
  t.after(async () => {
    await storage.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return storage;
}

describe('relay tokens across instances', () => {
  it('a token issued by one instance is accepted by another with the same key, and by none with another key', () => {
    const key = crypto.randomBytes(32);
    const a = new RelayTokens(60_000, Date.now, key);
    const b = new RelayTokens(60_000, Date.now, key);
    const stranger = new RelayTokens(60_000, Date.now, crypto.randomBytes(32));
    const token = a.issue('bs_x');
    assert.match(token, /^[A-Za-z0-9_-]{76}$/);
    assert.equal(stranger.consume(token, 'bs_x'), false, 'another key');
    assert.equal(b.consume(token, 'bs_x'), true, 'verified without asking A');
    assert.equal(b.consume(token, 'bs_x'), false, 'spent where it was presented');
    assert.equal(claimKey(token), claimKey(token));
    assert.ok(!claimKey(token).includes(token), 'the claim key does not hold the token');
    const tampered = Buffer.from(a.issue('bs_x'), 'base64url');
    tampered.writeBigUInt64BE(BigInt(Date.now() + 3_600_000), 1); // a later expiry, without the key
    assert.equal(b.consume(tampered.toString('base64url'), 'bs_x'), false, 'the expiry is signed');
  });
});

describe('peer header', () => {
  const key = crypto.randomBytes(32);
  it('is accepted once, by its receiver, for its purpose and session, within 30 s', () => {
    let now = 1_000_000;
    const alpha = new PeerAuth(key, 'alpha', () => now);
    const beta = new PeerAuth(key, 'beta', () => now);
    const header = alpha.sign('devtools', 'bs_1', 'beta');
    assert.equal(alpha.verify(header, 'devtools', 'bs_1'), undefined, 'meant for beta, not alpha');
    assert.equal(beta.verify(header, 'close', 'bs_1'), undefined, 'another purpose');
    assert.equal(beta.verify(header, 'devtools', 'bs_2'), undefined, 'another session');
    assert.equal(beta.verify(header, 'devtools', 'bs_1'), 'alpha', 'names its sender');
    assert.equal(beta.verify(header, 'devtools', 'bs_1'), undefined, 'once');
    const late = alpha.sign('close', 'bs_1', 'beta');
    now += 61_000;
    assert.equal(beta.verify(late, 'close', 'bs_1'), undefined, 'expired (beyond the allowed clock skew)');
    const forged = new PeerAuth(crypto.randomBytes(32), 'alpha', () => now).sign('close', 'bs_1', 'beta');
    assert.equal(beta.verify(forged, 'close', 'bs_1'), undefined, 'signed with another key');
    for (const junk of [undefined, '', 'e30', 'e30.', 'a.b.c', ['x', 'y']]) assert.equal(beta.verify(junk as string, 'close', 'bs_1'), undefined);
  });
});

describe('instance URLs and session records', () => {
  it('an instance advertises its URL in its lease; another reads it while the lease holds', async (t) => {
    const storage = await openStorage(t);
    const a = createInstance({ settings: storage.settings, logger: silent, id: 'alpha', host: 'host-a' });
    const b = createInstance({ settings: storage.settings, logger: silent, id: 'beta', host: 'host-b' });
    await a.start();
    await b.start();
    t.after(() => b.stop());
    assert.equal(await b.urlOf('alpha'), undefined, 'none advertised yet');
    await a.advertise('http://10.0.0.11:11345');
    assert.equal(await b.urlOf('alpha'), 'http://10.0.0.11:11345');
    await a.stop();
    assert.equal(await b.urlOf('alpha'), undefined, 'a stopped instance is reached nowhere');
  });

  it('records which live instance holds a session; one instance holds one; its records go at release', async (t) => {
    const storage = await openStorage(t);
    const a = createInstance({ settings: storage.settings, logger: silent, id: 'alpha', host: 'host-a' });
    const b = createInstance({ settings: storage.settings, logger: silent, id: 'beta', host: 'host-b' });
    await a.start();
    await b.start();
    t.after(() => b.stop());
    const onA = new SessionRecords(storage.settings, a);
    const onB = new SessionRecords(storage.settings, b);
    await onA.hold('bs_1');
    await onA.hold('bs_2');
    assert.deepEqual([await onB.holderOf('bs_1'), await onB.holderOf('bs_2')], [undefined, 'alpha'], 'the newer session replaced the older');
    assert.deepEqual(await onB.heldElsewhere(), ['bs_2']);
    assert.deepEqual(await onA.heldElsewhere(), [], 'not elsewhere for its holder');
    await a.stop();
    assert.equal(await onB.holderOf('bs_2'), undefined, 'a holder whose lease ended holds nothing');
    await a.start();
    await onA.release();
    assert.equal(await onB.holderOf('bs_2'), undefined);
    await a.stop();
  });

  it('the URL of where the service listens: the address itself, or the machine\'s external one for a wildcard', () => {
    assert.equal(listenUrl({ address: '127.0.0.1', port: 11345, family: 'IPv4' }), 'http://127.0.0.1:11345');
    assert.equal(listenUrl({ address: '::1', port: 8080, family: 'IPv6' }), 'http://[::1]:8080');
    assert.match(listenUrl({ address: '0.0.0.0', port: 80, family: 'IPv4' })!, /^http:\/\/\d+\.\d+\.\d+\.\d+:80$/);
    assert.equal(listenUrl('/run/taskloom.sock'), undefined);
  });
});
