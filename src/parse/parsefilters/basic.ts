import { getDomain } from 'tldts';
import { MD } from '../../model/keys.js';
import { Params } from './params.js';
import type { ParseFilter, ParseFilterFactory } from './types.js';

/**
 * DomainParseFilter: the page's registrable domain (public-suffix aware, ICANN section, as the
 * fetcher's byDomain queues) or, with `byHost`, its host, into `key` (default "domain"). Hosts
 * without a registrable domain (IP addresses, localhost) give the host.
 */
export const domainParseFilter: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const key = p.string('key', MD.domain);
  const byHost = p.boolean('byHost', false);
  return {
    name: ctx.name,
    filter(url, _doc, parse) {
      const host = new URL(url).hostname.toLowerCase();
      const value = byHost ? host : (getDomain(host, { allowPrivateDomains: false }) ?? host);
      parse.metadata.setValue(key, value);
    },
  };
};

/**
 * MimeTypeNormalization: `format` from `parse.Content-Type`: unknown (blank), html, pdf, word,
 * excel, powerpoint, video, image, audio or other, by the same substring tests as StormCrawler.
 */
export const mimeTypeNormalization: ParseFilterFactory = (_raw, ctx) => ({
  name: ctx.name,
  filter(_url, _doc, parse) {
    parse.metadata.setValue(MD.format, formatOf(parse.metadata.getFirstValue(MD.contentType)));
  },
});

export function formatOf(contentType: string | undefined): string {
  const ct = contentType?.trim().toLowerCase() ?? '';
  if (ct === '') return 'unknown';
  for (const f of ['html', 'pdf', 'word', 'excel', 'powerpoint'] as const) if (ct.includes(f)) return f;
  for (const f of ['video', 'image', 'audio'] as const) if (ct.startsWith(`${f}/`)) return f;
  return 'other';
}

/**
 * CommaSeparatedToMultivaluedMetadata: the first value of each of `keys` split on commas into
 * values (blank ones dropped), at most `maxTokens` (default 128) of them.
 */
export const commaSeparatedToMultivalued: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const keys = p.strings('keys');
  const maxTokens = p.integer('maxTokens', 128, 1);
  const filter: ParseFilter = {
    name: ctx.name,
    filter(_url, _doc, parse) {
      const md = parse.metadata;
      for (const key of keys) {
        const first = md.getFirstValue(key);
        if (first === undefined) continue;
        md.remove(key);
        md.setValues(
          key,
          first
            .split(/ *, */)
            .filter((t) => t.trim() !== '')
            .slice(0, maxTokens),
        );
      }
    },
  };
  return filter;
};
