import { describe, expect, it } from 'vitest';
import { HostURLFilter } from '../../../src/urlfilters/host.js';

const source = new URL('http://www.sourcedomain.com/index.html');
const same = 'http://www.sourcedomain.com/index.html';
const other = 'http://www.anotherDomain.com/index.html';
const sub = 'http://sub.sourcedomain.com/index.html';

describe('HostURLFilter', () => {
  it('keeps everything when both checks are off', () => {
    const filter = new HostURLFilter({ ignoreOutsideHost: false, ignoreOutsideDomain: false });
    expect([same, other, sub].map((u) => filter.filter(source, null, u))).toEqual([same, other, sub]);
  });

  it('ignoreOutsideHost keeps only the source’s host', () => {
    for (const filter of [
      new HostURLFilter({ ignoreOutsideHost: true, ignoreOutsideDomain: false }),
      new HostURLFilter({ ignoreOutsideHost: true, ignoreOutsideDomain: true }),
    ]) {
      expect(filter.filter(source, null, same)).toBe(same);
      expect(filter.filter(source, null, 'HTTP://WWW.SourceDomain.com/x')).toBe(
        'HTTP://WWW.SourceDomain.com/x',
      );
      expect(filter.filter(source, null, other)).toBeNull();
      expect(filter.filter(source, null, sub)).toBeNull();
    }
  });

  it('ignoreOutsideDomain keeps the source’s registrable domain', () => {
    const filter = new HostURLFilter({ ignoreOutsideHost: false, ignoreOutsideDomain: true });
    expect(filter.filter(source, null, same)).toBe(same);
    expect(filter.filter(source, null, other)).toBeNull();
    expect(filter.filter(source, null, sub)).toBe(sub);
    const uk = new URL('http://www.shop.co.uk/');
    expect(filter.filter(uk, null, 'http://news.shop.co.uk/')).toBe('http://news.shop.co.uk/');
    expect(filter.filter(uk, null, 'http://other.co.uk/')).toBeNull();
  });

  it('honours ignoreOutsideDomain on its own (StormCrawler ignores it then)', () => {
    const filter = new HostURLFilter({ ignoreOutsideDomain: true });
    expect(filter.filter(source, null, other)).toBeNull();
    expect(filter.filter(source, null, sub)).toBe(sub);
  });

  it('treats a host without registrable domain (IP address, localhost) as its own domain', () => {
    const filter = new HostURLFilter({ ignoreOutsideDomain: true });
    const ip = new URL('http://192.0.2.1/');
    expect(filter.filter(ip, null, 'http://192.0.2.1:8080/x')).toBe('http://192.0.2.1:8080/x');
    expect(filter.filter(ip, null, 'http://192.0.2.2/')).toBeNull();
    expect(filter.filter(new URL('http://localhost/'), null, 'http://example.com/')).toBeNull();
  });

  it('lets seeds through and rejects what does not parse', () => {
    const filter = new HostURLFilter({ ignoreOutsideHost: true });
    expect(filter.filter(null, null, other)).toBe(other);
    expect(filter.filter(source, null, 'http://')).toBeNull();
  });
});
