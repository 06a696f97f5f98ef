import { describe, expect, it } from 'vitest';
import { charsetOfContentType, decode, detectCharset, utf8Evidence } from '../../../src/parse/charset.js';
import { expectParsed, fixture, parse } from './support.js';

const bytes = (...b: number[]) => Buffer.from(b);
const html = (head: string, body: string) =>
  Buffer.from(`<html><head>${head}</head><body>${body}</body></html>`, 'latin1');

describe('charset detection order', () => {
  it('a BOM wins over the header and the meta tag', () => {
    const content = Buffer.concat([bytes(0xef, 0xbb, 0xbf), html('<meta charset="windows-1252">', 'x')]);
    expect(detectCharset(content, 'text/html; charset=shift_jis', 10000)).toMatchObject({
      charset: 'utf-8',
      source: 'bom',
      bomLength: 3,
    });
    expect(detectCharset(bytes(0xff, 0xfe, 0x3c, 0), undefined, 10000).charset).toBe('utf-16le');
    expect(detectCharset(bytes(0xfe, 0xff, 0, 0x3c), undefined, 10000).charset).toBe('utf-16be');
  });

  it('the header comes before the meta tag', () => {
    const content = html('<meta charset="euc-jp">', 'plain ascii');
    expect(detectCharset(content, 'text/html; charset=Shift_JIS', 10000)).toMatchObject({
      charset: 'shift_jis',
      source: 'header',
    });
  });

  it('the meta tag is used without a header, in both of its forms', () => {
    const a = html('<meta charset=gb18030>', 'x');
    const b = html('<meta http-equiv="Content-Type" content="text/html; charset=EUC-KR">', 'x');
    const c = html('<meta content="text/html;charset=koi8-r" http-equiv=content-type>', 'x');
    expect(detectCharset(a, 'text/html', 10000)).toMatchObject({ charset: 'gb18030', source: 'meta' });
    expect(detectCharset(b, undefined, 10000)).toMatchObject({ charset: 'euc-kr', source: 'meta' });
    expect(detectCharset(c, undefined, 10000)).toMatchObject({ charset: 'koi8-r', source: 'meta' });
  });

  it('a meta tag beyond detect.charset.maxlength is not seen; -1 reads everything', () => {
    const content = Buffer.concat([
      Buffer.from(`<!-- ${'x'.repeat(200)} -->`),
      html('<meta charset="euc-jp">', 'x'),
    ]);
    expect(detectCharset(content, undefined, 100).source).not.toBe('meta');
    expect(detectCharset(content, undefined, -1)).toMatchObject({ charset: 'euc-jp', source: 'meta' });
  });

  it('unknown labels are ignored', () => {
    const content = html('<meta charset="no-such-charset">', 'x');
    expect(detectCharset(content, 'text/html; charset=bogus', 10000)).toMatchObject({
      charset: 'utf-8',
      source: 'default',
    });
  });

  it('undeclared bytes: valid UTF-8 is UTF-8, anything else windows-1252', () => {
    expect(detectCharset(Buffer.from('<p>Grüße</p>', 'utf8'), undefined, 10000)).toMatchObject({
      charset: 'utf-8',
      source: 'bytes',
    });
    expect(detectCharset(Buffer.from('<p>Grüße</p>', 'latin1'), undefined, 10000)).toMatchObject({
      charset: 'windows-1252',
      source: 'bytes',
    });
  });

  it('UTF-8 bytes mislabelled as ISO-8859-1 are read as UTF-8 (what ICU detection would do)', () => {
    const content = Buffer.from('<p>Grüße, “quotes”</p>', 'utf8');
    expect(detectCharset(content, 'text/html; charset=ISO-8859-1', 10000).charset).toBe('utf-8');
  });

  it('bytes that are not UTF-8 are not decoded as the declared UTF-8', () => {
    const content = Buffer.from('<p>Grüße</p>', 'latin1');
    expect(detectCharset(content, 'text/html; charset=utf-8', 10000).charset).toBe('windows-1252');
    const withMeta = Buffer.concat([Buffer.from('<meta charset="iso-8859-15">'), content]);
    expect(detectCharset(withMeta, 'text/html; charset=utf-8', 10000)).toMatchObject({
      charset: 'iso-8859-15',
      source: 'meta',
    });
  });

  it('a header and a meta tag that agree are used', () => {
    const content = html('<meta charset="shift_jis">', 'x');
    expect(detectCharset(content, 'text/html; charset=SHIFT_JIS', 10000).charset).toBe('shift_jis');
  });
});

describe('decoding', () => {
  it('windows-1252 maps 0x80-0x9F to the WHATWG table (Node 20 TextDecoder does not)', () => {
    const text = decode(bytes(0x80, 0x93, 0x96, 0x94, 0xe9, 0x81), {
      charset: 'windows-1252',
      source: 'header',
      bomLength: 0,
    });
    expect(text).toBe('€“–”é\u0081');
  });

  it('malformed bytes become U+FFFD instead of throwing', () => {
    expect(decode(bytes(0x61, 0xff, 0x62), { charset: 'utf-8', source: 'default', bomLength: 0 })).toBe(
      'a\ufffdb',
    );
    expect(decode(bytes(0x82, 0x20), { charset: 'shift_jis', source: 'header', bomLength: 0 })).toContain(
      '\ufffd',
    );
  });

  it('utf8Evidence tells ASCII, UTF-8 and invalid bytes apart, accepting a sequence cut at the end', () => {
    expect(utf8Evidence(Buffer.from('abc'))).toBe('ascii');
    expect(utf8Evidence(Buffer.from('é', 'utf8'))).toBe('utf8');
    expect(utf8Evidence(bytes(0xc0, 0x80))).toBe('invalid'); // overlong
    expect(utf8Evidence(bytes(0xed, 0xa0, 0x80))).toBe('invalid'); // surrogate
    expect(utf8Evidence(Buffer.from('aé', 'utf8'), 2)).toBe('ascii');
  });

  it('reads the charset parameter of a Content-Type', () => {
    expect(charsetOfContentType('text/html; charset="UTF-8"')).toBe('UTF-8');
    expect(charsetOfContentType('text/html;CHARSET=iso-8859-1; foo=bar')).toBe('iso-8859-1');
    expect(charsetOfContentType('text/html')).toBeUndefined();
  });
});

describe('pages in legacy encodings (real bytes in test/fixtures/parse)', () => {
  it('windows-1252 declared in the header', () => {
    const r = expectParsed(
      parse('https://fr.test/', fixture('windows-1252-header.html'), {
        'content-type': 'text/html; charset=windows-1252',
      }),
    );
    expect(r.metadata.getFirstValue('parse.title')).toBe('Café crème – “Noël” à 5 €');
    expect(r.text).toBe('Le café est prêt. Ça coûte 5 € — merci ! Menu du jour…');
    expect(r.outlinks[0]?.metadata.getValues('anchors')).toEqual(['Menu du jour…']);
    expect(r.metadata.getFirstValue('parse.Content-Encoding')).toBe('windows-1252');
  });

  it('windows-1252 with no declaration at all', () => {
    const r = expectParsed(parse('https://fr.test/', fixture('windows-1252-header.html'), {}));
    expect(r.metadata.getFirstValue('parse.title')).toBe('Café crème – “Noël” à 5 €');
  });

  it('Shift_JIS declared in a meta http-equiv', () => {
    const r = expectParsed(
      parse('https://jp.test/', fixture('shift_jis-meta.html'), { 'content-type': 'text/html' }),
    );
    expect(r.metadata.getFirstValue('parse.title')).toBe('日本語のページ');
    expect(r.text).toBe('東京は日本の首都です。カタカナとひらがな。 次のページ');
    expect(r.metadata.getFirstValue('parse.Content-Encoding')).toBe('Shift_JIS');
    expect(r.outlinks.map((o) => o.url)).toEqual(['https://jp.test/%E6%AC%A1%E3%81%B8']);
  });

  it('GB18030 declared in the header, including a character outside the BMP', () => {
    const r = expectParsed(
      parse('https://cn.test/', fixture('gb18030-header.html'), {
        'content-type': 'text/html;charset=GB18030',
      }),
    );
    expect(r.metadata.getFirstValue('parse.title')).toBe('中文网页 𠀀');
    expect(r.text).toBe('北京是中国的首都。欢迎光临！ 下一页');
    expect(r.metadata.getFirstValue('parse.Content-Encoding')).toBe('GB18030');
  });

  it('a UTF-8 BOM overrides a wrong meta charset', () => {
    const r = expectParsed(
      parse('https://de.test/', fixture('utf8-bom.html'), { 'content-type': 'text/html' }),
    );
    expect(r.metadata.getFirstValue('parse.title')).toBe('Grüße aus Köln');
    expect(r.text).toBe('Straße und Größe');
  });

  it('a UTF-16LE page with a BOM', () => {
    const r = expectParsed(
      parse('https://gr.test/', fixture('utf16le-bom.html'), { 'content-type': 'text/html' }),
    );
    expect(r.metadata.getFirstValue('parse.title')).toBe('Ελληνικά UTF-16');
    expect(r.text).toBe('Καλημέρα κόσμε');
    expect(r.metadata.getFirstValue('parse.Content-Encoding')).toBe('UTF-16LE');
  });
});
