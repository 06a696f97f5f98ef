import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';

describe('Metadata', () => {
  it('a missing key and a key with no values both read as undefined', () => {
    const m = Metadata.fromJSON({ empty: [] });
    expect(m.has('empty')).toBe(true);
    expect(m.getFirstValue('empty')).toBeUndefined();
    expect(m.getValues('empty')).toBeUndefined();
    expect(m.getFirstValue('missing')).toBeUndefined();
    expect(m.getValues('missing')).toBeUndefined();
  });

  it('setValue replaces all values with one, stored as given', () => {
    const m = Metadata.of({ k: ['a', 'b'] });
    m.setValue('k', '  C ');
    expect(m.getValues('k')).toEqual(['  C ']);
  });

  it('setValues with nothing is a no-op and does not remove the key', () => {
    const m = Metadata.of({ k: 'a' });
    m.setValues('k', []);
    m.setValues('k', undefined);
    m.setValues('k', null);
    expect(m.getValues('k')).toEqual(['a']);
    m.setValues('k', ['x', 'y']);
    expect(m.getValues('k')).toEqual(['x', 'y']);
  });

  it('addValue appends, and ignores blank values', () => {
    const m = new Metadata();
    m.addValue('k', 'a');
    m.addValue('k', '');
    m.addValue('k', '   ');
    m.addValue('k', '\t\n');
    m.addValue('k', null);
    m.addValue('k', undefined);
    m.addValue('k', 'b');
    expect(m.getValues('k')).toEqual(['a', 'b']);
    m.addValue('blank', ' ');
    expect(m.has('blank')).toBe(false);
  });

  it('addValues appends values as they are, and is a no-op for none', () => {
    const m = Metadata.of({ k: 'a' });
    m.addValues('k', ['b', '']);
    m.addValues('k', []);
    m.addValues('k', null);
    expect(m.getValues('k')).toEqual(['a', 'b', '']);
  });

  it('lists handed out never change afterwards', () => {
    const m = Metadata.of({ k: 'a' });
    const before = m.getValues('k');
    m.addValue('k', 'b');
    expect(before).toEqual(['a']);
    expect(m.getValues('k')).toEqual(['a', 'b']);
  });

  it('remove returns what the key held', () => {
    const m = Metadata.of({ k: ['a', 'b'] });
    expect(m.remove('k')).toEqual(['a', 'b']);
    expect(m.remove('k')).toBeUndefined();
    expect(m.size).toBe(0);
  });

  it('keySet lists keys in insertion order, optionally by prefix', () => {
    const m = Metadata.of({
      'fetch.statusCode': '200',
      depth: '1',
      'fetch.exception': 'x',
      fetchInterval: '5',
    });
    expect(m.keySet()).toEqual(['fetch.statusCode', 'depth', 'fetch.exception', 'fetchInterval']);
    expect(m.keySet('fetch.')).toEqual(['fetch.statusCode', 'fetch.exception']);
    expect(m.keySet('fetch')).toEqual(['fetch.statusCode', 'fetch.exception', 'fetchInterval']);
  });

  it('copy is independent of the original', () => {
    const a = Metadata.of({ k: 'a' });
    const b = a.copy();
    b.addValue('k', 'b');
    b.setValue('other', 'x');
    expect(a.toJSON()).toEqual({ k: ['a'] });
    expect(b.toJSON()).toEqual({ k: ['a', 'b'], other: ['x'] });
  });

  it('copies stay independent whichever side changes first, and through copies of copies', () => {
    const a = Metadata.of({ k: 'a' });
    const b = a.copy();
    const c = b.copy();
    a.setValue('k', 'A');
    c.remove('k');
    b.addValue('k', 'b');
    expect([a.toJSON(), b.toJSON(), c.toJSON()]).toEqual([{ k: ['A'] }, { k: ['a', 'b'] }, {}]);
  });

  it('putAll prefixes keys as is, with no separator', () => {
    const target = Metadata.of({ keep: 'x' });
    target.putAll(Metadata.of({ 'content-type': 'text/html', etag: ['1', '2'] }), 'protocol.');
    target.putAll(Metadata.of({ raw: 'r' }));
    expect(target.toJSON()).toEqual({
      keep: ['x'],
      'protocol.content-type': ['text/html'],
      'protocol.etag': ['1', '2'],
      raw: ['r'],
    });
  });

  it('hasValue looks at every value', () => {
    const m = Metadata.of({ isFeed: ['false', 'true'] });
    expect(m.hasValue('isFeed', 'true')).toBe(true);
    expect(m.hasValue('isFeed', 'TRUE')).toBe(false);
    expect(m.hasValue('other', 'true')).toBe(false);
  });

  it('round-trips through JSON, keys like __proto__ included', () => {
    const m = new Metadata();
    m.setValue('__proto__', 'p');
    m.setValues('a.b', ['1', '2']);
    const json = JSON.parse(JSON.stringify(m)) as unknown;
    expect(json).toEqual(JSON.parse('{"__proto__":["p"],"a.b":["1","2"]}'));
    expect(Metadata.fromJSON(json).getValues('__proto__')).toEqual(['p']);
    expect(Metadata.fromJSON(json).getValues('a.b')).toEqual(['1', '2']);
  });

  it('fromJSON is lenient with documents written by other tools', () => {
    const m = Metadata.fromJSON({ s: 'one', n: [1, true, 'x', null, { o: 1 }], o: { nested: 1 }, nil: null });
    expect(m.toJSON()).toEqual({ s: ['one'], n: ['1', 'true', 'x'] });
    expect(Metadata.fromJSON(null).size).toBe(0);
    expect(Metadata.fromJSON(['a']).size).toBe(0);
    expect(Metadata.fromJSON('x').size).toBe(0);
  });

  it('entries iterates key and values', () => {
    const m = Metadata.of({ a: '1', b: ['2', '3'] });
    expect([...m.entries()]).toEqual([
      ['a', ['1']],
      ['b', ['2', '3']],
    ]);
  });
});
