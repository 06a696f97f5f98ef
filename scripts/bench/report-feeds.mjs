// @ts-check
// The feeds section of RESULTS.md (scripts/bench/feeds.mjs measures it).

/** @type {(n: number, d?: number) => string} */
const fx = (n, d = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
    : 'n/a';

/**
 * @param {import('./feeds.mjs').FeedsResult} r
 * @returns {string}
 */
export function feedsSection(r) {
  const c = r.crawl;
  const rows = r.parse.map(
    (p) => `| ${p.format} | ${fx(p.bytes / 1024, 1)} | ${fx(p.usPerFeed)} | ${fx(p.usPerEntry, 1)} |`,
  );
  return `## Feeds: ${r.hosts} hosts x ${r.feedsPerHost} feeds of ${r.entries} entries

Feeds of ~${fx(r.feedBytes / 1024)} KiB (RSS 2.0, Atom 1.0 and JSON Feed in turn; per entry a
summary and the article's HTML, as news CMSs publish them), served from the bench process
(scripts/bench/feeds.mjs; alone: \`npm run bench:feeds\`).

The parse stage alone (the crawler's parser, default parse filters, in one thread; best of 3):

| format | KiB | CPU µs per feed | µs per entry |
|---|---:|---:|---:|
${rows.join('\n')}

\`crawler run --once\` seeded with every feed, the spout limited to the seeds
(\`opensearch.status.filterQuery: -_exists_:metadata.depth\`): each fetched document is a feed, each
of its entries one DISCOVERED status write.

| what | figure |
|---|---|
| feeds fetched and parsed | ${fx(c.feeds)} in ${fx(c.secs, 1)} s: **${fx(c.pagesPerSec)} feeds/s** |
| entries written (DISCOVERED) | ${fx(c.entriesWritten)} (${fx(c.entriesWritten / c.feeds, 1)} per feed) |
| CPU per feed | crawler **${fx(c.msPerPage.crawler, 2)} ms**, OpenSearch ${fx(c.msPerPage.opensearch, 2)} ms |
| crawler peak RSS | ${fx(c.maxRssMb)} MB |
`;
}
