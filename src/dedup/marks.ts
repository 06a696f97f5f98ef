import { ERROR_CAUSE, ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { Decision } from './decide.js';

// The page judge's verdicts as the page's metadata carries them (and its status document, its
// content document and `crawler url` show them): written here only, so every verdict clears the
// marks of the others.

/** No near-duplicate or soft-404 marks: a page to index as itself. */
export function clearMarks(md: Metadata): 'index' {
  md.remove(MD.duplicateOf);
  md.remove(MD.duplicateDistance);
  md.remove(MD.duplicateSimilarity);
  md.remove(MD.similarTo);
  md.remove(MD.similarSimilarity);
  md.remove(MD.soft404Evidence);
  return 'index';
}

/** A duplicate (left out with dedup.mode skip) or a similar page (indexed, naming the other). */
export function markDecision(md: Metadata, d: Decision): void {
  clearMarks(md);
  if (d.kind === 'duplicate') {
    md.setValue(MD.duplicateOf, d.of);
    md.setValue(MD.duplicateDistance, String(d.distance));
    md.setValue(MD.duplicateSimilarity, d.similarity.toFixed(3));
  } else if (d.kind === 'similar') {
    md.setValue(MD.similarTo, d.of);
    md.setValue(MD.similarSimilarity, d.similarity.toFixed(3));
  }
}

/**
 * A soft 404: FETCH_ERROR with error.cause soft404 and why; the response validators go, so the next
 * fetch is a whole one (no conditional GET of a page that was an error).
 */
export function markSoft404(md: Metadata, why: string, validators: readonly string[]): void {
  clearMarks(md);
  for (const k of validators) md.remove(k);
  md.setValue(MD.errorCause, ERROR_CAUSE.soft404);
  md.setValue(MD.errorSource, ERROR_SOURCE.soft404);
  md.setValue(MD.errorMessage, why);
  md.setValue(MD.soft404Evidence, why);
}
