/**
 * How the content index stores a MinHash signature (`minhash`, `bodyMinhash`): base64 of its bytes,
 * in a `binary` field with doc values (mappings/content.json), so that a near-duplicate lookup reads
 * it from the doc values. Any stored field, `_source` too, is read by decompressing the candidate's
 * whole stored document (its text and Markdown with it), which on the bench's web of 100,000 pages
 * cost OpenSearch more than indexing the pages (scripts/bench/RESULTS.md, 2026-12-07). In memory,
 * and in the page's metadata, a signature stays lowercase hex digits (fingerprint/minhash.ts).
 */

/** The signature `hex` (an even number of lowercase hex digits) as the document field holds it. */
export function signatureField(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

/**
 * A signature of `hexLength` hex digits read back from a document: base64 as written by
 * signatureField (doc values give it without padding), or the hex digits themselves as documents
 * written before held them; undefined for anything else (the caller checks the digits).
 */
export function signatureOf(v: unknown, hexLength: number): string | undefined {
  if (typeof v !== 'string') return undefined;
  if (v.length === hexLength) return v;
  const bytes = hexLength / 2;
  const bare = Math.ceil((bytes * 4) / 3);
  if (v.length !== bare && v.length !== 4 * Math.ceil(bytes / 3)) return undefined;
  const b = Buffer.from(v, 'base64');
  return b.length === bytes ? b.toString('hex') : undefined;
}
