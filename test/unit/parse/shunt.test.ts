import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultParseConfig, parseSettings } from '../../../src/parse/settings.js';
import { documentSignature, sniffZipDocument } from '../../../src/parse/shunt.js';
import type { ParseResult } from '../../../src/parse/types.js';
import { fromWire, toWire } from '../../../src/parse/worker/protocol.js';
import { ConfigError } from '../../../src/util/errors.js';
import { expectParsed, expectStatus, parse } from './support.js';

const PDF_TYPE = 'application/pdf';
const doc = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/documents/${name}`, import.meta.url));

function expectHandOff(r: ParseResult) {
  if (r.kind !== 'document') throw new Error(`expected a document for Tika, got ${r.kind}`);
  return r;
}

describe('the shunt: documents go to the Tika stage, by media type', () => {
  it('hands a PDF over with parse.Content-Type, no outlinks and the page metadata kept', () => {
    const r = expectHandOff(
      parse(
        'https://x.test/report.pdf',
        doc('report.pdf'),
        { 'content-type': 'application/pdf' },
        {
          metadata: { depth: '2' },
        },
      ),
    );
    expect(r.mediaType).toBe('application/pdf');
    expect(r.metadata.getFirstValue('parse.Content-Type')).toBe('application/pdf');
    expect(r.metadata.getFirstValue('depth')).toBe('2');
    expect(r.outlinks).toEqual([]);
  });

  it.each([
    ['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['figures.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['letter.odt', 'application/vnd.oasis.opendocument.text'],
    ['report.pdf', 'application/pdf'],
  ])('hands %s over under its own type', (name, type) => {
    expect(
      expectHandOff(parse(`https://x.test/${name}`, doc(name), { 'content-type': type })).mediaType,
    ).toBe(type);
  });

  it('looks into a zip or a generic type: a .docx sent as application/zip or octet-stream is a document', () => {
    for (const type of ['application/zip', 'application/octet-stream', '']) {
      const r = expectHandOff(parse('https://x.test/get?id=1', doc('letter.docx'), { 'content-type': type }));
      expect(r.mediaType).toBe('application/x-tika-ooxml');
    }
    const odt = expectHandOff(
      parse('https://x.test/x', doc('letter.odt'), { 'content-type': 'application/zip' }),
    );
    expect(odt.mediaType).toBe('application/vnd.oasis.opendocument.text');
  });

  it('a PDF sent as text/html or text/plain is a PDF, not binary junk claiming to be text', () => {
    for (const type of ['text/html; charset=utf-8', 'text/plain']) {
      const r = expectHandOff(parse('https://x.test/r', doc('report.pdf'), { 'content-type': type }));
      expect(r.mediaType).toBe('application/pdf');
    }
  });

  it('leaves types outside parser.mimetype.whitelist to the content-type check (ERROR)', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const r = expectStatus(parse('https://x.test/i.png', png, { 'content-type': 'image/png' }));
    expect(r.status).toBe('ERROR');
    expect(r.metadata.getFirstValue('error.source')).toBe('content-type checking');
    const zip = Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.alloc(40)]);
    expect(
      expectStatus(parse('https://x.test/a.zip', zip, { 'content-type': 'application/zip' })).status,
    ).toBe('ERROR');
    const only = { config: { 'parser.mimetype.whitelist': ['application/pdf'] } };
    expect(
      parse('https://x.test/l.docx', doc('letter.docx'), { 'content-type': 'application/zip' }, only).kind,
    ).toBe('status');
    expect(
      parse('https://x.test/r.pdf', doc('report.pdf'), { 'content-type': 'application/pdf' }, only).kind,
    ).toBe('document');
  });

  it('never takes HTML or text, whatever the whitelist says', () => {
    const all = { config: { 'parser.mimetype.whitelist': ['.*'] } };
    expectParsed(parse('https://x.test/', '<title>T</title>', { 'content-type': 'text/html' }, all));
    expectParsed(parse('https://x.test/t', 'words', { 'content-type': 'text/plain' }, all));
  });

  it('refuses a whitelist entry that is not a regular expression, naming the key', () => {
    expect(() =>
      parseSettings(defaultParseConfig({ 'parser.mimetype.whitelist': ['application/(pdf'] })),
    ).toThrow(ConfigError);
    expect(() =>
      parseSettings(defaultParseConfig({ 'parser.mimetype.whitelist': ['application/(pdf'] })),
    ).toThrow(/parser\.mimetype\.whitelist: "application\/\(pdf" is not a regular expression/);
  });
});

describe('parser threads', () => {
  it('hand a document over to the main thread as it is', () => {
    const r = expectHandOff(parse('https://x.test/r.pdf', doc('report.pdf'), { 'content-type': PDF_TYPE }));
    const back = expectHandOff(fromWire(JSON.parse(JSON.stringify(toWire(r)))));
    expect(back.mediaType).toBe(PDF_TYPE);
    expect(back.metadata.toJSON()).toEqual(r.metadata.toJSON());
    expect(back.outlinks).toEqual([]);
  });
});

describe('document signatures', () => {
  it('names PDF, OLE2, RTF, OOXML and OpenDocument files from their first bytes', () => {
    expect(documentSignature(doc('report.pdf'))).toBe('application/pdf');
    expect(documentSignature(doc('letter.docx'))).toBe('application/x-tika-ooxml');
    expect(documentSignature(doc('letter.odt'))).toBe('application/vnd.oasis.opendocument.text');
    expect(documentSignature(Buffer.from('{\\rtf1\\ansi hello}'))).toBe('application/rtf');
    const ole2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(documentSignature(ole2)).toBe('application/x-tika-msoffice');
    expect(documentSignature(Buffer.from('<html>'))).toBeUndefined();
    expect(sniffZipDocument(Buffer.from('PK'))).toBeUndefined();
  });
});
