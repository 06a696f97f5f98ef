import type { Metadata } from '../model/metadata.js';
import { ParseFilters } from '../parse/parsefilters/chain.js';
import { createPageParser } from '../parse/stage.js';
import type { OutlinkFilter } from '../parse/types.js';
import type { ParserThreadConfig } from '../parse/worker/protocol.js';
import type { Clock } from '../util/clock.js';
import type { PageView } from './compare.js';

/** Parses one version of a page for a comparison. */
export type Inspector = (
  url: string,
  metadata: Metadata,
  headers: Readonly<Record<string, readonly string[]>>,
  content: Buffer,
) => PageView;

/**
 * The crawl's own HTML parser (without parse filters) and URL filters, so that a sample counts text
 * and links exactly as the crawl will: links a normaliser makes equal are equal, links the filters
 * drop do not count. Only samples pay for it.
 */
export function pageInspector(config: ParserThreadConfig, filter: OutlinkFilter, clock: Clock): Inspector {
  const parser = createPageParser(config, { filter, clock, filters: ParseFilters.none });
  const prefix = config['protocol.md.prefix'];
  return (url, metadata, headers, content) => {
    const md = metadata.copy();
    for (const [k, v] of Object.entries(headers)) md.setValues(prefix + k, v);
    const result = parser.parse({ url, metadata: md, content });
    if (result.kind !== 'parsed') return { text: 0, links: [] };
    return { text: result.text.length, links: result.outlinks.map((o) => o.url) };
  };
}
