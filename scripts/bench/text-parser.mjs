// @ts-check
// The crawler's parser as the main-content quality benches use it (content.mjs, readability-pages.mjs):
// the defaults, no parse filters, no URL filter, nothing transferred, and a page's text out of it.

import { dist } from './dist.mjs';

const { createPageParser, defaultParseConfig, ParseFilters } = await dist('parse/index.js');
const { Metadata } = await dist('model/metadata.js');
const { systemClock } = await dist('util/clock.js');

/**
 * The parse settings of the benches: the defaults, nothing transferred nor persisted, the path and
 * depth tracked as a crawl tracks them (`track`) or not.
 * @param {boolean} track
 */
export function benchParseConfig(track) {
  return {
    ...defaultParseConfig(),
    'metadata.transfer': [],
    'metadata.persist': [],
    'metadata.track.path': track,
    'metadata.track.depth': track,
  };
}

/**
 * The parser of the quality benches: benchParseConfig without tracking, changed by `extra`; no parse
 * filters, no URL filter.
 * @param {Record<string, unknown>} extra
 */
export async function benchParser(extra) {
  const parser = createPageParser(
    /** @type {ReturnType<typeof benchParseConfig>} */ ({ ...benchParseConfig(false), ...extra }),
    { filter: { filter: (_s, _m, target) => target }, clock: systemClock, filters: ParseFilters.none },
  );
  await parser.ready;
  return parser;
}

/**
 * A parser with the defaults, keeping the main content (or the whole body's text with `wholePage`);
 * `text` gives an HTML page's stored text ('' when it is not parsed as a page).
 * @param {boolean} wholePage
 */
export async function textParser(wholePage) {
  const parser = await benchParser({ 'textextractor.whole.page': wholePage });
  return {
    /** @param {string} url @param {Buffer} content */
    text(url, content) {
      const r = parser.parse({
        url,
        content,
        metadata: Metadata.of({ 'protocol.content-type': 'text/html' }),
      });
      return r.kind === 'parsed' ? r.text : '';
    },
  };
}
