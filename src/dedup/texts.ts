import { shingleBag } from '../fingerprint/fingerprint.js';
import { type Similarities, similarities } from '../fingerprint/jaccard.js';

/**
 * The main texts of the canonicals this process decided lately, by content document id: their
 * documents may not be in the index yet (the bulk writer sends every few seconds), and a duplicate
 * fetched right after its canonical is settled on this text. Bounded by characters (oldest out
 * first): a text gone from here only means such a pair is left undecided (both indexed), never
 * that a page is hidden on the estimates.
 */
export class RecentTexts {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars = 4_000_000) {}

  set(id: string, text: string): void {
    this.delete(id);
    if (text.length > this.maxChars) return;
    this.texts.set(id, text);
    this.chars += text.length;
    for (const [old, t] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(old);
      this.chars -= t.length;
    }
  }

  get(id: string): string | undefined {
    return this.texts.get(id);
  }

  delete(id: string): void {
    const t = this.texts.get(id);
    if (t === undefined) return;
    this.texts.delete(id);
    this.chars -= t.length;
  }
}

/**
 * The exact similarity of one page's text to its candidates' within one group's judgment: each text
 * is cut into shingles once, the page's only when a candidate needs it, a canonical's once however
 * many pages of the group it is compared with.
 */
export class ExactSimilarity {
  private readonly shingles = new Map<string, Int32Array>();
  /** Texts compared (shingled) in this group: the work of the exact check. */
  shingled = 0;

  constructor(private readonly textOf: (id: string) => string | undefined) {}

  /** J(page, candidate) in both readings (jaccard.ts), or undefined without the candidate's text. */
  between(
    page: { readonly text: string; shingles?: Int32Array },
    candidateId: string,
  ): Similarities | undefined {
    let theirs = this.shingles.get(candidateId);
    if (theirs === undefined) {
      const text = this.textOf(candidateId);
      if (text === undefined) return undefined;
      theirs = shingleBag(text);
      this.shingles.set(candidateId, theirs);
      this.shingled++;
    }
    if (page.shingles === undefined) {
      page.shingles = shingleBag(page.text);
      this.shingled++;
    }
    return similarities(page.shingles, theirs);
  }
}
