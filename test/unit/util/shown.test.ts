import { describe, expect, it } from 'vitest';
import { shown } from '../../../src/util/shown.js';

describe('text from outside in messages', () => {
  it('keeps ordinary text, Unicode included, as it is', () => {
    expect(shown('https://example.com/ünïcode/日本')).toBe('https://example.com/ünïcode/日本');
  });

  it('cuts a 10 KB URL to the limit and says how long it was', () => {
    const url = `https://example.com/${'a'.repeat(10_000)}`;
    const s = shown(url);
    expect(s).toBe(`${url.slice(0, 200)}... (10020 characters)`);
    expect(s.length).toBeLessThan(230);
  });

  it('escapes control characters, NUL and the replacement character of undecodable bytes', () => {
    const binary = Buffer.from([0x00, 0x01, 0x41, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xff, 0xfe, 0x0a]).toString(
      'utf8',
    );
    expect(shown(binary)).toBe('\\x00\\x01A\\x1b[31m\\ufffd\\ufffd\\n');
    expect(shown('a\tb\r\u007f\u0085')).toBe('a\\tb\\r\\x7f\\x85');
  });

  it('escapes lone surrogates but keeps pairs, and never cuts a pair in half', () => {
    expect(shown('x\uD800y\uDC00')).toBe('x\\ud800y\\udc00');
    expect(shown(`${'a'.repeat(9)}😀zz`, 10)).toBe(`${'a'.repeat(9)}... (13 characters)`);
  });
});
