import { bool, duration, int, num, oneOf } from '../define.js';

/**
 * Keys of near-duplicate and soft-404 detection (src/dedup, src/soft404): ours, StormCrawler has
 * neither (only exact signatures, MD5SignatureParseFilter).
 */
export const dedupKeys = {
  'dedup.mode': oneOf(
    ['skip', 'flag', 'off'],
    'skip',
    'near-duplicates of an indexed page: skip = FETCHED with duplicate.of, not indexed; flag = indexed with duplicateOf; off = not looked for',
  ),
  'dedup.duplicate.similarity': num(
    0.85,
    'a page is a duplicate when the exact Jaccard similarity of its main text word 3-shingles (as bags: each occurrence counts; the set reading at most 0.03 under) to an indexed page reaches this (token counts within 10%); from 0.6 below it, similar (indexed, with similarTo)',
    0.6,
  ),
  'dedup.fetch.interval.factor': num(
    4,
    "a near-duplicate's refetch interval is the scheduler's times this (1 = unchanged)",
    1,
  ),
  'soft404.enabled': bool(
    true,
    'probe hosts with URLs that cannot exist and end pages that answer like them FETCH_ERROR soft404',
  ),
  'soft404.probe.after': int(3, 'a host is probed once it answered 200 to this many HTML pages', 1),
  'soft404.probe.interval': duration(7 * 86_400_000, 'a host is probed again after this long'),
} as const;
