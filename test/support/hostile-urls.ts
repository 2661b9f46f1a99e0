/**
 * Private and local destinations in many spellings, as `scheme://host:port` (no path), so every
 * URL-taking endpoint can be fed the same corpus. Refused by default; allowed with
 * ALLOW_PRIVATE_NETWORKS=true. (The guard's own test covers more forms, including DNS answers.)
 */
export const HOSTILE_HOSTS = [
  '127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '0x7f000001', '127.1', '127.0.1', '017700000001', '127.0.0.1.',
  '10.0.0.1', '172.16.0.1', '192.168.1.1', '0.0.0.0', '0', '169.254.169.254', '100.64.0.1', '192.0.0.1', '198.18.0.1',
  '224.0.0.1', '255.255.255.255', '240.0.0.1',
  '[::1]', '[::]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:169.254.169.254]', '[::ffff:10.0.0.1]',
  '[fe80::1]', '[fc00::1]', '[fd12:3456:789a::1]', '[ff02::1]', '[64:ff9b::10.0.0.1]', '[2002:c0a8:0101::]',
  'localhost', 'localhost.', 'LOCALHOST', 'foo.localhost',
];

export const hostileUrls = (scheme = 'http', port = 8080) => HOSTILE_HOSTS.map((host) => `${scheme}://${host}:${port}`);
