import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
import { robots, Site } from '../../support/site.js';
import { sharedTika } from '../../support/tika.js';
import { requireChromium } from '../render/support.js';

// One crawl of the three kinds of page the content index holds, each through its real part: an HTML
// page (htmlparser2), a page whose content only its script writes (the system's Chromium) and a PDF
// made by a real tool (Chromium's print to PDF, test/fixtures/documents/make.sh; parsed by a real
// Tika server). Each must be stored with its main text as `content` and its Markdown as `markdown`,
// the site's menus and footers in neither.

const H = '127.0.35.1';
const site = new Site();
const names = uniqueIndexNames('content-kinds');
const hosts = `${names.status}-hosts`;
let a: string;
let conf: string;
let tika: string;

const MENU = '<a href="/">Home</a> <a href="/news/">News</a> <a href="/about/">About us</a>';
const FOOTER = '© 2024 City News. Imprint and privacy policy.';

const ARTICLE =
  '<!doctype html><html><head><title>Tulips</title></head><body>' +
  `<header><nav>${MENU}</nav></header>` +
  '<main><article><h1>Twelve thousand tulips</h1>' +
  '<p>City gardeners planted twelve thousand tulips along the boulevard, see the <a href="map.html">planting map</a>.</p>' +
  '<h2>Where to see them</h2>' +
  '<ul><li>By the fountain on Market Square</li><li>Along the river walk</li></ul>' +
  '<p>They bloom from April to May, twice as many as last spring.</p></article></main>' +
  '<aside class="sidebar"><h2>Archives</h2><a href="/2023/">2023</a> <a href="/2022/">2022</a></aside>' +
  `<footer>${FOOTER}</footer></body></html>`;

/** The app's shell: a menu, a root and a footer, all empty until its script fills them. */
const SHELL =
  '<!doctype html><html><head><title>Museum night</title>' +
  '<script src="/app/story.js" defer></script></head>' +
  '<body><header><nav id="menu"></nav></header><div id="root"></div><footer id="foot"></footer></body></html>';
const STORY_JS = `
document.getElementById('menu').innerHTML = ${JSON.stringify(MENU)};
document.getElementById('root').innerHTML =
  '<article><h1>Night of the museums</h1>' +
  '<p>Forty museums stay open until two in the morning, and one ticket opens every door.</p>' +
  '<h2>Highlights</h2>' +
  '<ol><li>A telescope on the roof of the observatory</li><li>Candlelit tours of the crypt</li></ol>' +
  '<p>Read the <a href="program">full program</a> before you go.</p></article>';
document.getElementById('foot').textContent = ${JSON.stringify(FOOTER)};
`;

const send =
  (type: string, body: string | Buffer) => (_n: number, _q: IncomingMessage, res: ServerResponse) =>
    void res.writeHead(200, { 'content-type': type }).end(body);

beforeAll(async () => {
  requireChromium();
  tika = await sharedTika();
  await site.start([H]);
  a = site.origin(H);
  site.route(H, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(H, '/news/tulips', send('text/html; charset=utf-8', ARTICLE));
  site.route(H, '/app/story', send('text/html; charset=utf-8', SHELL));
  site.route(H, '/app/story.js', send('text/javascript', STORY_JS));
  const pdf = readFileSync(new URL('../../fixtures/documents/guide.pdf', import.meta.url));
  site.route(H, '/docs/guide.pdf', send('application/pdf', pdf));
  conf = writeConf({
    ...fastCrawlSettings(names),
    'opensearch.hosts.index.name': hosts,
    'parser.emitOutlinks': false,
    // Rendering and Tika take seconds on a busy machine.
    'http.timeout': 15_000,
    // The app page is rendered by a rule (no adaptive sampling); everything else is fetched.
    'protocol.delegator.config': [{ className: 'playwright', regex: ['/app/story$'] }, { className: 'http' }],
    'metadata.persist': persistAlso('render.*', 'parsed.by'),
  });
}, 600_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content, hosts);
});

describe('a crawl stores the main content as text and Markdown for every kind of page', () => {
  it('an HTML page, a rendered page and a PDF each get content and markdown, without the menus and footers', async () => {
    const seeds = ['/news/tulips', '/app/story', '/docs/guide.pdf'].map((p) => `${a}${p}`);
    const run = await crawler(
      'run',
      '--once',
      '--conf',
      conf,
      '--set',
      `tika.server.url=${tika}`,
      ...seeds.flatMap((s) => ['--seed', s]),
    );
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const docs = await contentDocs(names.content);
    const doc = (path: string) => {
      const d = docs.get(documentId(`${a}${path}`));
      return { content: String(d?.content), markdown: String(d?.markdown) };
    };

    const html = doc('/news/tulips');
    expect(html.content).toContain('Twelve thousand tulips City gardeners planted twelve thousand tulips');
    expect(html.content).toContain('By the fountain on Market Square');
    expect(html.content).toContain('twice as many as last spring.');
    expect(html.markdown).toContain('# Twelve thousand tulips\n\n');
    expect(html.markdown).toContain('## Where to see them\n\n');
    expect(html.markdown).toContain('- By the fountain on Market Square\n- Along the river walk');
    expect(html.markdown).toContain(`[planting map](${a}/news/map.html)`);

    const statuses = await statusDocs(names.status);
    expect(statuses.get(`${a}/app/story`)?.metadata['render.outcome']).toEqual(['rendered']);
    const app = doc('/app/story');
    expect(app.content).toContain('Night of the museums Forty museums stay open until two in the morning');
    expect(app.content).toContain('Candlelit tours of the crypt');
    expect(app.markdown).toContain('# Night of the museums\n\n');
    expect(app.markdown).toContain('## Highlights\n\n');
    expect(app.markdown).toContain(
      '1. A telescope on the roof of the observatory\n2. Candlelit tours of the crypt',
    );
    expect(app.markdown).toContain(`[full program](${a}/app/program)`);

    for (const page of [html, app]) {
      for (const text of [page.content, page.markdown]) {
        for (const boilerplate of ['About us', 'Imprint', 'privacy policy', 'Archives', '2023'])
          expect(text).not.toContain(boilerplate);
      }
    }

    expect(statuses.get(`${a}/docs/guide.pdf`)?.metadata['parsed.by']).toEqual(['TikaParser']);
    const pdf = doc('/docs/guide.pdf');
    for (const text of [pdf.content, pdf.markdown]) {
      expect(text).toContain('A Field Guide to City Tulips');
      expect(text).toContain('Gardeners of the river district planted twelve thousand bulbs');
      expect(text).toContain('When they bloom');
      expect(text).toContain('Parrot tulips beside the library');
    }
    // Tika gives a PDF's lines as paragraphs (its headings are not tagged as such): one block each.
    expect(pdf.markdown).toMatch(/When they bloom\n\nThe early varieties open in the first week of April/);
  }, 180_000);
});
