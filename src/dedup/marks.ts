import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { clearMarks } from '../model/verdict-marks.js';
import type { Decision } from './decide.js';

export { clearMarks, markSoft404 } from '../model/verdict-marks.js';

// The page judge's verdicts as the page's metadata carries them (and its status document, its
// content document and `crawler url` show them); the marks every verdict clears, and the soft 404's,
// are model/verdict-marks.ts's, shared with soft404/router.ts.

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
