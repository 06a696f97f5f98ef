import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { MetadataTransfer } from '../../../src/model/metadata-transfer.js';
import { config, md } from './support.js';

const transfer = (entries: Record<string, unknown> = {}) => MetadataTransfer.fromConfig(config(entries));

describe('outlink metadata', () => {
  it('wildcard transfer: url.path, depth 1 and the cookie.* keys (StormCrawler testTransfer)', () => {
    const mdt = transfer({ 'metadata.track.depth': true, 'metadata.transfer': ['cookie.*'] });
    const parent = md({ 'cookie.id': '42', 'cookie.source': 'example.com', fetchInterval: '200' });
    const out = mdt.forOutlink('http://www.example.com', parent);
    expect(out.getFirstValue('depth')).toBe('1');
    expect(new Set(out.keySet())).toEqual(new Set(['url.path', 'depth', 'cookie.id', 'cookie.source']));
    expect(out.getValues('url.path')).toEqual(['http://www.example.com']);
  });

  it('url.path grows by the parent URL and depth by one along a 3-hop chain, max.depth carried', () => {
    const mdt = transfer();
    const seed = md({ 'max.depth': '5' });
    const hop1 = mdt.forOutlink('https://s.test/', seed);
    const hop2 = mdt.forOutlink('https://s.test/a', hop1);
    const hop3 = mdt.forOutlink('https://s.test/a/b', hop2);
    expect(hop1.toJSON()).toEqual({ 'max.depth': ['5'], 'url.path': ['https://s.test/'], depth: ['1'] });
    expect(hop2.toJSON()).toEqual({
      'url.path': ['https://s.test/', 'https://s.test/a'],
      depth: ['2'],
      'max.depth': ['5'],
    });
    expect(hop3.getValues('url.path')).toEqual(['https://s.test/', 'https://s.test/a', 'https://s.test/a/b']);
    expect(hop3.getFirstValue('depth')).toBe('3');
    expect(hop3.getFirstValue('max.depth')).toBe('5');
  });

  it('a non-integer depth counts as 0', () => {
    expect(
      transfer()
        .forOutlink('https://s.test/', md({ depth: 'deep' }))
        .getFirstValue('depth'),
    ).toBe('1');
    expect(
      transfer()
        .forOutlink('https://s.test/', md({ depth: '-1' }))
        .getFirstValue('depth'),
    ).toBe('0');
  });

  it("a seed's custom key reaches its children only when listed in metadata.transfer", () => {
    const seed = md({ customMetadataName: 'x', isFeed: 'true' });
    expect(transfer().forOutlink('https://s.test/', seed).has('customMetadataName')).toBe(false);
    expect(transfer().forOutlink('https://s.test/', seed).has('isFeed')).toBe(false);
    const listed = transfer({ 'metadata.transfer': ['customMetadataName'] });
    const child = listed.forOutlink('https://s.test/', seed);
    const grandchild = listed.forOutlink('https://s.test/a', child);
    expect(child.getValues('customMetadataName')).toEqual(['x']);
    expect(grandchild.getValues('customMetadataName')).toEqual(['x']);
    expect(grandchild.has('isFeed')).toBe(false);
  });

  it('tracking can be switched off', () => {
    const mdt = transfer({ 'metadata.track.path': false, 'metadata.track.depth': false });
    const out = mdt.forOutlink('https://s.test/', md({ 'url.path': 'a', depth: '3', 'max.depth': '4' }));
    expect(out.size).toBe(0);
    expect(mdt.filter(md({ 'url.path': 'a', depth: '3' })).size).toBe(0);
  });
});

describe('persisted metadata', () => {
  // The metadata of StormCrawler's MetadataTransferTest.testFilterWithAsterisk.
  const sample = md({
    'fetch.statusCode': '500',
    'fetch.error.count': '2',
    'fetch.exception': 'java.lang.Exception',
    fetchInterval: '200',
    isFeed: 'true',
    depth: '1',
  });

  it('persist [] keeps 2 keys, fetch* 5, fetch.* 4, * 6 (StormCrawler testFilterWithAsterisk)', () => {
    expect(transfer({ 'metadata.persist': [] }).filter(sample).keySet()).toEqual([
      'fetch.error.count',
      'depth',
    ]);
    expect(transfer({ 'metadata.persist': ['fetch*'] }).filter(sample).size).toBe(5);
    expect(
      transfer({ 'metadata.persist': ['fetch.*'] })
        .filter(sample)
        .keySet(),
    ).toEqual(['fetch.statusCode', 'fetch.error.count', 'fetch.exception', 'depth']);
    expect(transfer({ 'metadata.persist': ['*'] }).filter(sample).size).toBe(6);
  });

  it('the default persist list keeps isFeed, error.cause, _redirTo and drops the rest', () => {
    const full = md({
      isFeed: 'true',
      'error.cause': 'robots.txt',
      _redirTo: '/b',
      lastProcessedDate: '2025-01-01T00:00:00.000Z',
      'fetch.statusCode': '301',
      'url.path': 'https://s.test/',
    });
    const kept = transfer().filter(full);
    expect(kept.keySet()).toEqual(['isFeed', 'error.cause', '_redirTo', 'url.path']);
  });

  it('transferred keys are persisted too, wildcards included', () => {
    const mdt = transfer({ 'metadata.transfer': ['cookie.*'], 'metadata.persist': [] });
    expect(mdt.filter(md({ 'cookie.id': '1', cookies: 'no' })).keySet()).toEqual(['cookie.id']);
    expect(mdt.isPersisted('cookie.id')).toBe(true);
    expect(mdt.isPersisted('fetch.error.count')).toBe(true);
    expect(mdt.isPersisted('cookies')).toBe(false);
  });

  it('keys with no values are not persisted', () => {
    const mdt = transfer({ 'metadata.persist': ['*'] });
    expect(mdt.filter(md()).size).toBe(0);
    expect(mdt.filter(Metadata.fromJSON({ a: ['1'], b: [] })).keySet()).toEqual(['a']);
  });

  it("extra persisted keys (a scheduler's own keys) are added to metadata.persist", () => {
    const mdt = MetadataTransfer.fromConfig(config(), ['fetchInterval']);
    expect(mdt.filter(md({ fetchInterval: '60', other: 'x' })).keySet()).toEqual(['fetchInterval']);
  });
});
