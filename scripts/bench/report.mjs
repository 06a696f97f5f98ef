// @ts-check
// RESULTS.md from one benchmark run: every figure, the targets beside them, nothing asserted.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feedsSection } from './report-feeds.mjs';
import { fewHostSection, fewHostTargets } from './report-fewhost.mjs';
import { monitoringOverhead, monitoringSection } from './report-monitoring.mjs';
import { renderReport } from './report-render.mjs';
import { deepSection, throughputTargets, workersSection } from './report-throughput.mjs';
import { sectionsMarkdown } from './sections.mjs';

/**
 * One profile of the synthetic web as run.mjs runs it.
 * @typedef {{ profile: 'small' | 'large', hosts: number, pages: number, peerMax: number, threadsVariant?: boolean, profileAreas?: boolean, warcVariant?: boolean, workersVariant?: boolean, monitoringVariant?: boolean, dedupVariant?: boolean }} ProfileSpec
 */
/** @typedef {import('./crawl.mjs').CrawlResult & { statusDocs: number }} CrawlRun */
/**
 * Everything measured on one profile.
 * @typedef {ProfileSpec & {
 *   expected: import('./web.mjs').Expected,
 *   settings: Record<string, unknown>,
 *   fetch: import('./stages.mjs').FetchResult,
 *   parse: import('./stages.mjs').ParseResult,
 *   bulk: import('./stages.mjs').BulkResult,
 *   floor: import('./stages.mjs').FloorResult,
 *   crawl: CrawlRun,
 *   areas: { area: string, share: number }[] | undefined,
 *   threaded: CrawlRun | undefined,
 *   warc: (CrawlRun & { files: number, bytes: number }) | undefined,
 *   workers: CrawlRun | undefined,
 *   monitoring?: import('./monitoring.mjs').MonitoringResult,
 *   dedupOff?: CrawlRun | undefined,
 *   peer: import('./peer.mjs').PeerResult,
 * }} ProfileResult
 */
/**
 * The machine and versions of a run.
 * @typedef {{
 *   cpu: string, cores: number, memGiB: number, node: string, opensearch: string, crawler: string, crawlee: string,
 *   date: string, minutes: number, quick: boolean,
 * }} Machine
 */

/** @typedef {(n: number) => string} Format */
/** @type {Format} */
const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
/** @type {Format} */
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
/** @type {Format} */
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
/** @type {Format} */
const pct = (n) => `${Math.round(n * 100)}%`;
/** @type {(cpuSecs: number, pages: number) => number} */
const per1000 = (cpuSecs, pages) => (cpuSecs / pages) * 1000;

/**
 * What the machine allows: its cores over the CPU a page costs the crawler, OpenSearch and the web
 * server together.
 * @param {CrawlRun} c
 * @param {number} cores
 */
function machineLimit(c, cores) {
  const total = c.msPerPage.crawler + c.msPerPage.opensearch + c.msPerPage.web;
  return { total, pagesPerSec: (cores * 1000) / total };
}

/**
 * @param {ProfileResult} p
 * @param {NonNullable<ProfileResult['areas']>} areas
 */
function areasSection(p, areas) {
  const ms = p.crawl.msPerPage.crawler;
  const rows = areas.map((a) => `| ${a.area} | ${f2(a.share * ms)} | ${pct(a.share)} |`);
  return `### Where the crawler's CPU goes

A ${'`'}node --cpu-prof${'`'} profile of a window of the same crawl (run again, for its first seconds):
each sample counts for the nearest frame up its stack that belongs to an area (by source file;
scripts/bench/areas.mjs), idle left out. The shares are applied to the CPU per page measured
above without the profiler (${f2(ms)} ms).

| area | ms/page | share |
|---|---:|---:|
${rows.join('\n')}
| **crawler, all areas** | **${f2(ms)}** | |
| floor (same pages: fetch + SAX + text + resolve) | ${f2(p.floor.cpuMsPerPage)} | |

`;
}

/**
 * @param {ProfileResult} p
 * @param {NonNullable<ProfileResult['warc']>} w
 */
function warcSection(p, w) {
  const a = p.crawl;
  return `### Variant: WARC output on (${'`'}warc.enabled: true${'`'})

| figure | WARC off (default) | WARC on |
|---|---:|---:|
| pages/s (whole crawl) | ${f0(a.pagesPerSec)} | ${f0(w.pagesPerSec)} |
| pages/s, median 10-s window | ${f0(a.windows.median)} | ${f0(w.windows.median)} |
| crawler CPU ms per page | ${f2(a.msPerPage.crawler)} | ${f2(w.msPerPage.crawler)} |
| crawler peak RSS MB | ${f0(a.maxRssMb)} | ${f0(w.maxRssMb)} |
| WARC written | | ${f0(w.files)} files, ${f0(w.bytes / 2 ** 20)} MiB (${f1(w.bytes / w.fetched / 1024)} KiB per page) |

`;
}

/** @param {ProfileResult} p */
function limits(p) {
  const writesPerPage = p.crawl.statusWrites.written / p.crawl.fetched;
  const rows = [
    { name: 'undici fetch only', rate: p.fetch.pagesPerSec },
    { name: 'parse and extract only (one thread)', rate: p.parse.pagesPerSec },
    {
      name: `raw _bulk (${f2(writesPerPage)} status writes per crawled page)`,
      rate: p.bulk.docsPerSec / writesPerPage,
    },
  ];
  const slowest = rows.reduce((a, b) => (b.rate < a.rate ? b : a));
  return { rows, slowest, writesPerPage };
}

/**
 * @param {ProfileResult} p
 * @param {CrawlRun} b the threaded variant's crawl
 */
function threadedSection(p, b) {
  const a = p.crawl;
  return `### Variant: \`parser.threads: 1\` (parsing on a worker thread)

| figure | parser.threads 0 (default) | parser.threads 1 |
|---|---:|---:|
| pages/s (whole crawl) | ${f0(a.pagesPerSec)} | ${f0(b.pagesPerSec)} |
| pages/s, median 10-s window | ${f0(a.windows.median)} | ${f0(b.windows.median)} |
| crawler CPU s per 1,000 pages (both threads) | ${f2(a.cpuPer1000)} | ${f2(b.cpuPer1000)} |
| crawler peak RSS MB | ${f0(a.maxRssMb)} | ${f0(b.maxRssMb)} |
| CPU share: OpenSearch / whole machine | ${pct(a.share.opensearch)} / ${pct(a.share.machine)} | ${pct(b.share.opensearch)} / ${pct(b.share.machine)} |

`;
}

/**
 * @param {ProfileResult} p
 * @param {number} cores
 */
function profileSection(p, cores) {
  const { slowest, writesPerPage } = limits(p);
  const c = p.crawl;
  const size = p.profile === 'small' ? '~10 KB' : '~90 KB';
  return `## Profile \`${p.profile}\`: ${p.hosts} hosts x ${f0(p.pages)} pages of ${size}, ~50 links (80% same host)

The web also holds, per host, ${f0(p.expected.notFound / p.hosts)} links to 404s, ${f0(p.expected.redirects / p.hosts)} to
301 redirects and ${f0(p.expected.disallowed / p.hosts)} to paths robots.txt disallows.

### Stage limits (same pages, same machine, same run)

| stage | pages/s | CPU s per 1,000 pages | peak RSS MB |
|---|---:|---:|---:|
| undici \`request\`, ${f0(p.fetch.pages)} pages, concurrency 50 | ${f0(p.fetch.pagesPerSec)} | ${f2(per1000(p.fetch.cpuSecs, p.fetch.pages))} | ${f0(p.fetch.maxRssMb)} |
| parse and extract (${f1(p.parse.outlinksPerPage)} outlinks/page kept), one thread | ${f0(p.parse.pagesPerSec)} | ${f2(per1000(p.parse.cpuSecs, p.parse.pages))} | ${f0(p.parse.maxRssMb)} |
| floor: undici fetch, htmlparser2 SAX (hrefs and text), \`new URL\` resolve, one process | ${f0(p.floor.pagesPerSec)} | ${f2(p.floor.cpuMsPerPage)} | ${f0(p.floor.maxRssMb)} |
| raw \`_bulk\` of ${f0(p.bulk.docs)} status documents, 500 per bulk, 2 in flight: ${f0(p.bulk.docsPerSec)} docs/s | ${f0(p.bulk.docsPerSec / writesPerPage)} | (client) ${f2(per1000(p.bulk.cpuSecs, p.bulk.docs / writesPerPage))} | ${f0(p.bulk.maxRssMb)} |

Slowest limit: **${slowest.name}**, ${f0(slowest.rate)} pages/s.

### End to end: \`crawler run --once\` with OpenSearch persistence

| figure | value |
|---|---:|
| pages fetched (status 200) | ${f0(c.fetched)} |
| statuses written | ${Object.entries(c.byStatus)
    .map(([k, v]) => `${k} ${f0(v)}`)
    .join(', ')} |
| status documents at the end | ${f0(c.statusDocs)} |
| wall time (first "crawling" to "crawl stopped") | ${f1(c.secs)} s |
| **pages/s** (whole crawl, ramp-up and tail included) | **${f0(c.pagesPerSec)}** |
| pages/s in 10-s windows: median / best (${c.windows.count} windows) | ${f0(c.windows.median)} / ${f0(c.windows.max)} |
| crawler CPU s per 1,000 pages (user+sys, whole process) | ${f2(c.cpuPer1000)} |
| CPU ms per page: crawler / its floor (ratio) | ${f2(c.msPerPage.crawler)} / ${f2(p.floor.cpuMsPerPage)} (${f2(c.msPerPage.crawler / p.floor.cpuMsPerPage)}x) |
| CPU ms per page: OpenSearch / web server | ${f2(c.msPerPage.opensearch)} / ${f2(c.msPerPage.web)} |
| machine limit: ${cores} cores / ${f2(machineLimit(c, cores).total)} ms per page (crawler + OpenSearch + web) | ${f0(machineLimit(c, cores).pagesPerSec)} pages/s; the crawl reached ${pct(c.pagesPerSec / machineLimit(c, cores).pagesPerSec)} (median window ${pct(c.windows.median / machineLimit(c, cores).pagesPerSec)}) |
| log lines dropped (stderr could not keep up) | ${f0(c.logLinesDropped)} |
| crawler peak RSS | ${f0(c.maxRssMb)} MB |
| status writes acknowledged | ${f0(c.statusWrites.written)} (${f0(c.statusWritesPerSec)}/s; ${f0(c.statusWrites.existing)} found the URL known, ${f0(c.statusWrites.skippedCached)} skipped by the DISCOVERED cache, ${f0(c.statusWrites.failed)} failed) |
| spout query latency (${f0(c.spout.queries)} queries) | p50 ${f1(c.spout.queryMsP50)} ms, p95 ${f1(c.spout.queryMsP95)} ms |
| CPU share of the ${cores} cores: OpenSearch / web server / whole machine | ${pct(c.share.opensearch)} / ${pct(c.share.web)} / ${pct(c.share.machine)} |
| crawler rate over the slowest stage limit | ${pct(c.pagesPerSec / slowest.rate)} |
| crawler rate over the parse-only limit | ${pct(c.pagesPerSec / p.parse.pagesPerSec)} |

${p.areas ? areasSection(p, p.areas) : ''}${p.threaded ? threadedSection(p, p.threaded) : ''}${p.warc ? warcSection(p, p.warc) : ''}${p.workers ? workersSection(c, p.workers) : ''}${p.monitoring ? monitoringSection(p.monitoring) : ''}### Peer: Crawlee ${'`'}CheerioCrawler${'`'}, same web, same concurrency

| figure | crawler | Crawlee | crawler / Crawlee |
|---|---:|---:|---:|
| pages crawled | ${f0(c.fetched)} | ${f0(p.peer.pages)} (cap ${f0(p.peerMax)}) | |
| pages/s | ${f0(c.pagesPerSec)} | ${f0(p.peer.pagesPerSec)} | ${f1(c.pagesPerSec / p.peer.pagesPerSec)}x |
| CPU s per 1,000 pages | ${f2(c.cpuPer1000)} | ${f2(per1000(p.peer.cpuSecs, p.peer.pages))} | ${f2(c.cpuPer1000 / per1000(p.peer.cpuSecs, p.peer.pages))}x |
| peak RSS MB | ${f0(c.maxRssMb)} | ${f0(p.peer.maxRssMb)} | ${f2(c.maxRssMb / p.peer.maxRssMb)}x |
`;
}

/** @param {readonly import('./spout.mjs').SpoutRow[]} rows */
function spoutSection(rows) {
  const lines = rows.map(
    (r) => `| ${f0(r.docs)} | ${r.form} | ${f1(r.p50)} | ${f1(r.p95)} | ${f0(r.loadSecs)} |`,
  );
  return `## Spout at scale: next-batch selection

Status index of 4 shards, 10 k hosts, about half the documents due; 50 buckets x 2 URLs (the
daemon's defaults); a new query date each time and request_cache off, so every query runs; 30 timed
queries after 5 warm-up ones.

| status documents | query form | p50 ms | p95 ms | load s |
|---:|---|---:|---:|---:|
${lines.join('\n')}
`;
}

/**
 * @param {import('./inject.mjs').InjectResult} r
 */
function injectSection(r) {
  return `## Inject at scale: \`crawler inject\` of a seeds file

A file of ${f0(r.lines)} lines (${f0(r.fileMb)} MB; 10 k hosts, \`url<TAB>source=file\` per line, two bad
lines) into a fresh status index: the built CLI in its own process with a ${f0(r.heapMb)} MB heap
(\`--max-old-space-size\`), 2,000 actions per bulk, no transitions index. The suite's test of the same
(100,000 URLs) checks that memory does not grow with the file; here the figures are measured.

| figure | value |
|---|---:|
| wall time (start-up and index creation included) | ${f1(r.secs)} s |
| **lines/s** | **${f0(r.linesPerSec)}** |
| CPU s (user+sys) per 100,000 lines | ${f2((r.cpuSecs / r.lines) * 100_000)} |
| peak RSS | ${f0(r.maxRssMb)} MB |
| status documents written | ${f0(r.urls)} |
`;
}

/**
 * The documents profile (scripts/bench/documents.mjs).
 * @param {import('./documents.mjs').DocumentsResult} d
 */
export function documentsSection(d) {
  const c = d.crawl;
  const statuses = Object.entries(d.statuses)
    .map(([k, v]) => `${k} ${f0(v)}`)
    .join(', ');
  return `## Documents: PDFs through Apache Tika

${f0(d.documents)} PDFs on ${d.hosts} hosts (${d.variants} distinct files printed by Chromium, ${f0(d.kb.min)} to ${f0(d.kb.max)} KB, mean
${f0(d.kb.mean)} KB, ${f1(d.pagesPerDocument)} pages each on average: text, a link per page, incompressible images),
\`crawler run --once\` end to end with the embedded Tika (\`tika.max.concurrent: ${d.tikaMaxConcurrent}\`, warmed up on each file
first${d.tikaStartedHere ? '' : '; it was already running'}), statuses ${statuses}. The index pages' cost is spread over the documents.

| what | figure |
|---|---:|
| **documents/s** (whole crawl) | **${f1(d.documentsPerSec)}** |
| crawl time | ${f1(c.secs)} s |
| CPU ms per document: crawler | ${f1(d.msPerDocument.crawler)} |
| CPU ms per document: Tika | ${f1(d.msPerDocument.tika)} |
| CPU ms per document: OpenSearch | ${f1(d.msPerDocument.opensearch)} |
| CPU ms per document: web server | ${f1(d.msPerDocument.web)} |
| Tika peak RSS | ${f0(d.tikaPeakRssMb)} MB |
| crawler peak RSS | ${f0(c.maxRssMb)} MB |
| machine busy | ${pct(c.share.machine)} |
`;
}

/**
 * @param {readonly ProfileResult[]} profiles
 * @param {readonly import('./spout.mjs').SpoutRow[]} spout
 * @param {import('./inject.mjs').InjectResult} inject
 * @param {number} cores
 * @param {import('./deep.mjs').DeepResult | undefined} deep
 * @param {import('./fewhost.mjs').FewHostResult | undefined} fewhost
 */
function targets(profiles, spout, inject, cores, deep, fewhost) {
  const small = profiles.find((p) => p.profile === 'small');
  const large = profiles.find((p) => p.profile === 'large');
  /** @type {(docs: number, form: import('./spout.mjs').QueryForm) => import('./spout.mjs').SpoutRow | undefined} */
  const at = (docs, form) => spout.find((r) => r.docs === docs && r.form === form);
  /** @type {[string, string, string, boolean][]} */
  const rows = [];
  if (small) {
    const c = small.crawl;
    const overFloor = c.msPerPage.crawler / small.floor.cpuMsPerPage;
    rows.push([
      'small: crawler CPU per page (over its floor)',
      '<= 0.6 ms (<= 1.3x)',
      `${f2(c.msPerPage.crawler)} ms (${f2(overFloor)}x)`,
      c.msPerPage.crawler <= 0.6 && overFloor <= 1.3,
    ]);
    rows.push([
      'small: OpenSearch CPU per page',
      '<= 1.0 ms',
      `${f2(c.msPerPage.opensearch)} ms`,
      c.msPerPage.opensearch <= 1.0,
    ]);
    const limit = machineLimit(c, cores).pagesPerSec;
    rows.push([
      'small: pages/s end to end (whole crawl; median 10-s window), share of the machine limit',
      '>= 1,000 and >= 85%',
      `${f0(c.pagesPerSec)} (${f0(c.windows.median)}), ${pct(c.pagesPerSec / limit)}`,
      c.pagesPerSec >= 1000 && c.pagesPerSec / limit >= 0.85,
    ]);
    const ratio = c.pagesPerSec / small.peer.pagesPerSec;
    rows.push(['small: crawler / peer pages/s', '>= 10x', `${f1(ratio)}x`, ratio >= 10]);
  }
  if (large) {
    const r = large.crawl.msPerPage.crawler / large.floor.cpuMsPerPage;
    rows.push(['large: crawler CPU per page over its floor', '<= 1.5x', `${f2(r)}x`, r <= 1.5]);
  }
  for (const form of /** @type {const} */ (['aggregation', 'collapse'])) {
    const big = at(1_000_000, form);
    const smallIdx = at(100_000, form);
    if (big) rows.push([`spout p95 at 1 M (${form})`, '<= 100 ms', `${f1(big.p95)} ms`, big.p95 <= 100]);
    if (big && smallIdx) {
      const growth = big.p95 / smallIdx.p95;
      rows.push([`spout p95 1 M / 100 k (${form})`, 'flat', `${f2(growth)}x`, growth <= 1.25]);
    }
  }
  rows.push(...throughputTargets(small?.crawl, small?.workers, deep));
  rows.push(...fewHostTargets(fewhost));
  const monitoring = small?.monitoring && monitoringOverhead(small.monitoring);
  if (monitoring) {
    const share = `${(monitoring.share * 100).toFixed(1)}%`;
    rows.push([
      'metrics series and console: crawler CPU per page, on over off',
      '< 2%',
      share,
      monitoring.share < 0.02,
    ]);
  }
  const rss = Math.max(...profiles.map((p) => p.crawl.maxRssMb));
  rows.push(['crawler peak RSS', '<= 300 MB', `${f0(rss)} MB`, rss <= 300]);
  rows.push([
    `inject of ${f0(inject.lines)} lines: peak RSS (${f0(inject.heapMb)} MB heap)`,
    '<= 220 MB',
    `${f0(inject.maxRssMb)} MB`,
    inject.maxRssMb <= 220,
  ]);
  return `## Targets (measured, never asserted in tests)

| target | wanted | measured | met |
|---|---|---|---|
${rows.map(([a, b, c, d]) => `| ${a} | ${b} | ${c} | ${d ? 'yes' : '**no**'} |`).join('\n')}
`;
}

/**
 * Near-duplicates and soft 404s: the fingerprint's features and cost, the crawl with the checks on
 * beside off, the candidate query at scale (scripts/bench/simhash.mjs and dedup.mjs).
 * @param {import('./dedup.mjs').DedupResult} d
 */
export function dedupSection(d) {
  const feature = (/** @type {number} */ k) => (k === 1 ? 'words' : `shingles of ${k} words`);
  const rows = d.simhash.rows.map(
    (r) =>
      `| ${feature(r.shingle)}${r.shingle === d.simhash.chosen ? ' (chosen)' : ''} | ${pct(r.datesCounters)} | ${pct(r.oneSentence)} | ${pct(r.both)} (median ${r.bothP50}) | ${(r.templateFalse * 100).toFixed(1)}% (p5 ${r.templateP5}) | ${r.unrelatedP50} |`,
  );
  const q = d.query.map(
    (r) =>
      `| ${f0(r.docs)} | ${f1(r.p50)} | ${f1(r.p95)} | ${f2(r.msPerPage)} | ${f2(r.opensearchCpuMsPerPage)} | ${r.randomCandidatesPerPage.toFixed(3)} | ${f0(r.loadSecs)} |`,
  );
  let crawl = '';
  const c = d.crawl;
  if (c) {
    const { on, off } = c;
    const stats = on.dedup ?? {};
    crawl = `
The small web (${f0(c.hosts)} hosts x ${f0(c.pages)} pages of ~10 KB) crawled end to end with the checks on
(the defaults: SimhashParseFilter, \`dedup.mode: skip\`, soft-404 probes) and off (\`dedup.mode: off\`,
\`soft404.enabled: false\`, no SimhashParseFilter). CPU per page survives a busy machine; pages/s
does not.

| | on | off | on - off |
|---|---:|---:|---:|
| pages fetched | ${f0(on.fetched)} | ${f0(off.fetched)} | |
| pages/s | ${f0(on.pagesPerSec)} | ${f0(off.pagesPerSec)} | |
| crawler CPU-ms per page | ${f2(on.msPerPage.crawler)} | ${f2(off.msPerPage.crawler)} | ${f2(on.msPerPage.crawler - off.msPerPage.crawler)} |
| OpenSearch CPU-ms per page | ${f2(on.msPerPage.opensearch)} | ${f2(off.msPerPage.opensearch)} | ${f2(on.msPerPage.opensearch - off.msPerPage.opensearch)} |
| lookups (pages per lookup) | ${f0(stats.lookups ?? Number.NaN)} (${f1((stats.pagesLookedUp ?? Number.NaN) / (stats.lookups ?? Number.NaN))}) | | |
| near-duplicates, soft 404s found | ${f0(stats.duplicates ?? Number.NaN)}, ${f0(stats.soft404 ?? Number.NaN)} | | |
| soft-404 probes sent (hosts probed) | ${f0(stats.probes ?? Number.NaN)} (${f0(stats.hostsProbed ?? Number.NaN)}) | | |
`;
  }
  return `## Near-duplicates and soft 404s

The fingerprint (src/dedup/fingerprint.ts): ${f0(d.simhash.articles)} articles of real prose (the Markdown
documents of node_modules without code; median ${f0(d.simhash.tokensP50)} tokens), each edited five times: its
date and a counter changed, one sentence replaced by another article's, both; and short articles
(150 to 400 words) inside one heavy template of 400 words (false near-duplicates if within 3). Share
of pairs within Hamming distance 3, by features:

| features | date + counter | one sentence | both | template pairs within 3 | unrelated, median distance |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}

One fingerprint of 10 KB of text (${f0(d.simhash.tokensPer10KB)} tokens): **${d.simhash.msPer10KB.toFixed(3)} CPU-ms**.
${crawl}
The candidate query at scale: a content index of 2 shards with synthetic fingerprints (url, host,
simhash, its 10 keys, token count), ${d.query[0]?.group ?? 50} pages per \`_msearch\` as the judge sends them
(their 500 keys and their own document ids; 10 of them near-duplicates of stored documents).

| content documents | p50 ms per group | p95 ms per group | ms per page | OpenSearch CPU-ms per page | chance candidates per page | load s |
|---:|---:|---:|---:|---:|---:|---:|
${q.join('\n')}
`;
}

/**
 * @param {{
 *   machine: Machine,
 *   profiles: readonly ProfileResult[],
 *   spout: readonly import('./spout.mjs').SpoutRow[],
 *   inject: import('./inject.mjs').InjectResult,
 *   deep?: import('./deep.mjs').DeepResult,
 *   fewhost?: import('./fewhost.mjs').FewHostResult,
 *   render?: import('./render.mjs').RenderResult,
 *   documents?: import('./documents.mjs').DocumentsResult,
 *   feeds?: import('./feeds.mjs').FeedsResult,
 *   concurrency: number,
 *   dedup?: import('./dedup.mjs').DedupResult,
 * }} run
 * @returns {string} the Markdown of RESULTS.md
 */
export function report({
  machine,
  profiles,
  spout,
  inject,
  deep,
  fewhost,
  render,
  documents,
  feeds,
  concurrency,
  dedup,
}) {
  const s = profiles[0]?.settings ?? {};
  const settings = Object.entries(s)
    .filter(([k]) => !['opensearch.addresses', 'urlfilters.config.file'].includes(k))
    .map(([k, v]) => `\`${k}: ${JSON.stringify(v)}\``)
    .join(', ');
  return `# Benchmark results

Produced by \`npm run bench\` (scripts/bench/run.mjs) in ${f1(machine.minutes)} minutes${machine.quick ? ' (BENCH_QUICK: smoke sizes, not a report)' : ''}.

| | |
|---|---|
| date | ${machine.date} UTC |
| machine | ${machine.cpu}, ${machine.memGiB} GiB; OpenSearch, the web server and the crawler share the cores |
| Node.js | ${machine.node} |
| OpenSearch | ${machine.opensearch}, single node (scripts/opensearch, 1 GiB heap) |
| crawler | ${machine.crawler} |
| peer | @crawlee/cheerio ${machine.crawlee}, in-memory storage |

**Politeness is off for the measurement**: \`fetcher.server.delay: 0\`, one connection per host
(\`fetcher.threads.per.queue: 1\`), ${concurrency} fetches in flight. Bench settings over the defaults
(.bench/<profile>/bench.yaml): ${settings}; HostURLFilter keeps cross-host links (the hosts are IP
addresses, each its own "domain"). Everything else is crawler-default.yaml: robots.txt is fetched
and obeyed, pages are parsed with the default parse filters, indexed into the content index, and
every status is written to OpenSearch and acknowledged before the URL counts as done.

${targets(profiles, spout, inject, machine.cores, deep, fewhost)}
${profiles.map((p) => profileSection(p, machine.cores)).join('\n')}
${deep ? deepSection(deep) : ''}
${fewhost ? fewHostSection(fewhost) : ''}
${render ? renderReport(render) : ''}
${documents ? documentsSection(documents) : ''}
${feeds ? feedsSection(feeds) : ''}
${spoutSection(spout)}
${injectSection(inject)}${dedup ? `\n${dedupSection(dedup)}` : ''}${sectionsMarkdown(join(dirname(fileURLToPath(import.meta.url)), 'sections'))}`;
}
