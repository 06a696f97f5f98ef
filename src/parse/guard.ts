import { ERROR_CAUSE, ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { bomOf, charsetOfContentType } from './charset.js';
import { mediaType } from './mime.js';
import { failed } from './results.js';
import type { ParseSettings } from './settings.js';
import { documentSignature } from './shunt.js';
import { isGzip } from './sitemap/detect.js';
import type { ParseInput, ParseStatus } from './types.js';

/** Bytes searched for a NUL: binary formats have one within their first few hundred. */
export const BINARY_SNIFF_BYTES = 1024;

/** Types that promise text: what the parsers would read as characters. */
function claimsText(type: string): boolean {
  return (
    type === '' ||
    type.startsWith('text/') ||
    type.includes('html') ||
    type.endsWith('xml') ||
    type.endsWith('json')
  );
}

const WIDE_CHARSET = /^\s*(utf-?(16|32)|ucs-?2|unicode)/i;

/** True when the NULs of `content` are those of a UTF-16 or UTF-32 text (by BOM or header). */
function wideText(content: Buffer, contentType: string | undefined): boolean {
  if (bomOf(content)?.charset.startsWith('utf-16')) return true;
  // UTF-32 BE (a UTF-32 LE mark begins like UTF-16 LE's); the charset sniffer does not decode UTF-32.
  if (content[0] === 0 && content[1] === 0 && content[2] === 0xfe && content[3] === 0xff) return true;
  return WIDE_CHARSET.test(charsetOfContentType(contentType) ?? '');
}

function refused(input: ParseInput, cause: string, message: string): ParseStatus {
  const md: Metadata = input.metadata.copy();
  md.setValue(MD.errorCause, cause);
  return failed(input.url, md, 'ERROR', { source: ERROR_SOURCE.contentType, message });
}

/**
 * What must not be parsed as text, checked before any parser sees the page: a decompression bomb
 * (the protocol cut it at http.decoded.limit, or at http.content.limit after it inflated past
 * http.decoded.max.ratio) and binary content (NUL bytes) that claims to be text. Each ends ERROR
 * with its own error.cause and error.source "content-type checking"; undefined lets the page through.
 * A body cut at http.content.limit alone is an ordinary long page: it is parsed as far as it goes.
 */
export function refuseContent(input: ParseInput, s: ParseSettings): ParseStatus | undefined {
  const { url, metadata, content } = input;
  const reason =
    metadata.getFirstValue(MD.trimmed) === 'true' ? metadata.getFirstValue(MD.trimmedReason) : undefined;
  const encoding = metadata.getFirstValue(`${s.protocolPrefix}content-encoding`) ?? 'compressed';
  if (reason === 'decoded-size') {
    return refused(
      input,
      ERROR_CAUSE.decodedSizeLimit,
      `the ${encoding} body of ${url} decoded past http.decoded.limit (${content.length} bytes kept): a decompression bomb, not parsed`,
    );
  }
  if (reason === 'inflation-ratio') {
    return refused(
      input,
      ERROR_CAUSE.inflationRatioLimit,
      `the ${encoding} body of ${url} inflated more than http.decoded.max.ratio times before http.content.limit cut it: a decompression bomb, not parsed`,
    );
  }
  const head = content.subarray(0, BINARY_SNIFF_BYTES);
  const nul = head.indexOf(0);
  // A document (PDF, Office) under a text type is mislabelled, not binary junk: the shunt decides.
  if (nul < 0 || isGzip(content) || documentSignature(content) !== undefined) return undefined;
  const contentType = metadata.getFirstValue(`${s.protocolPrefix}content-type`);
  const type = mediaType(contentType);
  if (!claimsText(type) || wideText(content, contentType)) return undefined;
  return refused(
    input,
    ERROR_CAUSE.binaryContent,
    `${url} holds NUL bytes (the first at byte ${nul}), so it is binary, not the ${type || 'text'} it claims: not parsed`,
  );
}
