import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_SIMILARITY } from '../../../src/dedup/decide.js';
import { BANDS } from '../../../src/fingerprint/minhash.js';
import { signatureOf } from '../../../src/opensearch/signature-field.js';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { article } from '../../support/articles.js';
import {
  contentDocs,
  crawler,
  fastCrawlSettings,
  type StatusDocView,
  statusDocs,
  testClient,
  writeConf,
} from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { Site, status } from '../../support/site.js';
import { articleCopy, articlePage, templatedArticle } from './pages.js';

// Three hosts crawled from their roots: A serves ten copies of one article (each with its own date,
// view counter and one sentence of its own), B ten different articles inside one heavy template, C
// four real pages of Debian's Python and PostgreSQL manuals that all had one simhash before issue 32.
const names = uniqueIndexNames('dedup');
const site = new Site();
const A = '127.0.26.1';
const B = '127.0.26.2';
const C = '127.0.26.3';
const REAL = ['python-itertools', 'python-statistics', 'postgresql-cube', 'postgresql-tutorial-window'];
const COPIES = Array.from({ length: 10 }, (_, i) => `/copy/${i}`);
const TEMPLATED = Array.from({ length: 10 }, (_, i) => `/story/${i}`);
let a: string;
let b: string;
let c: string;
let conf: string;
/** Copy 0 answers 404 once this is set; the copy at `changed` tells another story. */
let gone = false;
let changed: string | undefined;

const html = (body: () => string) => (_n: number, _q: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body());
};

beforeAll(async () => {
  await site.start([A, B, C]);
  a = site.origin(A);
  b = site.origin(B);
  c = site.origin(C);
  site.route(
    C,
    '/',
    html(() =>
      articlePage(
        'Manuals',
        '<p>Pages of two manuals.</p>',
        REAL.map((n) => `/${n}.html`),
      ),
    ),
  );
  for (const name of REAL) {
    const page = readFileSync(new URL(`../../fixtures/dedup/${name}.html`, import.meta.url), 'utf8');
    site.route(
      C,
      `/${name}.html`,
      html(() => page),
    );
  }
  // Copy 0 is found first (the root links to it alone) and links to the others: it is the canonical.
  site.route(
    A,
    '/',
    html(() => articlePage('Front page', '<p>Welcome.</p>', ['/copy/0'])),
  );
  COPIES.forEach((path, i) => {
    site.route(A, path, (n, q, res) => {
      if (i === 0 && gone) return status(404)(n, q, res);
      const main = path === changed ? `<p>${article(555, 3000)}</p>` : articleCopy(i);
      html(() => articlePage(`Bridge closed (${i})`, main, COPIES))(n, q, res);
    });
  });
  site.route(
    B,
    '/',
    html(() => articlePage('Stories', '<p>All our stories.</p>', TEMPLATED)),
  );
  TEMPLATED.forEach((path, i) => {
    site.route(
      B,
      path,
      html(() => articlePage(`Story ${i}`, templatedArticle(i), TEMPLATED)),
    );
  });
  // A busy machine must not turn slow answers into fetch errors here.
  conf = writeConf({
    ...fastCrawlSettings(names),
    'dedup.mode': 'skip',
    'max.fetch.errors': 3,
    'http.timeout': 15_000,
  });
});

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

async function run(...args: string[]): Promise<void> {
  const r = await crawler('run', '--once', '--conf', conf, ...args);
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
}

/** Only these URLs are due (their nextFetchDate moves back); the rest keep theirs. */
async function due(...urls: string[]): Promise<void> {
  const client = testClient();
  try {
    await client.updateByQuery({
      index: names.status,
      refresh: true,
      conflicts: 'proceed',
      body: {
        query: { terms: { url: urls } },
        script: { source: "ctx._source.nextFetchDate = '2000-01-01T00:00:00.000Z'", lang: 'painless' },
      },
    });
  } finally {
    await client.close();
  }
}

const dupOf = (d: StatusDocView | undefined) => d?.metadata['duplicate.of']?.[0];

describe('near-duplicates in a crawl', () => {
  it('ten copies of an article are one canonical and nine duplicate.of it, with one content document', {
    timeout: 120_000,
  }, async () => {
    await run('--seed', `${a}/`, '--seed', `${b}/`, '--seed', `${c}/`);
    const docs = await statusDocs(names.status);
    const copies = COPIES.map((p) => docs.get(`${a}${p}`));
    expect(copies.map((d) => d?.status)).toEqual(Array(10).fill('FETCHED'));
    expect(dupOf(copies[0])).toBeUndefined();
    for (const d of copies.slice(1)) {
      expect(dupOf(d)).toBe(`${a}/copy/0`);
      // Settled on the texts: the exact Jaccard similarity of the two main texts reached the threshold.
      expect(Number(d?.metadata['duplicate.similarity']?.[0])).toBeGreaterThanOrEqual(DUPLICATE_SIMILARITY);
    }
    const content = await contentDocs(names.content);
    const indexed = COPIES.filter((p) => content.has(documentId(`${a}${p}`)));
    expect(indexed).toEqual(['/copy/0']);
    const canonical = content.get(documentId(`${a}/copy/0`))!;
    expect(canonical.simhash).toMatch(/^[0-9a-f]{16}$/);
    // Stored in base64 (a binary field with doc values): 256 bytes.
    expect(signatureOf(canonical.minhash, 512)).toMatch(/^[0-9a-f]{512}$/);
    expect(canonical.minhash).toMatch(/^[A-Za-z0-9+/]{342}==$/);
    expect(canonical.minhashKeys).toHaveLength(BANDS);
    // A duplicate comes back dedup.fetch.interval.factor (4) times later than its canonical.
    const inDays = (d: StatusDocView | undefined) =>
      (Date.parse(d!.nextFetchDate!) - Date.now()) / 86_400_000;
    expect(inDays(copies[0])).toBeCloseTo(1, 0);
    expect(inDays(copies[1])).toBeCloseTo(4, 0);
  });

  it('ten different articles sharing a heavy template are ten canonicals', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    for (const p of TEMPLATED) {
      expect(docs.get(`${b}${p}`)?.status).toBe('FETCHED');
      expect(dupOf(docs.get(`${b}${p}`))).toBeUndefined();
      expect(content.has(documentId(`${b}${p}`))).toBe(true);
    }
  });

  it('real pages that had one fingerprint before are four canonicals, all indexed', async () => {
    const docs = await statusDocs(names.status);
    const content = await contentDocs(names.content);
    for (const name of REAL) {
      const url = `${c}/${name}.html`;
      expect(docs.get(url)?.status, url).toBe('FETCHED');
      expect(dupOf(docs.get(url)), url).toBeUndefined();
      expect(content.has(documentId(url)), url).toBe(true);
    }
  });

  it('crawler stats counts the near-duplicates and crawler url says what a page duplicates', async () => {
    const stats = await crawler('stats', '--conf', conf);
    expect(stats.code).toBe(0);
    const at = stats.out.findIndex((l) => l.startsWith('  near-duplicates'));
    expect(stats.out[at]).toBe('  near-duplicates (FETCHED with duplicate.of): 9');
    expect(stats.out[at + 1]).toMatch(new RegExp(`^\\s+9  ${A.replaceAll('.', '\\.')}$`));
    const url = await crawler('url', `${a}/copy/3`, '--conf', conf);
    expect(url.code).toBe(0);
    expect(url.out.join('\n')).toMatch(
      new RegExp(
        `near-duplicate of ${a}/copy/0 \\(similarity 0\\.\\d+, distance \\d+\\): FETCHED, not indexed`,
      ),
    );
    expect(url.out.join('\n')).toContain(`content: not in the content index "${names.content}"`);
  });

  it('a canonical that turns 404 three times hands over to one of its duplicates', async () => {
    gone = true;
    const before = COPIES.map((p) => site.hosts.get(A)!.count(p));
    for (let i = 0; i < 3; i++) {
      await due(`${a}/copy/0`);
      await run();
    }
    const docs = await statusDocs(names.status);
    expect(docs.get(`${a}/copy/0`)).toMatchObject({
      status: 'ERROR',
      metadata: { 'error.cause': ['maxFetchErrors'] },
    });
    // Its duplicates were made due when its content went, fetched once more, and one took its place.
    expect(COPIES.slice(1).map((p, i) => site.hosts.get(A)!.count(p) - before[i + 1]!)).toEqual(
      Array(9).fill(1),
    );
    const rest = COPIES.slice(1).map((p) => docs.get(`${a}${p}`));
    const canonicals = rest.filter((d) => dupOf(d) === undefined);
    expect(canonicals).toHaveLength(1);
    const heir = COPIES.slice(1).find((p) => dupOf(docs.get(`${a}${p}`)) === undefined)!;
    for (const d of rest) if (dupOf(d) !== undefined) expect(dupOf(d)).toBe(`${a}${heir}`);
    const content = await contentDocs(names.content);
    expect(COPIES.filter((p) => content.has(documentId(`${a}${p}`)))).toEqual([heir]);
  });

  it('a duplicate whose text changed away is its own canonical again', async () => {
    const docs = await statusDocs(names.status);
    changed = COPIES.slice(1).find((p) => dupOf(docs.get(`${a}${p}`)) !== undefined)!;
    const url = `${a}${changed}`;
    await due(url);
    await run();
    const after = await statusDocs(names.status);
    expect(after.get(url)?.status).toBe('FETCHED');
    expect(dupOf(after.get(url))).toBeUndefined();
    expect(after.get(url)?.metadata).not.toHaveProperty('duplicate.distance');
    expect((await contentDocs(names.content)).has(documentId(url))).toBe(true);
  });
});
