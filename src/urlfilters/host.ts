import type { MetadataView, URLFilter } from './types.js';
import { parseWebUrl, registrableDomain } from './url.js';

export interface HostURLFilterOptions {
  /** Keep only links to the source page's host. @default false */
  readonly ignoreOutsideHost?: boolean;
  /** Keep only links within the source page's registrable domain. @default false */
  readonly ignoreOutsideDomain?: boolean;
}

/**
 * Keeps a crawl within the hosts or the domains of the pages it comes from. Seeds (no source) pass.
 *
 * - `ignoreOutsideHost`: the link's host must equal the source's host (both lowercased by the URL
 *   parser; `www.a.com` and `a.com` are different hosts).
 * - `ignoreOutsideDomain`: the link's registrable domain (public-suffix list, ICANN section, via
 *   tldts) must equal the source's; `sub.a.co.uk` and `www.a.co.uk` share `a.co.uk`. A host with no
 *   registrable domain (an IP address, `localhost`) is its own domain.
 *
 * DIFFERS FROM STORMCRAWLER: in its code, `ignoreOutsideDomain` is only read
 * when the `ignoreOutsideHost` param is present (and false), so `{"ignoreOutsideDomain": true}` alone
 * silently filters nothing; here each param works on its own.
 */
export class HostURLFilter implements URLFilter {
  private readonly byHost: boolean;
  private readonly byDomain: boolean;
  private lastSource: URL | null = null;
  private lastHost = '';
  private lastDomain = '';

  constructor(
    options: HostURLFilterOptions = {},
    readonly name = 'HostURLFilter',
  ) {
    this.byHost = options.ignoreOutsideHost ?? false;
    // Same host implies same domain, so the domain check would be redundant.
    this.byDomain = !this.byHost && (options.ignoreOutsideDomain ?? false);
  }

  filter(sourceUrl: URL | null, _md: MetadataView | null, url: string): string | null {
    if (sourceUrl === null || (!this.byHost && !this.byDomain)) return url;
    const target = parseWebUrl(url);
    if (target === null) return null;
    // Outlinks of one page arrive together with the same URL object: cache its host and domain.
    if (sourceUrl !== this.lastSource) {
      this.lastSource = sourceUrl;
      this.lastHost = sourceUrl.hostname.toLowerCase();
      this.lastDomain = this.byDomain ? registrableDomain(this.lastHost) : '';
    }
    const host = target.hostname;
    if (host === this.lastHost) return url;
    if (this.byHost) return null;
    return registrableDomain(host) === this.lastDomain ? url : null;
  }
}
