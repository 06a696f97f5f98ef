import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import { detach } from './strings.js';
import type { Outlink, OutlinkFilter } from './types.js';

export interface OutlinkOptions {
  /** Distinct kept links at most; -1 = no limit. */
  readonly max: number;
  readonly trackAnchors: boolean;
}

/** Only these schemes can be fetched; the rest (javascript:, mailto:, data:, tel:) are dropped early. */
const WEB = /^https?:$/;
const ABSOLUTE = /^https?:\/\/[^\s\\]*$/i;

/**
 * Resolutions that do not depend on the page's path, by origin ("" for absolute hrefs) then href;
 * per thread, bounded, cleared when full.
 */
const RESOLVED = new Map<string, Map<string, string | null>>();
const RESOLVED_MAX = 20_000;
let resolvedCount = 0;

/** One distinct link of the page; its metadata is built only when someone asks for it. */
interface Entry {
  readonly url: string;
  /** Distinct anchor texts, detached from the page, in the order seen. */
  anchors: string[] | undefined;
  metadata: Metadata | undefined;
}

/**
 * An outlink whose metadata (the page's transfer template plus its anchors) is built on first read
 * and then kept: most outlinks of a crawl are known URLs that the status store skips by URL alone,
 * and those never need one.
 */
class LazyOutlink implements Outlink {
  constructor(
    private readonly entry: Entry,
    private readonly collector: OutlinkCollector,
  ) {}

  get url(): string {
    return this.entry.url;
  }

  get metadata(): Metadata {
    return this.collector.metadataOf(this.entry);
  }
}

/**
 * Resolves, filters, deduplicates and decorates the links of one page or sitemap (StormCrawler's
 * `toOutlinks` + `filterOutlink`):
 * 1. resolved against the base URL; what is not http(s) after resolution is dropped (Java's URL
 *    throws for unknown schemes, so StormCrawler drops javascript: and friends the same way);
 * 2. the URL filter chain decides and normalises (with the page as source);
 * 3. links equal after filtering are one outlink, their anchors merged (each distinct anchor once);
 * 4. metadata from `MetadataTransfer.forOutlink`, computed once per page and copied per link when
 *    the link's metadata is first read;
 * 5. at most `max` distinct links; later new targets are dropped and counted.
 * Everything stored is a copy (`detach`), so outlinks never keep the page alive.
 */
export class OutlinkCollector {
  private readonly byUrl = new Map<string, Entry>();
  private readonly decided = new Map<string, string | null>();
  private readonly source: URL;
  private template: Metadata | undefined;
  private lastAdded: Entry | undefined;
  /** Targets refused because `max` was reached. */
  overLimit = 0;
  /** Links that did not resolve to http(s) or that the URL filters rejected. */
  rejected = 0;

  constructor(
    readonly pageUrl: string,
    private readonly pageMetadata: Metadata,
    private readonly transfer: MetadataTransfer,
    private readonly urlFilter: OutlinkFilter,
    private readonly options: OutlinkOptions,
  ) {
    this.source = new URL(pageUrl);
  }

  /** Resolves `href` against `base`; undefined when it is not an http(s) URL. */
  static resolve(href: string, base: URL | string): string | undefined {
    try {
      const u = new URL(href, base);
      return WEB.test(u.protocol) ? u.href : undefined;
    } catch {
      return undefined;
    }
  }

  private lastBase: URL | undefined;
  private lastOrigin = '';

  /**
   * `resolve` with a cache for the links whose result does not depend on the page's path: absolute
   * ones (the key is the href) and root-relative ones (the key is origin + href). Navigation and
   * footer links repeat on every page of a site; resolving costs ~2 µs, a cache hit ~0.2 µs.
   */
  private resolveCached(href: string, base: URL): string | undefined {
    const c0 = href.charCodeAt(0);
    let scope: string | undefined;
    if (c0 === 47 /* / */) {
      if (href.charCodeAt(1) !== 47) {
        if (base !== this.lastBase) [this.lastBase, this.lastOrigin] = [base, base.origin];
        scope = this.lastOrigin;
      }
    } else if ((c0 === 104 || c0 === 72) /* h */ && ABSOLUTE.test(href)) scope = '';
    if (scope === undefined) return OutlinkCollector.resolve(href, base);
    // Two levels, so that the lookup hashes the href as it is instead of building origin + href.
    let byHref = RESOLVED.get(scope);
    const hit = byHref?.get(href);
    if (hit !== undefined) return hit ?? undefined;
    const resolved = OutlinkCollector.resolve(href, base);
    if (++resolvedCount > RESOLVED_MAX) {
      RESOLVED.clear();
      resolvedCount = 1;
      byHref = undefined;
    }
    if (!byHref) {
      byHref = new Map();
      RESOLVED.set(scope, byHref);
    }
    // The href is a piece of the page: copied, or the cache would keep the page alive.
    byHref.set(detach(href), resolved ?? null);
    return resolved;
  }

  get size(): number {
    return this.byUrl.size;
  }

  /**
   * Adds a link of the page (absolute, or relative to `base`) with its anchor text; true when it
   * is a new outlink. Its metadata is built only if read later.
   */
  addLink(href: string, base: URL, anchor?: string, hints?: { readonly sitemap?: boolean }): boolean {
    const resolved = this.resolveCached(href, base);
    if (resolved === undefined) {
      this.rejected++;
      return false;
    }
    let target = hints?.sitemap ? undefined : this.decided.get(resolved);
    if (target === undefined) {
      // URLs come from the URL parser (`href`) or a normaliser, never from the page's string.
      target = this.urlFilter.filter(this.source, this.pageMetadata, resolved, hints);
      if (!hints?.sitemap) this.decided.set(resolved, target);
    }
    if (target === null) {
      this.rejected++;
      return false;
    }
    const existing = this.byUrl.get(target);
    if (existing) {
      this.addAnchor(existing, anchor);
      return false;
    }
    if (this.options.max >= 0 && this.byUrl.size >= this.options.max) {
      this.overLimit++;
      return false;
    }
    const entry: Entry = { url: target, anchors: undefined, metadata: undefined };
    this.byUrl.set(target, entry);
    this.lastAdded = entry;
    this.addAnchor(entry, anchor);
    return true;
  }

  /**
   * Adds a link like `addLink`, and returns the new outlink's metadata for the caller to decorate
   * (sitemap entries, parse filters); undefined when the link was dropped or merged into another.
   */
  add(
    href: string,
    base: URL,
    anchor?: string,
    hints?: { readonly sitemap?: boolean },
  ): Metadata | undefined {
    return this.addLink(href, base, anchor, hints) ? this.metadataOf(this.lastAdded!) : undefined;
  }

  /** True if the (filtered) URL is already an outlink. */
  has(url: string): boolean {
    return this.byUrl.has(url);
  }

  /** The entry's metadata, built on first use from the page's template and the anchors so far. */
  metadataOf(entry: Entry): Metadata {
    if (entry.metadata) return entry.metadata;
    this.template ??= this.transfer.forOutlink(this.pageUrl, this.pageMetadata);
    const md = this.template.copy();
    if (entry.anchors) md.addValues(MD.anchors, entry.anchors);
    entry.metadata = md;
    return md;
  }

  private addAnchor(entry: Entry, anchor?: string): void {
    if (!this.options.trackAnchors || anchor === undefined || anchor.trim() === '') return;
    if (entry.anchors?.includes(anchor)) return;
    const copy = detach(anchor);
    if (entry.anchors) entry.anchors.push(copy);
    else entry.anchors = [copy];
    entry.metadata?.addValue(MD.anchors, copy);
  }

  /** The outlinks, in the order first seen. */
  outlinks(): Outlink[] {
    const out: Outlink[] = [];
    for (const e of this.byUrl.values()) out.push(new LazyOutlink(e, this));
    return out;
  }
}
