import type { PageFingerprint } from '../fingerprint/page.js';
import type { Metadata } from '../model/metadata.js';
import type { HostProfile } from '../soft404/profile.js';
import type { Clock } from '../util/clock.js';
import type { CandidateLookup } from './ports.js';

// What the page judge (judge.ts) takes and gives: its pages, verdicts, dependencies, options and
// counts.

// The page, its judgment and verdict are the crawl loop's types (its PageChecks port).
export type { JudgedPage, Judgment, Verdict } from '../pipeline/ports.js';

/** The part of the soft-404 prober the judge feeds (src/soft404/prober.ts). */
export interface PageWatcher {
  /**
   * A 200 HTML page of a host, with the host's profile as known now (null: it has none; undefined:
   * not looked up yet).
   */
  page(
    host: string,
    url: string,
    fp: PageFingerprint | undefined,
    profile: HostProfile | null | undefined,
  ): void;
}

/** The profiles the judge reads and fills (src/soft404/host-profiles.ts). */
export interface ProfileCache {
  get(host: string): HostProfile | null | undefined;
  set(host: string, profile: HostProfile | null): void;
}

export interface JudgeLog {
  warn(obj: object, msg: string): void;
}

export interface JudgeDeps {
  readonly lookup: CandidateLookup;
  readonly profiles: ProfileCache;
  /** The page's content document id (its same-domain canonical's, see content-doc.ts). */
  readonly contentId: (url: string, metadata: Metadata) => string;
  /** The near-duplicates of this page must be judged again (it changed away). */
  readonly releaseDuplicates: (url: string) => void;
  /** A page whose content document was deleted lately: never a canonical, whatever searches say. */
  readonly isGone?: (url: string) => boolean;
  /** False for a page the indexer leaves out (`indexer.md.filter`): it is no one's canonical. */
  readonly indexable?: (metadata: Metadata) => boolean;
  /** A soft 404's content document (from when it was a page) goes. */
  readonly deleteContent: (url: string) => void;
  readonly watcher?: PageWatcher;
  readonly clock: Clock;
  readonly log: JudgeLog;
}

export interface JudgeOptions {
  readonly mode: 'skip' | 'flag' | 'off';
  readonly soft404: boolean;
  /** Metadata keys of the response validators, removed from a soft 404 (no conditional GET). */
  readonly validators: readonly string[];
  /** Pages per lookup at most. */
  readonly maxBatch: number;
  /** How long a page waits for others to share its lookup (from when it came, unless one runs), ms. */
  readonly lingerMs: number;
  /** Pages held (waiting or being looked up) at most; `room` waits beyond. */
  readonly maxHeld: number;
  /** dedup.duplicate.similarity: the exact Jaccard from which a page is a duplicate (decide.ts). */
  readonly duplicateSimilarity?: number;
  /** indexer.text.maxlength: the page's text is compared as the content index will hold it (-1: whole). */
  readonly textMaxLength?: number;
}

/** Counts for the summary and the benchmark. */
export interface JudgeStats {
  lookups: number;
  pagesLookedUp: number;
  lookupFailures: number;
  /** Candidate documents the lookups brought back (hits of the content search), all groups. */
  candidatesRead: number;
  duplicates: number;
  /** Pages indexed with `similar.to` (exact Jaccard from 0.6 to the duplicate threshold). */
  similar: number;
  soft404: number;
  released: number;
  /** Lookups of candidates' texts (one per group that had a candidate past the estimates). */
  textLookups: number;
  /** Candidates' texts read from the index. */
  textsRead: number;
  /** Texts cut into shingles for the exact check (pages and candidates). */
  shingled: number;
}

export function newJudgeStats(): JudgeStats {
  return {
    lookups: 0,
    pagesLookedUp: 0,
    lookupFailures: 0,
    candidatesRead: 0,
    duplicates: 0,
    similar: 0,
    soft404: 0,
    released: 0,
    textLookups: 0,
    textsRead: 0,
    shingled: 0,
  };
}
