import type { Metadata } from '../model/metadata.js';
import { detach, detachMetadata } from './strings.js';
import type { DocumentHandOff } from './types.js';

/**
 * The shunt (StormCrawler's RedirectionBolt, by media type rather than by `parsed.by`): content the
 * HTML parser does not read goes to the Tika stage (src/tika) when its type is one of
 * `parser.mimetype.whitelist`. Decided on the parse thread from the media type the HTML parser has
 * already worked out, so an HTML page pays nothing for it.
 */
export interface DocumentShunt {
  /** The type to hand to Tika for content of media type `mime`, or undefined: not a document. */
  claim(mime: string, content: Buffer): string | undefined;
}

/** Tika's own names for Office containers it has not looked into yet. */
const OLE2 = 'application/x-tika-msoffice';
const OOXML = 'application/x-tika-ooxml';

/**
 * What a zip file holds, from its first local file header: an OpenDocument or EPUB file names its
 * type in a first entry "mimetype" stored uncompressed; an Office Open XML file usually begins with
 * "[Content_Types].xml" (or the package's _rels). Undefined for any other zip.
 */
export function sniffZipDocument(content: Buffer): string | undefined {
  if (content.length < 30 || content.readUInt32LE(0) !== 0x04034b50) return undefined;
  const nameLength = content.readUInt16LE(26);
  const extraLength = content.readUInt16LE(28);
  const name = content.toString('latin1', 30, Math.min(content.length, 30 + nameLength));
  if (name === 'mimetype' && content.readUInt16LE(8) === 0) {
    const start = 30 + nameLength + extraLength;
    const size = content.readUInt32LE(18);
    if (size > 0 && size < 100 && start + size <= content.length) {
      const type = content.toString('latin1', start, start + size).trim();
      if (/^application\/[\w.+-]+$/.test(type)) return type;
    }
  }
  if (name === '[Content_Types].xml' || name.startsWith('_rels/') || name.startsWith('docProps/'))
    return OOXML;
  return undefined;
}

/** The first bytes of a format Tika reads that a server may send under another type. */
export function documentSignature(content: Buffer): string | undefined {
  if (content.length >= 5 && content.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  if (content.length >= 8 && content.readUInt32BE(0) === 0xd0cf11e0 && content.readUInt32BE(4) === 0xa1b11ae1)
    return OLE2;
  if (content.length >= 5 && content.toString('latin1', 0, 5) === '{\\rtf') return 'application/rtf';
  return sniffZipDocument(content);
}

/**
 * The shunt for `parser.mimetype.whitelist` (regular expressions matching the whole type, as
 * StormCrawler's Java `matches()`). A zip or a generic type is looked into first: a .docx sent as
 * application/zip or application/octet-stream is still a document.
 */
export function documentShunt(whitelist: readonly RegExp[]): DocumentShunt {
  const listed = (type: string) => whitelist.some((r) => r.test(type));
  return {
    claim(mime, content) {
      if (listed(mime)) return mime;
      if (mime === 'application/zip' || mime === 'application/octet-stream' || mime === '') {
        const inside = documentSignature(content);
        if (inside !== undefined && listed(inside)) return inside;
      }
      return undefined;
    },
  };
}

/** Compiles the whitelist: each entry must match a whole media type. Problems are returned, not thrown. */
export function compileWhitelist(entries: readonly string[], problems: string[]): RegExp[] {
  const out: RegExp[] = [];
  for (const e of entries) {
    try {
      out.push(new RegExp(`^(?:${e.trim()})$`, 'i'));
    } catch (err) {
      problems.push(
        `parser.mimetype.whitelist: "${e}" is not a regular expression (${(err as Error).message})`,
      );
    }
  }
  return out;
}

/** The page as the shunt hands it on: the input metadata with `parse.Content-Type` set. */
export function handOff(url: string, md: Metadata, mediaType: string): DocumentHandOff {
  detachMetadata(md);
  return { kind: 'document', url, metadata: md, mediaType: detach(mediaType), outlinks: [] };
}
