// @ts-check
// The few-host section of RESULTS.md (scripts/bench/fewhost.mjs) and its rows of the targets table.

/** @typedef {import('./fewhost.mjs').FewHostResult} FewHostResult */
/** @typedef {[string, string, string, boolean]} TargetRow */

/** @type {(n: number) => string} */
const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** @type {(n: number) => string} */
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
/** @type {(n: number) => string} */
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
/** @type {(n: number) => string} */
const pct = (n) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)}%` : 'n/a');

/** @param {FewHostResult} r */
export function fewHostSection(r) {
  const c = r.crawl;
  const busy = c.cpuSecs / c.secs;
  return `## Few hosts: a documentation site on ${r.hosts} hosts

${f0(r.pages)} pages of ${f0(r.avgBytes / 1024)} KB on ${r.hosts} hosts (${f0(r.pages / r.hosts)} each), ${f0(r.avgLinks)}
links per page: every page's sidebar lists every section and every page of its own section, as
generated documentation does, so the frontier is wide from the first pages on. The crawler runs
with its defaults (\`opensearch.status.max.urls.per.bucket: 2\`, status bulks every 5 s, spout
queries 2 s apart, index refresh 1 s) and \`fetcher.server.delay: 0\`, one connection per host (the
default). GNU wget -r: one connection, every page parsed for links, files deleted after. Crawlee
CheerioCrawler: ${r.peer.concurrency} connections (one per host), in-memory queue, same-host links.

| figure | crawler | wget -r | Crawlee |
|---|---:|---:|---:|
| pages fetched (distinct, at the server) | ${f0(r.crawlServed.distinct)} | ${f0(r.wget.pages)} | ${f0(r.peer.pages)} |
| **wall time, s** (crawler: the crawl, start-up excluded) | **${f1(c.secs)}** | **${f1(r.wget.secs)}** | **${f1(r.peer.secs)}** |
| wall time / wget's | **${f2(c.secs / r.wget.secs)}x** | 1 | ${f2(r.peer.secs / r.wget.secs)}x |
| CPU ms per page (crawler process; Crawlee process) | ${f2(c.msPerPage.crawler)} | | ${f2((r.peer.cpuSecs * 1000) / r.peer.pages)} |

The crawler's run in detail: the whole command took ${f1(r.commandSecs)} s (start-up, indices, seeds);
its process was busy ${pct(busy)} of one core over the crawl; OpenSearch used ${f2(c.msPerPage.opensearch)} CPU ms per
page and the web server ${f2(c.msPerPage.web)}. **Hosts idle while the index held due URLs of theirs: ${f1(c.idleWithWorkMs / 1000)}
host-seconds, ${pct(c.idleShare)} of the crawl's host time** (the crawl summary's \`idleWithWorkMs\`).
${f0(c.adopted)} URLs were handed to the fetcher as soon as their DISCOVERED write was acknowledged,
the rest came from ${f0(c.spout.queries)} spout queries (p50 ${f1(c.spout.queryMsP50)} ms);
${f0(r.crawlServed.repeated)} pages were asked for twice.
`;
}

/**
 * @param {FewHostResult | undefined} r
 * @returns {TargetRow[]}
 */
export function fewHostTargets(r) {
  if (!r) return [];
  const c = r.crawl;
  const ratio = c.secs / r.wget.secs;
  return [
    [
      `few hosts: all ${f0(r.pages)} pages, wall time / wget -r's`,
      '<= 3x (2x wanted)',
      `${f0(r.crawlServed.distinct)} pages, ${f1(c.secs)} s / ${f1(r.wget.secs)} s = ${f2(ratio)}x`,
      r.crawlServed.distinct === r.pages && ratio <= 3,
    ],
    [
      'few hosts: hosts idle while due URLs exist',
      '< 10%',
      `${pct(c.idleShare)} (${f1(c.idleWithWorkMs / 1000)} host-s)`,
      c.idleShare < 0.1,
    ],
  ];
}
