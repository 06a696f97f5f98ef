import { Metadata, type MetadataJSON } from '../../model/metadata.js';
import type { MetadataTransferConfig } from '../../model/metadata-transfer.js';
import type { FilterConfig } from '../../urlfilters/params.js';
import type { ParseConfig } from '../settings.js';
import type { ParseResult, SitemapStats } from '../types.js';

/** A page sent to a parser thread. The content is copied (a Buffer may share its memory). */
/** The keys a parser thread builds its URL filters and page parser from (as the main thread does). */
export type ParserThreadConfig = ParseConfig & MetadataTransferConfig & Partial<FilterConfig>;

export interface ParseRequest {
  readonly id: number;
  readonly url: string;
  readonly metadata: MetadataJSON;
  readonly content: Uint8Array;
}

/** What a parser thread sends back: the result with its metadata as JSON. */
export interface WireResult {
  readonly kind: 'parsed' | 'status' | 'document';
  readonly url: string;
  readonly status?: string;
  /** A document handed to the Tika stage: the media type the shunt matched. */
  readonly mediaType?: string;
  readonly metadata: MetadataJSON;
  readonly text?: string;
  readonly markdown?: string;
  readonly noIndex?: boolean;
  readonly sitemap?: SitemapStats;
  readonly outlinks: readonly { readonly url: string; readonly metadata: MetadataJSON }[];
}

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly id: number; readonly result: WireResult }
  | { readonly type: 'failed'; readonly id: number; readonly error: string };

export function toWire(r: ParseResult): WireResult {
  const outlinks = r.outlinks.map((l) => ({ url: l.url, metadata: l.metadata.toJSON() }));
  if (r.kind === 'document')
    return { kind: 'document', url: r.url, metadata: r.metadata.toJSON(), mediaType: r.mediaType, outlinks };
  return r.kind === 'parsed'
    ? {
        kind: 'parsed',
        url: r.url,
        metadata: r.metadata.toJSON(),
        text: r.text,
        ...(r.markdown === undefined ? {} : { markdown: r.markdown }),
        noIndex: r.noIndex,
        outlinks,
      }
    : {
        kind: 'status',
        url: r.url,
        status: r.status,
        metadata: r.metadata.toJSON(),
        outlinks,
        ...(r.sitemap ? { sitemap: r.sitemap } : {}),
      };
}

export function fromWire(w: WireResult): ParseResult {
  const outlinks = w.outlinks.map((l) => ({ url: l.url, metadata: Metadata.fromJSON(l.metadata) }));
  const metadata = Metadata.fromJSON(w.metadata);
  if (w.kind === 'document')
    return { kind: 'document', url: w.url, metadata, mediaType: w.mediaType ?? '', outlinks: [] };
  return w.kind === 'parsed'
    ? {
        kind: 'parsed',
        url: w.url,
        metadata,
        text: w.text ?? '',
        ...(w.markdown === undefined ? {} : { markdown: w.markdown }),
        noIndex: w.noIndex === true,
        outlinks,
      }
    : {
        kind: 'status',
        url: w.url,
        status: w.status as never,
        metadata,
        outlinks,
        ...(w.sitemap ? { sitemap: w.sitemap } : {}),
      };
}
