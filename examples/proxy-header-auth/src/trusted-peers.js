// Which peers may vouch for a user: PROXY_HEADER_TRUSTED, a comma-separated list of addresses and CIDR ranges.
import { BlockList, isIP } from 'node:net';

/**
 * Why `list` is not a usable list of addresses, or undefined when it is.
 * @param {string} list
 */
export function trustedListProblem(list) {
  const entries = list.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) return 'must name at least one proxy address, e.g. 127.0.0.1 or 10.0.0.0/8';
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const bits = family === 4 ? 32 : 128;
    const badPrefix = prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || badPrefix || extra !== undefined) return `holds "${entry}": expected IP addresses or CIDR ranges, comma-separated`;
  }
  return undefined;
}

/** An IPv4 peer reaching a dual-stack socket shows as `::ffff:a.b.c.d`. @param {string} address */
function plain(address) {
  return address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * A check of peer addresses against the list (which `trustedListProblem` accepted).
 * @param {string} list
 * @returns {(address: string) => boolean}
 */
export function createTrustedPeers(list) {
  const problem = trustedListProblem(list);
  if (problem) throw new Error(`PROXY_HEADER_TRUSTED ${problem}`);
  const rules = new BlockList();
  for (const entry of list.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) rules.addAddress(plain(address), type);
    else rules.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const peer = plain(address);
    const family = isIP(peer);
    return family !== 0 && rules.check(peer, family === 4 ? 'ipv4' : 'ipv6');
  };
}
