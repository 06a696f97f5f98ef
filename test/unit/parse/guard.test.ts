import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import { Metadata } from '../../../src/model/metadata.js';
import { refuseContent } from '../../../src/parse/guard.js';
import { parseSettings } from '../../../src/parse/settings.js';

const settings = parseSettings(buildConfig([]).config);
const url = 'http://a.test/page';

function check(content: Buffer, md: Record<string, string>) {
  return refuseContent({ url, metadata: Metadata.of(md), content }, settings);
}

const html = Buffer.from('<!doctype html><html><head><title>t</title></head><body>text</body></html>');

describe('content that must not be parsed as text', () => {
  it('lets an ordinary page through, and a page cut at http.content.limit', () => {
    expect(check(html, { 'protocol.content-type': 'text/html' })).toBeUndefined();
    expect(
      check(html, {
        'protocol.content-type': 'text/html',
        'http.trimmed': 'true',
        'http.trimmed.reason': 'length',
      }),
    ).toBeUndefined();
  });

  it.each([
    ['decoded-size', 'decoded size limit', /decoded past http\.decoded\.limit/],
    ['inflation-ratio', 'inflation ratio limit', /inflated more than http\.decoded\.max\.ratio/],
  ])('a body cut as %s ends ERROR with error.cause "%s"', (reason, cause, message) => {
    const r = check(Buffer.alloc(4096), {
      'protocol.content-type': 'text/html',
      'protocol.content-encoding': 'gzip',
      'http.trimmed': 'true',
      'http.trimmed.reason': reason,
    });
    expect(r).toMatchObject({ kind: 'status', status: 'ERROR', outlinks: [] });
    expect(r!.metadata.getFirstValue('error.cause')).toBe(cause);
    expect(r!.metadata.getFirstValue('error.source')).toBe('content-type checking');
    expect(r!.metadata.getFirstValue('error.message')).toMatch(message);
  });

  it.each(['text/html', 'text/plain', 'application/xml', 'application/json', ''])(
    'NUL bytes in content served as %j make it "binary content"',
    (type) => {
      const r = check(Buffer.concat([Buffer.from('<html>'), Buffer.alloc(100)]), {
        'protocol.content-type': type,
      });
      expect(r?.metadata.getFirstValue('error.cause')).toBe('binary content');
      expect(r?.metadata.getFirstValue('error.message')).toMatch(/holds NUL bytes \(the first at byte 6\)/);
    },
  );

  it('leaves NUL bytes of UTF-16 text, of types that do not claim text, and of gzip files to the parsers', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html>hi</html>', 'utf16le')]);
    expect(check(utf16, { 'protocol.content-type': 'text/html' })).toBeUndefined();
    const declared = Buffer.from('<html>hi</html>', 'utf16le');
    expect(check(declared, { 'protocol.content-type': 'text/html; charset=UTF-16LE' })).toBeUndefined();
    expect(check(Buffer.alloc(100), { 'protocol.content-type': 'application/pdf' })).toBeUndefined();
    expect(
      check(Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0]), { 'protocol.content-type': 'text/xml' }),
    ).toBeUndefined();
  });

  it('looks for NUL only in the first KiB', () => {
    const late = Buffer.concat([Buffer.alloc(2048, 0x61), Buffer.alloc(10)]);
    expect(check(late, { 'protocol.content-type': 'text/plain' })).toBeUndefined();
  });
});
