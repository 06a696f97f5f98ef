import { ERROR_CAUSE, ERROR_SOURCE, MD } from './keys.js';
import type { Metadata } from './metadata.js';

// A page's verdict marks (near-duplicate, similar, soft 404) as its metadata carries them: the page
// judge (dedup/) and the soft-404 redirect check (soft404/router.ts) write them through these, so
// every verdict clears the marks of the others.

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
