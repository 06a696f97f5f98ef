import { getDomain } from 'tldts';
import { lookupKeys } from '../dedup/keys.js';
import { readFingerprint } from '../fingerprint/page.js';
import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { isoDate } from '../model/values.js';
import { signatureField } from './signature-field.js';
import { documentId } from './status-doc.js';

export interface IndexerOptions {
  /**
   * The crawl's name, its status index (opensearch.status.index.name), written as `crawl` in each
   * document: a content index may be shared by several crawls (its default name is the same for all).
   */
  readonly crawl: string;
  /** indexer.text.maxlength; -1 = all. */
  readonly textMaxLength: number;
  /** indexer.md.mapping entries: `key[=field]`, `key[n][=field]`, `prefix*`. */
  readonly mdMapping: readonly string[];
  /** indexer.canonical.name */
  readonly canonicalKey: string;
  /** indexer.md.filter `key=value`; empty = every page. */
  readonly mdFilter: string;
  readonly ignoreEmptyFields: boolean;
  /** dedup.mode: fingerprints and their keys are stored unless off; skip leaves duplicates out. */
  readonly dedupMode?: 'skip' | 'flag' | 'off';
}

interface Mapping {
  readonly key: string;
  readonly field: string;
  readonly index?: number;
  readonly prefix?: boolean;
}

const ENTRY = /^([^=[\]]+?)(\*)?(?:\[(\d+)\])?(?:=(.+))?$/;

/** Reads indexer.md.mapping once; a malformed entry throws with the entry in the message. */
export function parseMapping(entries: readonly string[]): Mapping[] {
  return entries.map((e) => {
    const m = ENTRY.exec(e.trim());
    if (!m)
      throw new Error(
        `indexer.md.mapping: cannot read entry "${e}" (expected key[=field], key[n] or prefix*)`,
      );
    const [, key, star, idx, field] = m;
    return {
      key: key!,
      field: field ?? key!,
      index: idx === undefined ? undefined : Number(idx),
      prefix: star === '*',
    };
  });
}

/** robots noindex, from the page's meta tags or X-Robots-Tag. */
export const isNoIndex = (md: Metadata): boolean => md.getFirstValue(MD.noIndex) === 'true';

/** A near-duplicate that dedup.mode skip leaves out of the index. */
export const isSkippedDuplicate = (md: Metadata, o: IndexerOptions): boolean =>
  o.dedupMode === 'skip' && md.getFirstValue(MD.duplicateOf) !== undefined;

/**
 * The fingerprint fields: `simhash`, `simhashExact`, `simhashTokens`, `minhash` (the MinHash
 * signature that verifies a candidate, in base64: signature-field.ts); a canonical gets the lookup keys (`minhashKeys`, the bands of
 * its signature, or its exact signature) that other pages find it by, a near-duplicate (flag mode)
 * `duplicateOf`, `duplicateDistance` and `duplicateSimilarity` instead, so no page is ever found as
 * the duplicate of a duplicate.
 */
function addFingerprint(doc: Record<string, unknown>, md: Metadata): void {
  const fp = readFingerprint(md);
  if (!fp) return;
  if (fp.kind === 'simhash') doc.simhash = fp.hash;
  if (fp.minhash) doc.minhash = signatureField(fp.minhash);
  if (fp.tokens > 0) doc.simhashTokens = fp.tokens;
  const duplicateOf = md.getFirstValue(MD.duplicateOf);
  if (duplicateOf) {
    doc.duplicateOf = duplicateOf;
    const distance = Number(md.getFirstValue(MD.duplicateDistance));
    if (Number.isInteger(distance)) doc.duplicateDistance = distance;
    const similarity = Number(md.getFirstValue(MD.duplicateSimilarity));
    if (Number.isFinite(similarity) && md.getFirstValue(MD.duplicateSimilarity) !== undefined)
      doc.duplicateSimilarity = similarity;
    return;
  }
  // A page like an indexed one but not the same (0.6 <= J < the duplicate threshold): named, so
  // that search and Dashboards can group or collapse the two.
  const similarTo = md.getFirstValue(MD.similarTo);
  const similarity = Number(md.getFirstValue(MD.similarSimilarity));
  if (similarTo && Number.isFinite(similarity)) {
    doc.similarTo = similarTo;
    doc.similarity = similarity;
  }
  if (fp.body) {
    doc.bodyMinhash = signatureField(fp.body.minhash);
    doc.bodyTokens = fp.body.tokens;
  }
  if (fp.kind === 'exact') doc.simhashExact = fp.hash;
  else if (fp.minhash) doc.minhashKeys = lookupKeys(fp);
}

/** False when the page must not be indexed: robots noindex, or indexer.md.filter not satisfied. */
export function indexable(md: Metadata, o: IndexerOptions): boolean {
  if (isNoIndex(md)) return false;
  if (o.mdFilter === '') return true;
  const eq = o.mdFilter.indexOf('=');
  return eq > 0 && md.hasValue(o.mdFilter.slice(0, eq), o.mdFilter.slice(eq + 1));
}

/**
 * The page's id in the content index: the canonical URL's when it is on the same registrable domain
 * (so duplicates collapse into one document), else the URL's (StormCrawler's rule).
 */
export function contentUrl(url: string, md: Metadata, canonicalKey: string): string {
  const canonical = canonicalKey ? md.getFirstValue(canonicalKey)?.trim() : undefined;
  if (!canonical) return url;
  try {
    const resolved = new URL(canonical, url);
    // An IP address or a single-label host has no registrable domain: it is its own.
    const domain = (host: string) => getDomain(host) ?? host.toLowerCase();
    return domain(resolved.hostname) === domain(new URL(url).hostname) ? resolved.toString() : url;
  } catch {
    return url;
  }
}

/**
 * A content document's id from its `url` and `canonical` fields (contentDocument writes `canonical`
 * only when the id is its): what reads documents without their `_id` (dedup-index.ts) uses.
 */
export const contentDocumentId = (url: string, canonical: string | undefined): string =>
  documentId(canonical ?? url);

/**
 * The content document of a FETCHED page: url (the page's own, so deletion can find it), crawl, canonical,
 * title/description/keywords and other fields from indexer.md.mapping, text, host, fetch time,
 * signature, `markdown` (the main content as Markdown, when the parser wrote it; cut at the same
 * limit as the text), and `trimmed` (the reason) when the fetch cut the body at a limit.
 */
export function contentDocument(
  page: {
    readonly url: string;
    readonly metadata: Metadata;
    readonly text: string;
    readonly markdown?: string;
  },
  o: IndexerOptions,
  mapping: readonly Mapping[],
  now: number,
): { id: string; doc: Record<string, unknown> } {
  const { url, metadata: md, text, markdown } = page;
  const target = contentUrl(url, md, o.canonicalKey);
  const canonical = target === url ? undefined : target;
  const doc: Record<string, unknown> = { url, crawl: o.crawl };
  if (canonical) doc.canonical = canonical;
  const trimmed = text.trim();
  const content = o.textMaxLength >= 0 ? trimmed.slice(0, o.textMaxLength) : trimmed;
  if (!(o.ignoreEmptyFields && content === '')) doc.content = content;
  if (markdown !== undefined && markdown !== '')
    doc.markdown = o.textMaxLength >= 0 ? markdown.slice(0, o.textMaxLength) : markdown;
  doc.host = new URL(url).hostname.toLowerCase();
  doc.fetchTime = isoDate(now);
  const signature = md.getFirstValue(MD.signature);
  if (signature) doc.signature = signature;
  const lang = md.getFirstValue(MD.lang);
  if (lang) doc.lang = lang;
  if ((o.dedupMode ?? 'off') !== 'off') addFingerprint(doc, md);
  // An incomplete page says so: its text stops where the fetch cut the body.
  if (md.getFirstValue(MD.trimmed) === 'true') doc.trimmed = md.getFirstValue(MD.trimmedReason) ?? 'true';
  for (const m of mapping) {
    const keys = m.prefix ? md.keySet(m.key) : [m.key];
    for (const key of keys) {
      const values = md.getValues(key);
      if (!values) continue;
      const field = m.prefix ? key : m.field;
      if (m.index !== undefined) {
        const v = values[m.index];
        if (v !== undefined && !(o.ignoreEmptyFields && v.trim() === '')) doc[field] = v;
      } else if (values.length === 1) {
        if (!(o.ignoreEmptyFields && values[0]!.trim() === '')) doc[field] = values[0];
      } else {
        doc[field] = [...values];
      }
    }
  }
  return { id: contentDocumentId(url, canonical), doc };
}
