// @ts-check
// The rendering section of RESULTS.md (render.mjs's result).

/** @type {(n: number) => string} */
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
/** @type {(n: number) => string} */
const f0 = (n) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');

/**
 * @param {import('./render.mjs').RenderResult} r
 * @returns {string}
 */
export function renderReport(r) {
  const { web, adaptive: a, forced: f, peer: p, plainCost: c } = r;
  const ms = (/** @type {number} */ secs, /** @type {number} */ n) =>
    n > 0 ? (secs * 1000) / n : Number.NaN;
  const ourPerPage = ms(f.crawlerCpuSecs + f.browserCpuSecs, f.rendered);
  const peerPerPage = ms(p.cpuSecs, p.pages);
  const appPages = web.appPages;
  return `## Rendering (scripts/bench/render.mjs, \`npm run bench:render\` alone)

An app host whose ${appPages} pages are built by a script (an empty \`<div id="root">\` and a
${f0(web.scriptBytes / 1024)} KB script in the HTML; the text and links come from \`fetch()\` of
/api/<i>.json) beside ${web.plainHosts} plain hosts x ${web.plainPages} pages of ~${f0(web.plainBytes / 1024)} KB,
served on loopback by one process. Debian's Chromium, driven by playwright-core; \`playwright.pages.max: 4\`,
16 fetch threads, politeness off as above.

| | crawler | Crawlee PlaywrightCrawler |
|---|---|---|
| every app page rendered (a rule; Crawlee renders all) | ${f.rendered} pages in ${f1(f.secs)} s: **${f1(f.renderedPerSec)} rendered pages/s** | ${p.pages} pages in ${f1(p.secs)} s: **${f1(p.pagesPerSec)} pages/s** |
| CPU per rendered page, crawler process + browser processes | **${f0(ourPerPage)} ms** (${f0(ms(f.crawlerCpuSecs, f.rendered))} crawler + ${f0(ms(f.browserCpuSecs, f.rendered))} browser) | **${f0(peerPerPage)} ms** (${f0(ms(p.nodeCpuSecs, p.pages))} Node.js + ${f0(ms(p.cpuSecs - p.nodeCpuSecs, p.pages))} browser) |
| peak RSS | crawler ${f.crawlerRssMb} MB, browser ${f.browserRssMb} MB | Node.js ${p.maxRssMb} MB (browser not sampled) |
| app pages indexed without the text their script fetched | **${f.emptyPages ?? 'n/a'}** | |

Adaptive (the default, no rule): ${a.pages} pages in ${f1(a.secs)} s (${f1(a.pagesPerSec)} pages/s), of which
**${a.rendered} rendered (${f0((100 * a.rendered) / Math.max(1, a.pages))}% of the pages; the app has ${f0((100 * appPages) / Math.max(1, a.pages))}%)**,
${a.plainRendered} of them on the plain hosts; crawler ${f1(a.crawlerCpuSecs)} CPU s and ${a.crawlerRssMb} MB peak RSS, browser
${f1(a.browserCpuSecs)} CPU s and ${a.browserRssMb} MB peak RSS.

When no host needs rendering (${c.hosts} hosts x ${c.pages} pages of the small profile, end to end,
the lower of two runs each): **${c.on.msPerPage.toFixed(2)} CPU ms per page with rendering on**
(the default: every host's first ${'`render.adaptive.scan.pages`'} pages scanned for signs, no
browser started) against ${c.off.msPerPage.toFixed(2)} with \`render.adaptive: false\`.
`;
}
