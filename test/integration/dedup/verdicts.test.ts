import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_SIMILARITY } from '../../../src/dedup/decide.js';
import { shingleHashes } from '../../../src/fingerprint/fingerprint.js';
import { similarities } from '../../../src/fingerprint/jaccard.js';
import { signatureOf } from '../../../src/opensearch/signature-field.js';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { article } from '../../support/articles.js';
import { contentDocs, crawler, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { Site } from '../../support/site.js';
import { articlePage } from './pages.js';

// One reference-style site crawled with the defaults (dedup.mode skip):
// - /api/Integer and /api/Long: one generated template, every 20th word differs (the type's name,
//   its own methods): about 0.74 of their shingles shared, near for the estimates, two documents;
// - /api/Integer?print=1: the same page under another URL (its own chrome): a duplicate;
// `crawler url` and `crawler stats` are read on that crawl too.
// - /short/a and /short/b: the extracted text is one shared description line (the same normalised
//   text), the rest of the bodies are two different pages (in an aside the extraction leaves out).
const names = uniqueIndexNames('verdicts');
const site = new Site();
const HOST = '127.0.26.21';
let origin: string;
let conf: string;

const API = article(40, 900).split(' ');
const apiText = (name: string) => API.map((w, i) => (i % 20 === 7 ? `${name}${i}` : w)).join(' ');
const paragraphs = (t: string) =>
  t
    .split('. ')
    .map((s) => `<p>${s}.</p>`)
    .join('');
const DESCRIPTION = `Documentation for this class of the library. ${article(41, 30)}`;
const shortPage = (seed: number) =>
  '<!doctype html><html><head><meta charset="utf-8"><title>Class</title></head><body>' +
  `<main><p>${DESCRIPTION}</p></main><aside>${paragraphs(article(seed, 500))}</aside></body></html>`;

const html = (body: string) => (_n: number, _q: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
};

beforeAll(async () => {
  await site.start([HOST]);
  origin = site.origin(HOST);
  const links = ['/api/Integer', '/api/Long', '/short/a', '/short/b'];
  site.route(HOST, '/', html(articlePage('Reference', '<p>The reference.</p>', links)));
  site.route(
    HOST,
    '/api/Integer',
    html(articlePage('Integer', paragraphs(apiText('integer')), ['/api/Integer?print=1'])),
  );
  site.route(HOST, '/api/Long', html(articlePage('Long', paragraphs(apiText('long')))));
  site.route(
    HOST,
    '/api/Integer?print=1',
    html(
      `<!doctype html><html><body><main><h1>Integer</h1>${paragraphs(apiText('integer'))}</main></body></html>`,
    ),
  );
  site.route(HOST, '/short/a', html(shortPage(50)));
  site.route(HOST, '/short/b', html(shortPage(51)));
  conf = writeConf({ ...fastCrawlSettings(names), 'dedup.mode': 'skip', 'http.timeout': 15_000 });
  const r = await crawler('run', '--once', '--conf', conf, '--seed', `${origin}/`);
  if (r.code !== 0) throw new Error(`crawl failed (${r.code}): ${r.err.join('\n')}`);
}, 240_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('near-duplicate verdicts on the texts', () => {
  it('a page like an indexed one but not the same is indexed as similar, with the related URL and similarity', async () => {
    const truth = similarities(shingleHashes(apiText('integer')), shingleHashes(apiText('long'))).set;
    expect(truth).toBeGreaterThan(0.6);
    expect(truth).toBeLessThan(DUPLICATE_SIMILARITY);
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    const pages = ['/api/Integer', '/api/Long'].map((p) => `${origin}${p}`);
    for (const url of pages) {
      expect(docs.get(url)?.status, url).toBe('FETCHED');
      expect(docs.get(url)?.metadata['duplicate.of'], url).toBeUndefined();
      expect(content.has(documentId(url)), url).toBe(true);
    }
    // The later of the two names the first, with the exact similarity of their main texts.
    const [first, second] = pages.map((u) => content.get(documentId(u))!);
    const similar = [first, second].find((d) => d?.similarTo !== undefined)!;
    expect(pages).toContain(similar.similarTo);
    expect(similar.similarTo).not.toBe(similar.url);
    expect(similar.similarity).toBeGreaterThanOrEqual(0.6);
    expect(similar.similarity).toBeLessThan(DUPLICATE_SIMILARITY);
  });

  it('the same page under another URL is a duplicate: skipped, with what it duplicates and how similar', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    const print = docs.get(`${origin}/api/Integer?print=1`);
    expect(print?.status).toBe('FETCHED');
    expect(print?.metadata['duplicate.of']).toEqual([`${origin}/api/Integer`]);
    expect(Number(print?.metadata['duplicate.similarity']?.[0])).toBeGreaterThanOrEqual(DUPLICATE_SIMILARITY);
    expect(content.has(documentId(`${origin}/api/Integer?print=1`))).toBe(false);
  });

  it('short pages with one extracted text but different bodies are both indexed', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    const urls = ['/short/a', '/short/b'].map((p) => `${origin}${p}`);
    const texts = urls.map((u) => content.get(documentId(u))?.content);
    // The extraction kept the same short description on both (the premise of this test).
    expect(texts[0]).toBeDefined();
    expect(texts[0]).toBe(texts[1]);
    for (const url of urls) {
      expect(docs.get(url)?.metadata['duplicate.of'], url).toBeUndefined();
      expect(signatureOf(content.get(documentId(url))?.bodyMinhash, 1024), url).toMatch(/^[0-9a-f]{1024}$/);
    }
  });
});

describe('the verdicts as the commands show them', () => {
  it('crawler url names what a duplicate duplicates and what a similar page is like, with their similarities', async () => {
    const docs = await statusDocs(names.status);
    const dupUrl = `${origin}/api/Integer?print=1`;
    const dup = await crawler('url', dupUrl, '--conf', conf);
    expect(dup.code).toBe(0);
    const sim = docs.get(dupUrl)?.metadata['duplicate.similarity']?.[0];
    expect(dup.out).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^ {2}near-duplicate of ${origin}/api/Integer \\(similarity ${Number(sim)}, distance \\d+\\): FETCHED, not indexed`,
        ),
      ),
    );
    // The similar one of Integer and Long: whichever was judged second names the other.
    const similarUrl = ['/api/Integer', '/api/Long']
      .map((p) => `${origin}${p}`)
      .find((u) => docs.get(u)?.metadata['similar.to'] !== undefined)!;
    const md = docs.get(similarUrl)!.metadata;
    const r = await crawler('url', similarUrl, '--conf', conf);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      `  similar to ${md['similar.to']![0]} (similarity ${Number(md['similar.similarity']![0])}, under dedup.duplicate.similarity): FETCHED, indexed with similarTo, not a duplicate`,
    );
    expect(r.out.some((l) => l.includes('near-duplicate of'))).toBe(false);
    const json = JSON.parse((await crawler('url', similarUrl, '--json', '--conf', conf)).out.join('\n'));
    expect(json.similar).toEqual({
      to: md['similar.to']![0],
      similarity: Number(md['similar.similarity']![0]),
      indexed: true,
    });
    expect(json.duplicate).toBeUndefined();
  });

  it('crawler stats counts the duplicates and the similar pages, per host', async () => {
    const docs = [...(await statusDocs(names.status)).values()];
    const count = (key: string) => docs.filter((d) => d.metadata[key] !== undefined).length;
    expect(count('duplicate.of')).toBeGreaterThanOrEqual(1);
    expect(count('similar.to')).toBeGreaterThanOrEqual(1);
    const r = await crawler('stats', '--conf', conf);
    expect(r.code).toBe(0);
    const at = r.out.indexOf(`  similar pages (indexed with similar.to): ${count('similar.to')}`);
    expect(at).toBeGreaterThan(0);
    expect(r.out[at + 1]).toBe(`    ${String(count('similar.to')).padStart(9)}  ${HOST}`);
    expect(r.out).toContain(`  near-duplicates (FETCHED with duplicate.of): ${count('duplicate.of')}`);
    const json = JSON.parse((await crawler('stats', '--json', '--conf', conf)).out.join('\n'));
    expect(json.similar).toEqual({
      total: count('similar.to'),
      hosts: [{ host: HOST, urls: count('similar.to') }],
    });
    expect(json.duplicates.total).toBe(count('duplicate.of'));
  });
});
