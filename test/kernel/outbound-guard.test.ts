import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Errors, TaskloomError } from '../../kernel/errors.js';
import { asError, createOutboundGuard, OutboundBlockedError } from '../../kernel/outbound/guard.js';
import type { ResolvedAddress } from '../../kernel/outbound/guard.js';

// Injected DNS: no real resolver is ever asked.
const DNS: Record<string, string[]> = {
  'example.com': ['93.184.215.14'],
  'example.com.': ['93.184.215.14'],
  'proxy.example': ['8.8.4.4'],
  'v6.example': ['2606:4700::1111'],
  'multi.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example': ['10.0.0.5'],
  'mixed.example': ['93.184.215.14', '10.0.0.5'],
  'v6private.example': ['fd00::1'],
  'metadata.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'loop6.example': ['::1'],
};

function fakeLookup(calls: string[] = []) {
  return async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const found = DNS[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const strict = createOutboundGuard({ allowPrivateNetworks: false, lookup: fakeLookup() });
const open = createOutboundGuard({ allowPrivateNetworks: true, lookup: fakeLookup() });
const PROXY = { protocols: ['http:', 'https:', 'socks5:'] };

/** Private or local targets: refused by default, allowed with ALLOW_PRIVATE_NETWORKS. */
const PRIVATE = [
  // IPv4 loopback in every spelling
  'http://127.0.0.1', 'http://127.0.0.1:8080/admin', 'http://2130706433', 'http://0177.0.0.1', 'http://0x7f.1',
  'http://0x7f000001', 'http://127.1', 'http://127.0.1', 'http://0x7f.0.0.1', 'http://017700000001',
  'http://127.0.0.1.', 'http://%31%32%37.0.0.1', 'http://①②⑦.0.0.1', 'https://127.255.255.254',
  // private, shared, link-local, special IPv4
  'http://10.0.0.1', 'http://172.16.0.1', 'http://172.31.255.255', 'http://192.168.1.1', 'http://0.0.0.0', 'http://0',
  'http://255.255.255.255', 'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1', 'http://100.127.255.254',
  'http://192.0.0.1', 'http://192.0.2.1', 'http://198.18.0.1', 'http://198.19.255.1', 'http://198.51.100.1',
  'http://203.0.113.1', 'http://224.0.0.1', 'http://239.255.255.250', 'http://240.0.0.1',
  // IPv6 and IPv4-in-IPv6
  'http://[::1]', 'http://[0:0:0:0:0:0:0:1]', 'http://[::]', 'http://[::ffff:127.0.0.1]', 'http://[::ffff:7f00:1]',
  'http://[0:0:0:0:0:ffff:169.254.169.254]', 'http://[::ffff:10.0.0.1]', 'http://[::127.0.0.1]', 'http://[::10.0.0.1]',
  'http://[::ffff:0:7f00:1]', 'http://[fe80::1]', 'http://[fc00::1]', 'http://[fd12:3456:789a::1]', 'http://[fec0::1]',
  'http://[ff02::1]', 'http://[64:ff9b::10.0.0.1]', 'http://[64:ff9b::7f00:1]', 'http://[64:ff9b:1::a00:1]',
  'http://[2002:c0a8:0101::]', 'http://[2002:7f00:1::]', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  'http://[2001:db8::1]', 'http://[2001:2::1]',
  // local names
  'http://localhost', 'http://localhost./', 'http://LOCALHOST', 'http://foo.localhost', 'http://a.b.LocalHost..',
  'https://localhost:8443/x',
  // names whose (injected) lookup answers a private address
  'http://internal.example', 'http://mixed.example', 'http://v6private.example', 'http://metadata.example',
  'http://mapped.example', 'http://loop6.example',
  // credentials do not change the verdict
  'http://user:secret@10.0.0.1/',
];

/** Refused whatever ALLOW_PRIVATE_NETWORKS says: wrong scheme or not a URL. */
const MALFORMED = [
  'file:///etc/passwd', 'gopher://127.0.0.1:70/_GET', 'ftp://example.com/', 'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>', 'ws://example.com', 'socks5://example.com:1080', 'dict://127.0.0.1:11211/',
  '', '   ', 'not a url', 'http://', 'http://[::1', 'http://1.2.3.4.5', '//example.com/', 'http://exa mple.com',
  'https://example.com:99999', 'http://[fe80::1%25eth0]', 'http://[fe80::1%eth0]',
];

const PUBLIC = [
  'https://example.com', 'https://example.com./path?q=1', 'http://8.8.8.8', 'http://1.1.1.1:8080/x',
  'http://[2606:4700::1111]', 'https://v6.example', 'https://multi.example', 'http://user:pass@example.com/hook',
  'http://[::ffff:8.8.8.8]', 'http://[64:ff9b::8.8.8.8]', 'HTTPS://EXAMPLE.COM',
];

async function refusal(promise: Promise<unknown>): Promise<OutboundBlockedError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  assert.ok(error instanceof OutboundBlockedError, `expected OutboundBlockedError, got ${String(error)}`);
  return error;
}

describe('outbound guard: hostile inputs', () => {
  test('the corpus is large enough', () => {
    assert.ok(PRIVATE.length + MALFORMED.length >= 60, `${PRIVATE.length + MALFORMED.length} inputs`);
  });

  for (const raw of [...PRIVATE, ...MALFORMED]) {
    test(`refuses ${JSON.stringify(raw)}`, async () => {
      const error = await refusal(strict.checkUrl(raw));
      assert.equal(error.reason, error.message);
      assert.ok(error.reason.length > 0);
    });
  }

  for (const raw of MALFORMED) {
    test(`refuses ${JSON.stringify(raw)} even with private networks allowed`, async () => {
      await refusal(open.checkUrl(raw));
    });
  }

  test('private targets say so and name the setting that allows them', async () => {
    const error = await refusal(strict.checkUrl('http://10.0.0.1'));
    assert.match(error.reason, /private/);
    assert.match(error.reason, /ALLOW_PRIVATE_NETWORKS=true/);
    assert.match((await refusal(strict.checkUrl('http://0x7f.1'))).reason, /127\.0\.0\.1 is a loopback/);
    assert.match((await refusal(strict.checkUrl('http://mixed.example'))).reason, /resolves to 10\.0\.0\.5/);
    assert.match((await refusal(strict.checkUrl('ftp://example.com'))).reason, /scheme ftp is not allowed: use http, https/);
  });

  test('an unresolvable name is refused', async () => {
    assert.match((await refusal(strict.checkUrl('http://nxdomain.example'))).reason, /could not be resolved/);
  });

  test('a literal address or a local name never reaches the resolver', async () => {
    const calls: string[] = [];
    const guard = createOutboundGuard({ allowPrivateNetworks: false, lookup: fakeLookup(calls) });
    await refusal(guard.checkUrl('http://127.1'));
    await refusal(guard.checkUrl('http://foo.localhost'));
    await guard.checkUrl('http://[2606:4700::1111]');
    assert.deepEqual(calls, []);
  });
});

describe('outbound guard: public inputs', () => {
  for (const raw of PUBLIC) {
    test(`allows ${raw}`, async () => {
      const url = await strict.checkUrl(raw);
      assert.ok(url instanceof URL);
    });
  }

  test('returns the parsed URL', async () => {
    const url = await strict.checkUrl('https://example.com/a?b=c');
    assert.equal(url.href, 'https://example.com/a?b=c');
  });
});

describe('outbound guard: ALLOW_PRIVATE_NETWORKS=true', () => {
  for (const raw of PRIVATE) {
    test(`allows ${raw}`, async () => {
      await open.checkUrl(raw);
    });
  }

  test('checkAddress allows everything parsable', () => {
    assert.equal(open.checkAddress('127.0.0.1'), true);
    assert.equal(open.checkAddress('fd00::1'), true);
  });
});

describe('outbound guard: proxies', () => {
  test('socks5 is refused unless requested', async () => {
    assert.match((await refusal(strict.checkUrl('socks5://proxy.example:1080'))).reason, /scheme socks5/);
    const url = await strict.checkUrl('socks5://user:pass@proxy.example:1080', PROXY);
    assert.equal(url.protocol, 'socks5:');
    assert.equal(url.password, 'pass');
  });

  for (const raw of ['socks5://0x7f.1:1080', 'socks5://127.1:1080', 'socks5://[::1]:1080', 'socks5://localhost:1080',
    'socks5://u:secret@10.0.0.1:1080', 'socks5://internal.example:1080', 'socks5:nohost']) {
    test(`refuses proxy ${raw}`, async () => {
      const error = await refusal(strict.checkUrl(raw, PROXY));
      assert.ok(!error.reason.includes('secret'));
    });
  }

  test('a private proxy is allowed with private networks allowed', async () => {
    await open.checkUrl('socks5://u:p@10.0.0.1:1080', PROXY);
  });
});

describe('outbound guard: credentials never leak', () => {
  const withSecrets = [
    'http://user:secret@10.0.0.1', 'http://user:secret@localhost/', 'ftp://user:secret@example.com',
    'http://user:secret@[::1', 'http://user:secret@nxdomain.example', 'http://user:secret@mixed.example',
    'socks5://user:secret@127.0.0.1:1080', 'javascript://user:secret@x/%0aalert(1)',
  ];
  for (const raw of withSecrets) {
    test(`no password in the error for ${raw.replace('secret', '***')}`, async () => {
      const error = await refusal(strict.checkUrl(raw));
      assert.ok(!error.message.includes('secret'), error.message);
      assert.ok(!String(error.stack).includes('secret'));
      const mapped = await strict.checkUrl(raw, { errorAs: Errors.INVALID_URL }).catch((e: unknown) => e);
      assert.ok(mapped instanceof TaskloomError);
      assert.ok(!mapped.message.includes('secret'));
    });
  }
});

describe('outbound guard: errors for endpoints', () => {
  test('errorAs throws the catalogue error with the reason', async () => {
    const error = await strict.check('http://10.0.0.1', { errorAs: Errors.INVALID_WEBHOOK_URL }).catch((e: unknown) => e);
    assert.ok(Errors.INVALID_WEBHOOK_URL.is(error));
    assert.equal(error.statusCode, 400);
    assert.match(error.message, /10\.0\.0\.1 is a private address/);
    assert.ok(error.cause instanceof OutboundBlockedError);
  });

  test('asError maps only refusals', () => {
    const mapped = asError(Errors.INVALID_BASE_URL, new OutboundBlockedError('host x is a loopback address'));
    assert.ok(Errors.INVALID_BASE_URL.is(mapped));
    const other = new Error('boom');
    assert.equal(asError(Errors.INVALID_BASE_URL, other), other);
  });
});

describe('outbound guard: checkAddress', () => {
  const refused = ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '255.255.255.255', '224.0.0.251', '198.18.0.1', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00::1',
    'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::7f00:1', '64:ff9b::a00:1', '2002:c0a8:101::', 'not-an-ip', ''];
  const allowed = ['8.8.8.8', '93.184.215.14', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];

  for (const ip of refused) test(`refuses ${JSON.stringify(ip)}`, () => assert.equal(strict.checkAddress(ip), false));
  for (const ip of allowed) test(`allows ${ip}`, () => assert.equal(strict.checkAddress(ip), true));

  test('allowAddress lets chosen addresses through, and only those', () => {
    const guard = createOutboundGuard({ allowPrivateNetworks: false, allowAddress: (ip) => ip === '127.0.0.1' });
    assert.equal(guard.checkAddress('127.0.0.1'), true);
    assert.equal(guard.checkAddress('127.0.0.2'), false);
  });
});

describe('outbound guard: resolve', () => {
  test('returns every address of a public name', async () => {
    const addresses = await strict.resolve('multi.example');
    assert.equal(addresses.length, 2);
  });

  test('refuses a name with any private address', async () => {
    assert.match((await refusal(strict.resolve('mixed.example'))).reason, /10\.0\.0\.5, a private address/);
  });

  test('still resolves with private networks allowed (for connect time)', async () => {
    assert.deepEqual(await open.resolve('internal.example'), [{ address: '10.0.0.5', family: 4 }]);
    assert.deepEqual(await open.resolve('[::1]'), [{ address: '::1', family: 6 }]);
  });
});
