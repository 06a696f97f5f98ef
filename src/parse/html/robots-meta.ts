import { MD } from '../../model/keys.js';
import type { Metadata } from '../../model/metadata.js';

/** The robots directives of a page (StormCrawler's RobotsTags). */
export interface RobotsDirectives {
  noIndex: boolean;
  noFollow: boolean;
  /** From `noarchive`. */
  noCache: boolean;
}

export const noDirectives = (): RobotsDirectives => ({ noIndex: false, noFollow: false, noCache: false });

/**
 * Applies directive values such as "noindex, nofollow" (case-insensitive; `none` = all three).
 * Values are only ever switched on: the header and the meta tag add up. Values addressed to one
 * crawler ("googlebot: noindex") and unknown ones (`unavailable_after`, `max-snippet`) are ignored,
 * as StormCrawler does.
 */
export function applyDirectives(target: RobotsDirectives, values: readonly string[]): void {
  for (const raw of values) {
    for (const token of raw.split(/ *, */)) {
      switch (token.trim().toLowerCase()) {
        case 'none':
          target.noIndex = target.noFollow = target.noCache = true;
          break;
        case 'noindex':
          target.noIndex = true;
          break;
        case 'nofollow':
          target.noFollow = true;
          break;
        case 'noarchive':
          target.noCache = true;
          break;
      }
    }
  }
}

/**
 * The X-Robots-Tag header of the response, read from `<prefix>x-robots-tag`.
 * DIFFERS FROM STORMCRAWLER: it reads `<prefix>X-Robots-Tag`, a key the protocols never write
 * (header names are stored lowercased), so the header is ignored there. Every header line counts
 * (StormCrawler splits only a single one on commas).
 */
export function headerDirectives(md: Metadata, prefix: string, target: RobotsDirectives): void {
  const values = md.getValues(prefix + 'x-robots-tag') ?? md.getValues(prefix + 'X-Robots-Tag');
  if (values) applyDirectives(target, values);
}

/** Writes `robots.noIndex`, `robots.noFollow`, `robots.noCache` as "true"/"false". */
export function writeDirectives(md: Metadata, d: RobotsDirectives): void {
  md.setValue(MD.noIndex, String(d.noIndex));
  md.setValue(MD.noFollow, String(d.noFollow));
  md.setValue(MD.noCache, String(d.noCache));
}

// StormCrawler's RefreshTag pattern: whatever comes after "; URL=", without surrounding quotes.
const REFRESH = /^.*;\s*URL\s*=\s*['"]?(.+?)['"]?\s*$/is;

/** The target of a `<meta http-equiv="refresh">` content value, or undefined when it has none. */
export function refreshTarget(content: string): string | undefined {
  const target = REFRESH.exec(content)?.[1]?.trim();
  return target ? target : undefined;
}
