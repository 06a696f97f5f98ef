import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_SIMILARITY } from '../../../src/dedup/decide.js';
import { shingleHashes } from '../../../src/fingerprint/fingerprint.js';
import { jaccard } from '../../../src/fingerprint/jaccard.js';
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
// - /short/a and /short/b: the extracted text is one shared description line (the same normalised
//   text), the rest of the bodies are two different pages (in an aside the extraction leaves out).
const names = uniqueIndexNames('verdicts');
const site = new Site();
const HOST = '127.0.26.21';
let origin: string;

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
  const conf = writeConf({ ...fastCrawlSettings(names), 'dedup.mode': 'skip', 'http.timeout': 15_000 });
  const r = await crawler('run', '--once', '--conf', conf, '--seed', `${origin}/`);
  if (r.code !== 0) throw new Error(`crawl failed (${r.code}): ${r.err.join('\n')}`);
}, 240_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('near-duplicate verdicts on the texts', () => {
  it('a page like an indexed one but not the same is indexed as similar, with the related URL and similarity', async () => {
    const truth = jaccard(shingleHashes(apiText('integer')), shingleHashes(apiText('long')));
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
      expect(content.get(documentId(url))?.bodyMinhash, url).toMatch(/^[0-9a-f]{512}$/);
    }
  });
});
