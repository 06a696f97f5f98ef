import type { MetadataView, URLFilter } from './types.js';

export interface BasicURLFilterOptions {
  /** Reject URLs longer than this many characters (UTF-16 units); <= 0 = no limit. @default -1 */
  readonly maxLength?: number;
  /** Reject URLs in which one `/`-separated part occurs this many times; <= 1 = off. @default 3 */
  readonly maxPathRepetition?: number;
}

/**
 * StormCrawler's BasicURLFilter: cheap checks on the URL string that break crawler traps.
 *
 * Path repetition, exactly as StormCrawler: the whole URL (scheme, host and query included) is split
 * on "/"; with at most 4 parts (Java's split, which drops trailing empty parts) the URL is kept;
 * otherwise the non-empty parts are counted and the URL is rejected as soon as one of them has been
 * seen `maxPathRepetition` times. `http://a.com/a/a/a/x.html` is rejected at 3, `/a/b/a/` is not.
 *
 * In the shipped chain it runs after BasicURLNormalizer, so both limits apply to the normalised
 * form (see conf/urlfilters.json).
 */
export class BasicURLFilter implements URLFilter {
  private readonly maxLength: number;
  private readonly maxPathRepetition: number;

  constructor(
    options: BasicURLFilterOptions = {},
    readonly name = 'BasicURLFilter',
  ) {
    this.maxLength = options.maxLength ?? -1;
    this.maxPathRepetition = options.maxPathRepetition ?? 3;
  }

  filter(_sourceUrl: URL | null, _md: MetadataView | null, url: string): string | null {
    if (this.maxLength > 0 && url.length > this.maxLength) return null;
    if (this.maxPathRepetition > 1 && this.repeatsPath(url)) return null;
    return url;
  }

  private repeatsPath(url: string): boolean {
    // Java's split drops trailing empty parts: count the parts before any trailing slashes.
    let end = url.length;
    while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
    let parts = 1;
    for (let i = url.indexOf('/'); i !== -1 && i < end; i = url.indexOf('/', i + 1)) parts++;
    if (parts <= 4) return false;
    // Few parts per URL: comparing in place beats allocating a Map of substrings.
    const starts: number[] = [];
    const ends: number[] = [];
    for (let a = 0; a < end; ) {
      let b = url.indexOf('/', a);
      if (b === -1 || b > end) b = end;
      if (b > a) {
        let seen = 1;
        for (let k = 0; k < starts.length; k++) {
          if (
            ends[k]! - starts[k]! === b - a &&
            sameRange(url, starts[k]!, a, b - a) &&
            ++seen === this.maxPathRepetition
          ) {
            return true;
          }
        }
        starts.push(a);
        ends.push(b);
      }
      a = b + 1;
    }
    return false;
  }
}

function sameRange(s: string, i: number, j: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (s.charCodeAt(i + k) !== s.charCodeAt(j + k)) return false;
  return true;
}
