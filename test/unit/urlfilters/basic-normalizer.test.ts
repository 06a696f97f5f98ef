import { describe, expect, it } from 'vitest';
import {
  BasicURLNormalizer,
  type BasicURLNormalizerOptions,
} from '../../../src/urlfilters/basic-normalizer.js';

const normalize = (url: string, options: BasicURLNormalizerOptions = {}) =>
  new BasicURLNormalizer(options).filter(new URL('http://source.example/'), null, url);

const removeAFoo = { queryElementsToRemove: ['a', 'foo'] };

describe('BasicURLNormalizer: the examples of StormCrawler (its BasicURLNormalizer documentation)', () => {
  it('removes listed query parameters and sorts the others by name', () => {
    expect(normalize('http://google.com?a=c|d&foo=baz&foo=bar&test=true&z=2&d=4', removeAFoo)).toBe(
      // DIFFERS FROM STORMCRAWLER: the empty path becomes "/" (StormCrawler: http://google.com?d=4...).
      'http://google.com/?d=4&test=true&z=2',
    );
  });

  it('unmangles a query that starts with "&"', () => {
    expect(normalize('http://google.com&d=4&good=true', removeAFoo)).toBe('http://google.com/?d=4&good=true');
  });

  it('removes a ;jsessionid= path parameter holding a 32-hex session id', () => {
    const url = 'http://www.maroongroupllc.com/maroon/login/auth;jsessionid=8DBFC2FEDBD740BBC8B4D1A504A6DE7F';
    expect(normalize(url, { removeHashes: true })).toBe('http://www.maroongroupllc.com/maroon/login/auth');
  });

  it('turns %uXXXX into UTF-8 escapes', () => {
    expect(normalize('http://www.hurriyet.com.tr/index/?d=20160328&p=13&s=ni%u011fde')).toBe(
      'http://www.hurriyet.com.tr/index/?d=20160328&p=13&s=ni%C4%9Fde',
    );
  });

  it('converts IDN hosts to punycode', () => {
    expect(normalize('http://señal6.com.ar/', { hostIDNtoASCII: true })).toBe('http://xn--seal6-pta.com.ar/');
    expect(normalize('http://сфера.укр/', { hostIDNtoASCII: true })).toBe('http://xn--80aj7acp.xn--j1amh/');
  });

  it('resolves dot segments and drops the fragment', () => {
    expect(normalize('http://docs.oracle.com/javase/7/docs/api/java/net/../net/./URI.html#normalize()')).toBe(
      'http://docs.oracle.com/javase/7/docs/api/java/net/URI.html',
    );
  });
});

describe('BasicURLNormalizer: the other cases of StormCrawler’s test', () => {
  it('keeps the fragment when removeAnchorPart is false', () => {
    expect(normalize('http://www.sourcedomain.com/#0', { removeAnchorPart: false })).toBe(
      'http://www.sourcedomain.com/#0',
    );
    expect(normalize('http://A.example/p?x=1#sec', { removeAnchorPart: false })).toBe(
      'http://a.example/p?x=1#sec',
    );
  });

  it('removes a 32-hex query value and then the empty query', () => {
    const url =
      'http://www.florida-chemical.com/Diacetone-Alcohol-DAA-99.html?xid_0b629=12854b827878df26423d933a5baf86d5';
    expect(normalize(url, { removeHashes: true })).toBe(
      'http://www.florida-chemical.com/Diacetone-Alcohol-DAA-99.html',
    );
  });

  it('removes every occurrence of a listed parameter, and the "?" when none is left', () => {
    expect(normalize('http://google.com?keep1=true&a=c&foo=baz&keep2=true', removeAFoo)).toBe(
      'http://google.com/?keep1=true&keep2=true',
    );
    expect(normalize('http://google.com?a=c&foo=baz', removeAFoo)).toBe('http://google.com/');
    expect(normalize('http://google.com?a=c|d&foo=baz&foo=bar&test=true#fragment=ohYeah', removeAFoo)).toBe(
      'http://google.com/?test=true',
    );
  });

  it('unmangles only when asked, and only the last path segment', () => {
    const noUnmangle = { ...removeAFoo, unmangleQueryString: false };
    expect(normalize('http://google.com&d=4&good=true', noUnmangle)).toBeNull(); // the host would be "google.com&d=4&good=true"
    expect(normalize('http://dev.com/s&utax/NEWSRLSEfy18.pdf', removeAFoo)).toBe(
      'http://dev.com/s&utax/NEWSRLSEfy18.pdf',
    );
  });

  it('keeps escapes of reserved and non-ASCII characters, uppercased', () => {
    const url =
      'http://www.dillards.com/product/ASICS-Womens-GT2000-3-LiteShow%E2%84%A2-Running-Shoes_301_-1_301_504736989';
    expect(normalize(url, removeAFoo)).toBe(url);
    expect(normalize(`${url}?how=are&you=doing`, removeAFoo)).toBe(`${url}?how=are&you=doing`);
    expect(normalize('http://a.example/p?q=%e2%84%a2')).toBe('http://a.example/p?q=%E2%84%A2');
    expect(normalize('http://A.example/a%20b?q=%21x%3Dy')).toBe('http://a.example/a%20b?q=%21x%3Dy');
  });

  it('decodes escaped unreserved characters in path and query', () => {
    expect(normalize('http://a.example/%7euser?x=1')).toBe('http://a.example/~user?x=1');
    expect(normalize('http://a.example/p?u=%7Euser')).toBe('http://a.example/p?u=~user');
  });

  it('escapes characters a URI may not hold', () => {
    expect(normalize('http://www.quanjing.com/search.aspx?q=top-651451||1|60|1|2||||&Fr=4')).toBe(
      'http://www.quanjing.com/search.aspx?q=top-651451%7C%7C1%7C60%7C1%7C2%7C%7C%7C%7C&Fr=4',
    );
    expect(
      normalize('http://vins.lemonde.fr?utm_source=LeMonde&utm_medium=EMPLACEMENT PARTENAIRE&utm_term='),
    ).toBe('http://vins.lemonde.fr/?utm_source=LeMonde&utm_medium=EMPLACEMENT%20PARTENAIRE&utm_term=');
    expect(normalize('http://a.example/\u00e9?q=\u00e9')).toBe('http://a.example/%C3%A9?q=%C3%A9');
  });

  it('lowercases scheme and host, keeps a non-default port and underscores in hosts', () => {
    expect(normalize('HTTP://www.quanjing.com/')).toBe('http://www.quanjing.com/');
    expect(normalize('http://www.QUANJING.COM/')).toBe('http://www.quanjing.com/');
    expect(normalize('http://A.EXAMPLE:8080/p?x=1')).toBe('http://a.example:8080/p?x=1');
    expect(normalize('http://A_b.example/p')).toBe('http://a_b.example/p');
    expect(normalize('HTTP://A.Example/p?b=2&a=1')).toBe('http://a.example/p?b=2&a=1');
  });

  it('keeps the spelling of each kept parameter when sorting', () => {
    // DIFFERS FROM STORMCRAWLER: it re-encodes the query as a form (t=~%21q).
    expect(
      normalize('http://A.example/r?u=https%3A%2F%2Fb.example&t=~!q&utm_source=x', {
        queryElementsToRemove: ['utm_source'],
      }),
    ).toBe('http://a.example/r?t=~!q&u=https%3A%2F%2Fb.example');
  });
});

describe('BasicURLNormalizer: canonical forms (deliberate differences, found by the property test)', () => {
  it('drops a default port and treats backslashes in the path as slashes, as browsers do', () => {
    expect(normalize('http://a.example:80/p')).toBe('http://a.example/p');
    expect(normalize('https://a.example:443/p')).toBe('https://a.example/p');
    expect(normalize('http://www.voltaix.com/\\SDS\\Trisilane.pdf')).toBe(
      'http://www.voltaix.com//SDS/Trisilane.pdf',
    );
  });

  it('cuts the fragment at the first "#"', () => {
    expect(normalize('http://a.example/p#x#y')).toBe('http://a.example/p');
  });

  it('keeps other ;parameters of the last segment in the path', () => {
    expect(
      normalize('http://a.example/p;v=1;sid=8DBFC2FEDBD740BBC8B4D1A504A6DE7F', { removeHashes: true }),
    ).toBe('http://a.example/p;v=1');
  });

  it('escapes a "%" that starts no escape instead of rejecting the URL', () => {
    expect(normalize('http://a.example/100%?p=5%')).toBe('http://a.example/100%25?p=5%25');
  });

  it('keeps characters decoded from %uXXXX as data', () => {
    expect(normalize('http://a.example/a%u002Fb%u003Fc')).toBe('http://a.example/a%2Fb%3Fc');
    expect(normalize('http://a.example/x/%u002E%u002E/y')).toBe('http://a.example/y');
    expect(normalize('http://a.example/%uD83D%uDE00/%uD800')).toBe('http://a.example/%F0%9F%98%80/%EF%BF%BD');
  });

  it('unmangles again when removing parameters empties the query', () => {
    const url = 'http://a.example/a=b&c?sid=8DBFC2FEDBD740BBC8B4D1A504A6DE7F';
    expect(normalize(url, { removeHashes: true })).toBe('http://a.example/a=b?c');
  });

  it('sorts by decoded name, stably, and drops empty parameters', () => {
    expect(normalize('http://a.example/?b=1&&a%20b=2&a+b=3&a=4&', { removeHashes: true })).toBe(
      'http://a.example/?a=4&a%20b=2&a+b=3&b=1',
    );
  });

  it('keeps an empty query unless parameters are processed', () => {
    expect(normalize('http://a.example/p?')).toBe('http://a.example/p?');
    expect(normalize('http://a.example/p?', { removeHashes: true })).toBe('http://a.example/p');
  });

  it('rejects what cannot be fetched', () => {
    expect(normalize('mailto:someone@example.com')).toBeNull();
    expect(normalize('ftp://a.example/')).toBeNull();
    expect(normalize('http://')).toBeNull();
    expect(normalize('http://a{b/')).toBeNull();
    expect(normalize('not a url')).toBeNull();
  });

  it('trims spaces and control characters around the URL', () => {
    expect(normalize(' \t http://a.example/p \n')).toBe('http://a.example/p');
  });
});
