import { describe, expect, it } from 'vitest';
import { DEFAULT_IP_EXCLUDE } from '../../../src/config/keys/protocol.js';
import { AddressFilter } from '../../../src/protocol/http/address-filter.js';
import { allowedAddress, allowedAddresses } from '../../../src/protocol/http/connector.js';
import { BlockedAddressError } from '../../../src/protocol/http/errors.js';
import { ConfigError } from '../../../src/util/errors.js';

const byDefault = AddressFilter.fromEntries(DEFAULT_IP_EXCLUDE);

describe('address filter (http.filter.ipaddress.exclude)', () => {
  it.each([
    ['127.0.0.1', 'localhost'],
    ['127.255.0.9', 'localhost'],
    ['::1', 'localhost'],
    ['10.1.2.3', 'sitelocal'],
    ['172.16.0.1', 'sitelocal'],
    ['172.31.255.255', 'sitelocal'],
    ['192.168.1.1', 'sitelocal'],
    ['fec0::1', 'sitelocal'],
    ['169.254.169.254', 'linklocal'],
    ['fe80::1', 'linklocal'],
    ['fe80::1%eth0', 'linklocal'],
    ['0.0.0.0', 'anylocal'],
    ['::', 'anylocal'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['100.64.0.1', '100.64.0.0/10'],
    ['100.127.255.255', '100.64.0.0/10'],
    ['0.1.2.3', '0.0.0.0/8'],
    ['fd12:3456::1', 'fc00::/7'],
    ['::ffff:127.0.0.1', 'localhost'],
    ['::ffff:10.0.0.1', 'sitelocal'],
  ])('refuses %s by default (entry %s)', (address, entry) => {
    expect(byDefault.refusedBy(address)).toBe(entry);
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700::1111', '93.184.216.34'])(
    'lets public address %s through',
    (address) => {
      expect(byDefault.refusedBy(address)).toBeUndefined();
    },
  );

  it('accepts plain addresses and CIDRs of both families, names in any case', () => {
    const f = AddressFilter.fromEntries(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', 'LOCALHOST']);
    expect(f.refusedBy('203.0.113.7')).toBe('203.0.113.7');
    expect(f.refusedBy('203.0.113.8')).toBeUndefined();
    expect(f.refusedBy('198.51.100.200')).toBe('198.51.100.0/24');
    expect(f.refusedBy('2001:db8:1::1')).toBe('2001:db8::/32');
    expect(f.refusedBy('127.0.0.1')).toBe('LOCALHOST');
  });

  it('allows everything when the key is empty', () => {
    expect(AddressFilter.fromEntries([]).allowsAll).toBe(true);
    expect(AddressFilter.fromEntries(['', ' ']).refusedBy('127.0.0.1')).toBeUndefined();
  });

  it('refuses at start-up an entry that is neither a name nor a CIDR, naming it and the key', () => {
    expect(() => AddressFilter.fromEntries(['lan', '10.0.0.0/33', 'localhost'])).toThrow(ConfigError);
    expect(() => AddressFilter.fromEntries(['lan', '10.0.0.0/33'])).toThrow(
      /http\.filter\.ipaddress\.exclude.*"lan", "10\.0\.0\.0\/33"/,
    );
  });
});

describe('allowed address after resolution', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a public-looking name that resolves inside, naming the address and the key that allows it', async () => {
    const err = await allowedAddress('intranet.example.com', byDefault, resolveTo('10.0.0.5')).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err.message).toBe(
      'intranet.example.com (10.0.0.5) refused: --set http.filter.ipaddress.allow=10.0.0.5',
    );
  });

  it('the hint for a refused IPv4 address is one line under 80 columns', async () => {
    const err = await allowedAddress('127.100.200.255', byDefault, resolveTo('127.100.200.255')).catch(
      (e) => e,
    );
    expect(err.message).toBe('127.100.200.255 refused: --set http.filter.ipaddress.allow=127.100.200.255');
    expect(err.rule).toBe('localhost');
    expect(err.message.length).toBeLessThanOrEqual(80);
  });

  it('http.filter.ipaddress.allow lets an address or range through whatever the exclusions say', async () => {
    const allowing = AddressFilter.fromEntries(DEFAULT_IP_EXCLUDE, 'http.filter.ipaddress.exclude', [
      '127.0.0.1',
      '192.168.1.0/24',
    ]);
    expect(allowing.refusedBy('127.0.0.1')).toBeUndefined();
    expect(allowing.refusedBy('192.168.1.77')).toBeUndefined();
    expect(allowing.refusedBy('127.0.0.2')).toBe('localhost');
    expect(allowing.refusedBy('192.168.2.1')).toBe('sitelocal');
    expect(() => AddressFilter.fromEntries([], 'x', ['nowhere'])).toThrow(/http\.filter\.ipaddress\.allow/);
  });

  it('checks IP literals without resolving them, brackets of IPv6 included', async () => {
    const never = async () => {
      throw new Error('resolved');
    };
    await expect(allowedAddress('127.0.0.1', byDefault, never)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(allowedAddress('[::1]', byDefault, never)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(allowedAddress('8.8.8.8', byDefault, never)).resolves.toBe('8.8.8.8');
  });

  it('keeps only the allowed addresses, in resolver order', async () => {
    const resolver = resolveTo('10.0.0.1', '93.184.216.34', '127.0.0.1', '2606:4700::1111');
    await expect(allowedAddresses('mixed.example', byDefault, resolver)).resolves.toEqual([
      '93.184.216.34',
      '2606:4700::1111',
    ]);
  });

  it('connects to the first allowed address when only some are refused', async () => {
    await expect(
      allowedAddress('mixed.example', byDefault, resolveTo('127.0.0.1', '93.184.216.34')),
    ).resolves.toBe('93.184.216.34');
  });

  it('reports a name without addresses as unknown', async () => {
    await expect(allowedAddress('none.example', byDefault, resolveTo())).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });
});
