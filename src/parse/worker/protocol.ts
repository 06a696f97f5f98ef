import { Metadata, type MetadataJSON } from '../../model/metadata.js';
import type { ParseOutcome } from '../../pipeline/ports.js';

/** A page sent to a parser thread. The content is copied (a Buffer may share its memory). */
export interface ParseRequest {
  readonly id: number;
  readonly url: string;
  readonly metadata: MetadataJSON;
  readonly content: Uint8Array;
}

/** What a parser thread sends back: the outcome with its metadata as JSON. */
export interface WireOutcome {
  readonly kind: 'parsed' | 'status';
  readonly url: string;
  readonly status?: string;
  readonly metadata: MetadataJSON;
  readonly text?: string;
  readonly outlinks: readonly { readonly url: string; readonly metadata: MetadataJSON }[];
}

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly id: number; readonly outcome: WireOutcome }
  | { readonly type: 'failed'; readonly id: number; readonly error: string };

export function toWire(o: ParseOutcome): WireOutcome {
  const outlinks = o.outlinks.map((l) => ({ url: l.url, metadata: l.metadata.toJSON() }));
  return o.kind === 'parsed'
    ? { kind: 'parsed', url: o.url, metadata: o.metadata.toJSON(), text: o.text, outlinks }
    : { kind: 'status', url: o.url, status: o.status, metadata: o.metadata.toJSON(), outlinks };
}

export function fromWire(w: WireOutcome): ParseOutcome {
  const outlinks = w.outlinks.map((l) => ({ url: l.url, metadata: Metadata.fromJSON(l.metadata) }));
  const metadata = Metadata.fromJSON(w.metadata);
  return w.kind === 'parsed'
    ? { kind: 'parsed', url: w.url, metadata, text: w.text ?? '', outlinks }
    : { kind: 'status', url: w.url, status: w.status as never, metadata, outlinks };
}
