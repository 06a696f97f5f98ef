import PQueue from 'p-queue';
import { ERROR_CAUSE, ERROR_SOURCE, MD } from '../model/keys.js';
import type { TikaDocument } from '../parse/document.js';
import { failed } from '../parse/results.js';
import type { DocumentHandOff, ParsedPage, ParseInput, ParseResult, ParseStatus } from '../parse/types.js';
import type { DocumentParser, DocumentFinish as Finish } from '../pipeline/ports.js';
import type { TikaAnswer, TikaCall } from './client.js';

export interface DocumentStageDeps {
  /** The Tika server (TikaService fits). */
  readonly tika: { parse(call: TikaCall): Promise<TikaAnswer> };
  /** Tika's XHTML through the page extraction (InlineParser.parseDocument fits). */
  readonly extract: (input: ParseInput, document: TikaDocument) => ParseResult;
}

export interface DocumentStageOptions {
  /** tika.max.concurrent: documents at Tika at once. */
  readonly concurrency: number;
  /** Documents waiting for Tika at most; `room` holds the caller (and so the fetcher) beyond it. */
  readonly backlog: number;
}

const NO_CONTENT = Buffer.alloc(0);

/**
 * The Tika stage: documents the shunt handed over (PDF, Office, ...) go to Tika, `tika.max.concurrent`
 * at a time; what Tika reads goes through the page extraction, what it cannot ends with a status of
 * its own (error.source "TIKA", error.cause `tika.*`). Each document ends in exactly one call of
 * `finish`; a rejected `parse` means `finish` itself failed.
 */
export class DocumentStage implements DocumentParser {
  private readonly queue: PQueue;

  constructor(
    private readonly d: DocumentStageDeps,
    private readonly o: DocumentStageOptions,
  ) {
    this.queue = new PQueue({ concurrency: o.concurrency });
  }

  /** Documents at Tika or waiting for it. */
  get busy(): number {
    return this.queue.size + this.queue.pending;
  }

  /** Documents at Tika now. */
  get atTika(): number {
    return this.queue.pending;
  }

  /** Resolves when the backlog has room for one more document. */
  room(): Promise<void> {
    return this.queue.onSizeLessThan(this.o.backlog);
  }

  /** Resolves once no document is at Tika or waiting. */
  idle(): Promise<void> {
    return this.queue.onIdle();
  }

  /** Drops the documents still waiting (shutdown deadline). */
  clear(): void {
    this.queue.clear();
  }

  /** Parses one document and hands its result to `finish`; resolves when `finish` has. */
  async parse(doc: DocumentHandOff, content: Buffer, finish: Finish): Promise<void> {
    await this.queue.add(async () => finish(await this.run(doc, content)));
  }

  private async run(doc: DocumentHandOff, content: Buffer): Promise<ParsedPage | ParseStatus> {
    const { url, metadata } = doc;
    if (metadata.getFirstValue(MD.trimmed) === 'true') {
      return failure(
        doc,
        'ERROR',
        ERROR_CAUSE.tikaTrimmed,
        `the document was cut at http.content.limit (${content.length} bytes kept), and a cut document cannot be parsed: raise http.content.limit to index it`,
      );
    }
    const answer = await this.d.tika.parse({ url, content });
    if (answer.kind === 'refused')
      return failure(doc, 'FETCH_ERROR', ERROR_CAUSE.tikaUnavailable, answer.message);
    if (answer.kind === 'failed') {
      const f = answer.failure;
      return failure(doc, f.status, f.cause, `${f.message} (${url})`);
    }
    const result = this.d.extract({ url, metadata, content: NO_CONTENT }, answer.document);
    if (result.kind !== 'document') return result;
    return failure(doc, 'ERROR', ERROR_CAUSE.tikaParseError, `Tika's XHTML for ${url} is not HTML`);
  }
}

function failure(
  doc: DocumentHandOff,
  status: 'ERROR' | 'FETCH_ERROR',
  cause: string,
  message: string,
): ParseStatus {
  const md = doc.metadata.copy();
  md.setValue(MD.errorCause, cause);
  return failed(doc.url, md, status, { source: ERROR_SOURCE.tika, message });
}
