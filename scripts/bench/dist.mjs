// @ts-check
// The built crawler (dist/, from `npm run build`) as the bench loads it. dist/<path>.js is compiled
// from src/<path>.ts, so the sources give the types: the bench type-checks without a build.

/**
 * The modules of dist/ the bench uses.
 * @typedef {{
 *   'config/load.js': typeof import('../../src/config/load.js'),
 *   'fingerprint/fingerprint.js': typeof import('../../src/fingerprint/fingerprint.js'),
 *   'fingerprint/simhash.js': typeof import('../../src/fingerprint/simhash.js'),
 *   'dedup/keys.js': typeof import('../../src/dedup/keys.js'),
 *   'dedup/decide.js': typeof import('../../src/dedup/decide.js'),
 *   'fingerprint/minhash.js': typeof import('../../src/fingerprint/minhash.js'),
 *   'fingerprint/jaccard.js': typeof import('../../src/fingerprint/jaccard.js'),
 *   'fingerprint/body.js': typeof import('../../src/fingerprint/body.js'),
 *   'fingerprint/body-minhash.js': typeof import('../../src/fingerprint/body-minhash.js'),
 *   'parse/html/extract.js': typeof import('../../src/parse/html/extract.js'),
 *   'model/metadata.js': typeof import('../../src/model/metadata.js'),
 *   'model/keys.js': typeof import('../../src/model/keys.js'),
 *   'fingerprint/page.js': typeof import('../../src/fingerprint/page.js'),
 *   'opensearch/dedup-index.js': typeof import('../../src/opensearch/dedup-index.js'),
 *   'opensearch/indices.js': typeof import('../../src/opensearch/indices.js'),
 *   'opensearch/spout/query.js': typeof import('../../src/opensearch/spout/query.js'),
 *   'opensearch/spout/select.js': typeof import('../../src/opensearch/spout/select.js'),
 *   'opensearch/bulk-writer.js': typeof import('../../src/opensearch/bulk-writer.js'),
 *   'opensearch/json-line.js': typeof import('../../src/opensearch/json-line.js'),
 *   'opensearch/content-doc.js': typeof import('../../src/opensearch/content-doc.js'),
 *   'app/options.js': typeof import('../../src/app/options.js'),
 *   'opensearch/status-doc.js': typeof import('../../src/opensearch/status-doc.js'),
 *   'parse/index.js': typeof import('../../src/parse/index.js'),
 *   'urlfilters/load.js': typeof import('../../src/urlfilters/load.js'),
 *   'util/clock.js': typeof import('../../src/util/clock.js'),
 *   'util/log.js': typeof import('../../src/util/log.js'),
 * }} Dist
 */

/** The crawler's command line, built. */
export const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;

/**
 * Imports dist/<path>.
 * @template {keyof Dist} P
 * @param {P} path
 * @returns {Promise<Dist[P]>}
 */
export function dist(path) {
  return import(new URL(`../../dist/${path}`, import.meta.url).href);
}
