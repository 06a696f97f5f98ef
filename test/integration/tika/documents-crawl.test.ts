import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentId } from '../../../src/opensearch/status-doc.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  persistAlso,
  statusDocs,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';
import { sharedTika } from '../../support/tika.js';

// A crawl of a site of documents made by real tools (LibreOffice, qpdf: test/fixtures/documents),
// parsed by a real Tika server, written to a real OpenSearch.

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/documents/${name}`, import.meta.url));
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const H = '127.0.5.1';

const serve = (name: string, type: string) => (_n: number, _q: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(200, { 'content-type': type }).end(fixture(name));

const site = new Site();
const names = uniqueIndexNames('tika-docs');
const down = uniqueIndexNames('tika-down');
let origin: string;
let tika: string;

beforeAll(async () => {
  tika = await sharedTika();
  await site.start([H]);
  origin = site.origin(H);
  site.route(H, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(
    H,
    '/',
    page('Documents', [
      '/report.pdf',
      '/letter.docx',
      '/figures.xlsx',
      '/encrypted.pdf',
      '/broken.pdf',
      '/download?id=7',
    ]),
  );
  site.route(H, '/report.pdf', serve('report.pdf', PDF));
  site.route(H, '/big.pdf', serve('report.pdf', PDF));
  site.route(H, '/letter.docx', serve('letter.docx', DOCX));
  site.route(H, '/figures.xlsx', serve('figures.xlsx', XLSX));
  site.route(H, '/encrypted.pdf', serve('encrypted.pdf', PDF));
  site.route(H, '/broken.pdf', serve('broken.pdf', PDF));
  // A server that names no type: the bytes say PDF.
  site.route(H, '/download?id=7', serve('report.pdf', 'application/octet-stream'));
  site.route(H, '/linked-from-pdf.html', page('Linked from the PDF'));
  site.route(H, '/linked-from-docx.html', page('Linked from the Word file'));
});

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content, down.status, down.content);
});

function conf(n: { status: string; content: string }): string {
  return writeConf({
    ...fastCrawlSettings(n),
    // A generous ceiling: on a busy machine a 1 s fetch timeout turned documents into FETCH_ERRORs.
    'http.timeout': 10_000,
    'metadata.persist': persistAlso('parse.*', 'parsed.by', 'error.message', 'http.content.limit'),
  });
}

async function crawl(c: string, seeds: string[], tikaUrl: string): Promise<void> {
  const file = join(c, '..', 'seeds.txt');
  writeFileSync(file, `${seeds.join('\n')}\n`);
  expect((await crawler('inject', file, '--conf', c)).code).toBe(0);
  // --set: wins over a TIKA_URL in the environment.
  const run = await crawler('run', '--once', '--conf', c, '--set', `tika.server.url=${tikaUrl}`);
  expect(run.err).toEqual([]);
  expect(run.code).toBe(0);
}

describe('documents through Tika in a crawl', () => {
  it('indexes PDF, DOCX and XLSX with their text, title and parse.* metadata, follows their links, and ends the others with a Tika cause', async () => {
    const c = conf(names);
    // big.pdf may keep 4000 bytes only: it is cut, and a cut document cannot be parsed.
    await crawl(c, [`${origin}/`, `${origin}/big.pdf\thttp.content.limit=4000`], tika);
    const docs = await statusDocs(names.status);
    const st = (path: string) => docs.get(`${origin}${path}`);
    // Status and cause: a failure shows why at once.
    const statuses = Object.fromEntries(
      [...docs].map(([u, d]) => [
        u.slice(origin.length),
        [d.status, d.metadata['error.cause']?.[0]].filter(Boolean).join(' '),
      ]),
    );
    expect(statuses).toEqual({
      '/': 'FETCHED',
      '/report.pdf': 'FETCHED',
      '/letter.docx': 'FETCHED',
      '/figures.xlsx': 'FETCHED',
      '/download?id=7': 'FETCHED',
      '/linked-from-pdf.html': 'FETCHED',
      '/linked-from-docx.html': 'FETCHED',
      '/encrypted.pdf': 'ERROR tika.encrypted',
      '/broken.pdf': 'ERROR tika.parse.error',
      '/big.pdf': 'ERROR tika.trimmed',
    });

    // Tika's metadata as parse.* keys; parse.Content-Type says what the document is.
    const report = st('/report.pdf')!.metadata;
    expect(report['parse.title']).toEqual(['Annual Report on Crawling']);
    expect(report['parse.dc:title']).toEqual(['Annual Report on Crawling']);
    expect(report['parse.dc:creator']).toEqual(['Ada Lovelace']);
    expect(report['parse.dc:language']).toEqual(['en-GB']);
    expect(report['parse.xmpTPg:NPages']).toEqual(['2']);
    expect(report['parse.dcterms:created']?.[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(report['parse.Content-Type']).toEqual([PDF]);
    expect(report['parsed.by']).toEqual(['TikaParser']);
    expect(st('/letter.docx')!.metadata['parse.Content-Type']).toEqual([DOCX]);
    expect(st('/letter.docx')!.metadata['parse.dc:creator']).toEqual(['Grace Hopper']);
    expect(st('/figures.xlsx')!.metadata['parse.Content-Type']).toEqual([XLSX]);
    expect(st('/download?id=7')!.metadata['parse.Content-Type']).toEqual([PDF]);
    expect(st('/')!.metadata['parsed.by']).toEqual(['HtmlParser']);

    // The PDF's link annotation and the DOCX's hyperlink became outlinks, with their path.
    expect(st('/linked-from-pdf.html')!.metadata['url.path']).toContain(`${origin}/report.pdf`);
    expect(st('/linked-from-docx.html')!.metadata['url.path']).toContain(`${origin}/letter.docx`);

    // What Tika refuses ends ERROR with error.source TIKA, a tika.* cause and a reason in words.
    const why = (path: string) => {
      const m = st(path)!.metadata;
      return [m['error.source']?.[0], m['error.cause']?.[0], m['error.message']?.[0]];
    };
    expect(why('/encrypted.pdf')).toEqual(['TIKA', 'tika.encrypted', expect.stringMatching(/encrypted/)]);
    expect(why('/broken.pdf')).toEqual([
      'TIKA',
      'tika.parse.error',
      expect.stringMatching(/^Tika cannot parse the document: /),
    ]);
    expect(why('/big.pdf')).toEqual(['TIKA', 'tika.trimmed', expect.stringMatching(/http\.content\.limit/)]);

    // The content index: title and the text of every page; no document for what failed.
    const content = await contentDocs(names.content);
    const doc = (path: string) => content.get(documentId(`${origin}${path}`));
    expect(doc('/report.pdf')).toMatchObject({ title: 'Annual Report on Crawling', format: 'pdf' });
    expect(doc('/report.pdf')!.content).toContain(
      'First page: the crawler reads documents through Apache Tika.',
    );
    expect(doc('/report.pdf')!.content).toContain(
      'Second page: every page of a PDF reaches the content index.',
    );
    expect(doc('/letter.docx')).toMatchObject({ title: 'A Letter About Links', format: 'word' });
    expect(doc('/letter.docx')!.content).toContain('Please follow this hyperlink when you index me.');
    expect(doc('/figures.xlsx')!.content).toMatch(/alpha\.example\s+1234/);
    expect(doc('/download?id=7')!.title).toBe('Annual Report on Crawling');
    for (const failed of ['/encrypted.pdf', '/broken.pdf', '/big.pdf']) expect(doc(failed)).toBeUndefined();

    const stats = JSON.parse((await crawler('stats', '--json', '--conf', c)).out.join('\n'));
    expect(stats.errorsByCause.ERROR).toEqual({
      'tika.encrypted': 1,
      'tika.parse.error': 1,
      'tika.trimmed': 1,
    });
    expect(stats.errorsBySource.ERROR).toEqual({ TIKA: 3 });
  }, 180_000);

  it('a Tika server that cannot be reached costs the documents a FETCH_ERROR (tika.unavailable), never the URL; pages are crawled as usual', async () => {
    // A port nothing listens on: the site's own port, on another loopback address.
    const nowhere = `http://127.0.5.9:${new URL(origin).port}`;
    const c = conf(down);
    await crawl(c, [`${origin}/`], nowhere);
    const docs = await statusDocs(down.status);
    expect(docs.get(`${origin}/`)!.status).toBe('FETCHED');
    for (const path of ['/report.pdf', '/letter.docx', '/figures.xlsx']) {
      const d = docs.get(`${origin}${path}`)!;
      expect(d.status, path).toBe('FETCH_ERROR');
      expect(d.metadata['error.cause']).toEqual(['tika.unavailable']);
      expect(d.metadata['error.source']).toEqual(['TIKA']);
      expect(d.metadata['error.message']?.[0]).toContain(nowhere);
      expect(d.metadata['fetch.error.count']).toEqual(['1']);
    }
  }, 120_000);
});
