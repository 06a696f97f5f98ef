import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { PARSED_BY, type ParserDeps, parseHtml } from './html/page.js';
import { detach } from './strings.js';
import type { ParseInput, ParseResult } from './types.js';

/** What Tika made of a document: its metadata (Tika's key names) and its content as XHTML. */
export interface TikaDocument {
  readonly metadata: Readonly<Record<string, readonly string[]>>;
  readonly xhtml: string;
}

/** Keys of Tika's answer that are not metadata of the document (its content, its failures). */
const NOT_METADATA = /^X-TIKA:(content$|EXCEPTION:)/;

/**
 * A document's Tika output through the same extraction as a page: the XHTML goes to the HTML parser
 * (title, text, links such as a PDF's link annotations or a DOCX's hyperlinks, robots headers, the
 * parse filters), then every Tika metadata key is added as `parse.<key>` (StormCrawler's ParserBolt:
 * `parse.dc:title`, `parse.dc:creator`, `parse.dcterms:created`, `parse.xmpTPg:NPages`...), Tika's
 * `Content-Type` replacing the crawler's guess in `parse.Content-Type`, and `parsed.by` says Tika.
 * `input` is the fetched document (its metadata and URL); its content is not read. Never throws.
 */
export function parseDocument(input: ParseInput, tika: TikaDocument, deps: ParserDeps): ParseResult {
  const header = deps.settings.protocolPrefix + 'content-type';
  const declared = input.metadata.getValues(header);
  const md = input.metadata.copy();
  // The XHTML is UTF-8 HTML whatever the server said the document was; the header is restored after.
  md.setValue(header, 'application/xhtml+xml; charset=UTF-8');
  const restore = (out: Metadata) => {
    out.remove(header);
    out.setValues(header, declared);
  };
  // Before the parse filters run, so that they see what the document is (MimeTypeNormalization's
  // format "pdf", not "html").
  const addTikaMetadata = (out: Metadata) => {
    restore(out);
    for (const [key, values] of Object.entries(tika.metadata)) {
      if (!NOT_METADATA.test(key)) out.setValues(`parse.${key}`, values.map(detach));
    }
    out.setValue(MD.parsedBy, PARSED_BY.tika);
  };
  const result = parseHtml(
    { url: input.url, metadata: md, content: Buffer.from(tika.xhtml, 'utf8') },
    // Every page of a document is its content: nothing in it is a site's boilerplate.
    { ...deps, settings: { ...deps.settings, text: { ...deps.settings.text, document: true } } },
    addTikaMetadata,
  );
  restore(result.metadata);
  return result;
}
