import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { MetadataTransfer } from '../../../src/model/metadata-transfer.js';
import { parseDocument } from '../../../src/parse/document.js';
import { loadParseFilters } from '../../../src/parse/parsefilters/load.js';
import { defaultParseConfig, parseSettings } from '../../../src/parse/settings.js';
import { answerOf, fileName } from '../../../src/tika/client.js';

const answer = (name: string) =>
  readFileSync(new URL(`../../fixtures/documents/${name}.rmeta.json`, import.meta.url));
const SERVER = 'http://127.0.0.1:9998';

const deps = {
  settings: parseSettings(defaultParseConfig()),
  transfer: new MetadataTransfer({ transfer: [], persist: [], trackPath: true, trackDepth: true }),
  urlFilter: { filter: (_s: URL, _m: Metadata, target: string) => target },
};

function tikaDocument(name: string) {
  const a = answerOf(answer(name), SERVER);
  if (a.kind !== 'document') throw new Error(`expected a document, got ${JSON.stringify(a)}`);
  return a.document;
}

describe("Tika's answer to PUT /rmeta/html", () => {
  it('gives the container document: its metadata, one or many values, and its XHTML', () => {
    const d = tikaDocument('report');
    expect(d.metadata['dc:title']).toEqual(['Annual Report on Crawling']);
    expect(d.metadata['pdf:charsPerPage']).toHaveLength(2);
    expect(d.xhtml).toMatch(/^<html xmlns="http:\/\/www.w3.org\/1999\/xhtml">/);
  });

  it('makes an encrypted document ERROR tika.encrypted and an unreadable one ERROR tika.parse.error', () => {
    const enc = answerOf(answer('encrypted'), SERVER);
    expect(enc).toMatchObject({ kind: 'failed', failure: { status: 'ERROR', cause: 'tika.encrypted' } });
    const broken = answerOf(answer('broken'), SERVER);
    expect(broken).toMatchObject({ kind: 'failed', failure: { status: 'ERROR', cause: 'tika.parse.error' } });
    if (broken.kind !== 'failed') throw new Error('unreachable');
    // The reason is the first line of Tika's exception, not its stack trace.
    expect(broken.failure.message).toMatch(/^Tika cannot parse the document: \S+/);
    expect(broken.failure.message).not.toContain('\n');
  });

  it('makes anything that is not a metadata list FETCH_ERROR tika.server.error', () => {
    for (const body of ['<html>proxy error</html>', '{}', '[]', '[1]']) {
      expect(answerOf(Buffer.from(body), SERVER)).toMatchObject({
        kind: 'failed',
        failure: { status: 'FETCH_ERROR', cause: 'tika.server.error' },
      });
    }
  });
});

describe("a document's XHTML through the page extraction", () => {
  const input = {
    url: 'https://docs.test/reports/report.pdf',
    metadata: Metadata.of({ 'protocol.content-type': 'application/pdf', depth: '1' }),
    content: Buffer.alloc(0),
  };

  it('gives text of every page, the title, the link annotation as an outlink and parse.* keys', () => {
    const r = parseDocument(input, tikaDocument('report'), deps);
    if (r.kind !== 'parsed') throw new Error(`expected parsed, got ${r.kind}`);
    expect(r.text).toContain('First page: the crawler reads documents through Apache Tika.');
    expect(r.text).toContain('Second page: every page of a PDF reaches the content index.');
    // Markdown from Tika's XHTML: every page, nothing chosen away as if it were a site's menu.
    expect(r.markdown).toContain('First page: the crawler reads documents through Apache Tika.');
    expect(r.markdown).toContain('Second page: every page of a PDF reaches the content index.');
    expect(r.outlinks.map((o) => o.url)).toEqual(['https://docs.test/reports/linked-from-pdf.html']);
    const md = r.metadata;
    expect(md.getFirstValue('parse.title')).toBe('Annual Report on Crawling');
    expect(md.getFirstValue('parse.dc:title')).toBe('Annual Report on Crawling');
    expect(md.getFirstValue('parse.dc:creator')).toBe('Ada Lovelace');
    expect(md.getFirstValue('parse.dc:language')).toBe('en-GB');
    expect(md.getFirstValue('parse.xmpTPg:NPages')).toBe('2');
    expect(md.getFirstValue('parse.dcterms:created')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(md.getFirstValue('parse.Content-Type')).toBe('application/pdf');
    expect(md.getFirstValue('parsed.by')).toBe('TikaParser');
    // Neither the content nor Tika's exception keys become metadata; the HTTP header is as fetched.
    expect(md.has('parse.X-TIKA:content')).toBe(false);
    expect(md.keySet('parse.X-TIKA:EXCEPTION')).toEqual([]);
    expect(md.getFirstValue('protocol.content-type')).toBe('application/pdf');
    expect(md.getFirstValue('depth')).toBe('1');
  });

  it('runs the parse filters on what the document is (MimeTypeNormalization: format pdf)', async () => {
    const filters = loadParseFilters('parsefilters.json');
    await filters.ready;
    const r = parseDocument(input, tikaDocument('report'), { ...deps, filters });
    expect(r.metadata.getFirstValue('format')).toBe('pdf');
    expect(r.metadata.getFirstValue('signature')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps robots directives of the response headers (X-Robots-Tag noindex)', () => {
    const md = input.metadata.copy();
    md.setValue('protocol.x-robots-tag', 'noindex');
    const r = parseDocument({ ...input, metadata: md }, tikaDocument('report'), deps);
    if (r.kind !== 'parsed') throw new Error(`expected parsed, got ${r.kind}`);
    expect(r.noIndex).toBe(true);
  });
});

describe('the file name sent as a detection hint', () => {
  it("is the URL's last path segment, safe characters only", () => {
    expect(fileName('https://x.test/a/b/report.pdf?x=1')).toBe('report.pdf');
    expect(fileName('https://x.test/a/r%C3%A9sum%C3%A9.docx')).toBe('r%C3%A9sum%C3%A9.docx');
    // Quotes are percent-encoded by the URL itself, and nothing else could end the header's value.
    expect(fileName('https://x.test/a/"evil";.pdf')).toBe('%22evil%22.pdf');
    expect(fileName('https://x.test/dir/')).toBeUndefined();
  });
});
