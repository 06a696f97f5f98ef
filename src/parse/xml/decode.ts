import { canonicalCharset, charsetOfContentType, decode } from '../charset.js';

/** An XML document's text (feeds, sitemaps): BOM, then the XML declaration, then the header charset, else UTF-8. */
export function decodeXml(content: Buffer, contentType: string | undefined): string {
  let charset = 'utf-8';
  let bomLength = 0;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) bomLength = 3;
  else if (content[0] === 0xff && content[1] === 0xfe) [charset, bomLength] = ['utf-16le', 2];
  else if (content[0] === 0xfe && content[1] === 0xff) [charset, bomLength] = ['utf-16be', 2];
  else {
    const decl = /^\s*<\?xml[^>]*encoding\s*=\s*["']([-\w.:]+)/.exec(content.toString('latin1', 0, 200))?.[1];
    charset = canonicalCharset(decl) ?? canonicalCharset(charsetOfContentType(contentType)) ?? 'utf-8';
  }
  return decode(content, { charset, source: 'default', bomLength });
}
