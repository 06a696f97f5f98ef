import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../../util/errors.js';

type Family = 'ipv4' | 'ipv6';
type Range = readonly [network: string, prefix: number, family: Family];

/**
 * The names StormCrawler's `http.filter.ipaddress.exclude` accepts, as the ranges Java's
 * InetAddress.isXxxAddress() tests cover (sitelocal includes the deprecated fec0::/10 as in Java).
 */
export const NAMED_RANGES: Readonly<Record<string, readonly Range[]>> = {
  localhost: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  sitelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fec0::', 10, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  anylocal: [
    ['0.0.0.0', 32, 'ipv4'],
    ['::', 128, 'ipv6'],
  ],
  multicast: [
    ['224.0.0.0', 4, 'ipv4'],
    ['ff00::', 8, 'ipv6'],
  ],
};

function parseEntry(entry: string): readonly Range[] | undefined {
  const named = NAMED_RANGES[entry.toLowerCase()];
  if (named) return named;
  const slash = entry.indexOf('/');
  const ip = slash < 0 ? entry : entry.slice(0, slash);
  const version = isIP(ip);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefixText = slash < 0 ? String(max) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return [[ip, Number(prefixText), version === 4 ? 'ipv4' : 'ipv6']];
}

/**
 * The addresses the crawler never connects to. Checked by the connector after DNS resolution and
 * before connecting to exactly the checked address, so a public name pointing inside is refused and
 * a DNS answer cannot change between the check and the connection.
 */
export class AddressFilter {
  private constructor(
    private readonly rules: readonly (readonly [entry: string, list: BlockList])[],
    /** http.filter.ipaddress.allow: addresses connected to whatever the rules say. */
    private readonly allowed?: AddressFilter,
  ) {}

  /**
   * Parses the key's entries, and those of the allow-list over them; a ConfigError names every
   * entry that is neither a name nor a CIDR.
   */
  static fromEntries(
    entries: readonly string[],
    key = 'http.filter.ipaddress.exclude',
    allow: readonly string[] = [],
  ): AddressFilter {
    const allowed = allow.some((a) => a.trim() !== '')
      ? AddressFilter.fromEntries(allow, 'http.filter.ipaddress.allow')
      : undefined;
    const rules: [string, BlockList][] = [];
    const bad: string[] = [];
    for (const raw of entries) {
      const entry = raw.trim();
      if (entry === '') continue;
      const ranges = parseEntry(entry);
      if (!ranges) {
        bad.push(entry);
        continue;
      }
      const list = new BlockList();
      for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
      rules.push([entry, list]);
    }
    if (bad.length > 0) {
      throw new ConfigError([
        `key "${key}" has ${bad.map((b) => JSON.stringify(b)).join(', ')}: expected ` +
          `${Object.keys(NAMED_RANGES).join(', ')}, an IP address or a CIDR such as 100.64.0.0/10`,
      ]);
    }
    return new AddressFilter(rules, allowed);
  }

  /**
   * The value of http.filter.ipaddress.exclude that no longer refuses what `entry` refuses: the
   * entries as given, without that one ("" when it was the only one).
   */
  without(entry: string): string {
    return this.rules
      .map(([e]) => e)
      .filter((e) => e !== entry)
      .join(',');
  }

  /** True when nothing is excluded (the key is empty). */
  get allowsAll(): boolean {
    return this.rules.length === 0;
  }

  /**
   * The entry of the key that refuses `address`, or undefined when it may be connected to. IPv4
   * mapped into IPv6 (::ffff:127.0.0.1) is checked against the IPv4 ranges too.
   */
  refusedBy(address: string): string | undefined {
    const zone = address.indexOf('%');
    const ip = zone < 0 ? address : address.slice(0, zone);
    const version = isIP(ip);
    if (version === 0) return undefined;
    const family: Family = version === 4 ? 'ipv4' : 'ipv6';
    if (this.allowed?.refusedBy(address) !== undefined) return undefined;
    for (const [entry, list] of this.rules) if (list.check(ip, family)) return entry;
    return undefined;
  }
}
