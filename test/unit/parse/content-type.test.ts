import { describe, expect, it } from 'vitest';
import { detectMediaType, mediaType } from '../../../src/parse/mime.js';
import { expectParsed, expectStatus, parse } from './support.js';

const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj', 'latin1');

describe('media type detection (parse.Content-Type)', () => {
  it('uses the header media type, lowercased, without parameters', () => {
    expect(mediaType(' Text/HTML ; charset=UTF-8')).toBe('text/html');
    expect(detectMediaType(Buffer.from('<p>x'), 'application/XHTML+xml; charset=utf-8')).toBe(
      'application/xhtml+xml',
    );
  });

  it('binary signatures win over a text or generic header', () => {
    expect(detectMediaType(PDF, 'text/html')).toBe('application/pdf');
    expect(detectMediaType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d]), undefined)).toBe('image/png');
    expect(detectMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'application/octet-stream')).toBe(
      'image/jpeg',
    );
  });

  it('a specific header is kept even when the bytes are a zip (office documents are zip files)', () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(detectMediaType(Buffer.from([0x50, 0x4b, 0x03, 0x04]), docx)).toBe(docx);
  });

  it('markup is sniffed only when the header is missing or generic', () => {
    const page = Buffer.from('\n  <!DOCTYPE html><html><body>x</body></html>');
    expect(detectMediaType(page, undefined)).toBe('text/html');
    expect(detectMediaType(page, 'application/octet-stream')).toBe('text/html');
    expect(detectMediaType(page, 'text/plain')).toBe('text/html');
    expect(detectMediaType(Buffer.from('<?xml version="1.0"?><rss/>'), '')).toBe('application/xml');
    expect(detectMediaType(Buffer.from('<?xml version="1.0"?>\n<html xmlns="x">'), '')).toBe(
      'application/xhtml+xml',
    );
    expect(detectMediaType(Buffer.from('<html>'), 'application/json')).toBe('application/json');
    expect(detectMediaType(Buffer.from('just words'), undefined)).toBe('');
  });
});

describe('what the parser does with each type', () => {
  it('non-HTML content ends ERROR "content-type checking" by default (a PDF too, with tika.enabled false)', () => {
    const r = expectStatus(
      parse(
        'https://x.test/doc.pdf',
        PDF,
        { 'content-type': 'application/pdf' },
        { config: { 'tika.enabled': false } },
      ),
    );
    expect(r.status).toBe('ERROR');
    expect(r.metadata.getFirstValue('error.source')).toBe('content-type checking');
    expect(r.metadata.getFirstValue('error.message')).toBe(
      'Exception content-type application/pdf for https://x.test/doc.pdf',
    );
    expect(r.metadata.getFirstValue('parse.Content-Type')).toBe('application/pdf');
    expect(r.outlinks).toEqual([]);
  });

  it('with jsoup.treat.non.html.as.error false, non-HTML passes with empty text and no links', () => {
    const r = expectParsed(
      parse(
        'https://x.test/doc.pdf',
        PDF,
        { 'content-type': 'application/pdf' },
        {
          config: { 'jsoup.treat.non.html.as.error': false, 'tika.enabled': false },
        },
      ),
    );
    expect(r.text).toBe('');
    expect(r.outlinks).toEqual([]);
    expect(r.metadata.getFirstValue('parse.Content-Type')).toBe('application/pdf');
    expect(r.metadata.getFirstValue('robots.noIndex')).toBe('false');
  });

  it('text/plain is handled directly: the content is the text, there are no links', () => {
    const body = ' Plain text <a href="/x">not a link</a>\nsecond line \n';
    const r = expectParsed(
      parse('https://x.test/a.txt', body, { 'content-type': 'text/plain; charset=utf-8' }),
    );
    expect(r.text).toBe(body);
    expect(r.outlinks).toEqual([]);
    expect(r.metadata.getFirstValue('parsed.by')).toBe('PlainTextParser');
    expect(r.metadata.getFirstValue('parse.Content-Encoding')).toBe('UTF-8');
  });

  it('text/plain honours textextractor.skip.after and no.text', () => {
    const cut = expectParsed(
      parse(
        'https://x.test/a.txt',
        'abcdefghij',
        { 'content-type': 'text/plain' },
        {
          config: { 'textextractor.skip.after': 4 },
        },
      ),
    );
    expect(cut.text).toBe('abcd');
    const none = expectParsed(
      parse(
        'https://x.test/a.txt',
        'abc',
        { 'content-type': 'text/plain' },
        {
          config: { 'textextractor.no.text': true },
        },
      ),
    );
    expect(none.text).toBe('');
  });

  it('HTML served as text/plain or without a type is parsed as HTML', () => {
    const page = '<!doctype html><title>T</title><a href="/x">x</a>';
    for (const headers of [{ 'content-type': 'text/plain' }, {}] as Record<string, string>[]) {
      const r = expectParsed(parse('https://x.test/', page, headers));
      expect(r.metadata.getFirstValue('parse.title')).toBe('T');
      expect(r.outlinks).toHaveLength(1);
    }
  });

  it('XHTML is HTML', () => {
    const page =
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head></html>';
    const r = expectParsed(parse('https://x.test/', page, { 'content-type': 'application/xhtml+xml' }));
    expect(r.metadata.getFirstValue('parse.title')).toBe('X');
  });
});
