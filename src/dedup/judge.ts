import { dedupable, type PageFingerprint, readFingerprint } from '../fingerprint/page.js';
import { MD } from '../model/keys.js';
import { originOf } from '../soft404/host-profiles.js';
import type { HostProfile } from '../soft404/profile.js';
import { isRoot, soft404Page } from '../soft404/profile.js';
import { errorMessage } from '../util/errors.js';
import { CandidateSet, RecentCanonicals } from './candidates.js';
import { type Candidate, DUPLICATE_SIMILARITY, decide, nearness } from './decide.js';
import {
  type JudgeDeps,
  type JudgedPage,
  type JudgeOptions,
  type JudgeStats,
  type Judgment,
  newJudgeStats,
  type Verdict,
} from './judge-api.js';
import { pageKeys } from './keys.js';
import { clearMarks, markDecision, markSoft404 } from './marks.js';
import type { LookupRequest, LookupResult } from './ports.js';
import { ExactSimilarity, RecentTexts } from './texts.js';

export type {
  JudgeDeps,
  JudgedPage,
  JudgeLog,
  JudgeOptions,
  JudgeStats,
  Judgment,
  PageWatcher,
  ProfileCache,
  Verdict,
} from './judge-api.js';

const NO_KEYS = { stored: [], memory: [] } as const;

export const DEFAULT_JUDGE_OPTIONS = { maxBatch: 100, lingerMs: 100, maxHeld: 400 } as const;

interface Item {
  readonly page: JudgedPage;
  readonly fp: PageFingerprint | undefined;
  readonly host: string | undefined;
  readonly soft: boolean;
  readonly dedup: boolean;
  readonly selfId: string;
  /** The fingerprint's keys (keys.ts), made once; none unless the page takes part in near-duplicates. */
  readonly keys: { readonly stored: readonly string[]; readonly memory: readonly number[] };
  /** When it was queued (the clock's time). */
  readonly at: number;
  readonly resolve: (v: Verdict) => void;
}

/**
 * Decides what a parsed page is: a soft 404 (it answers like its host's answer to URLs that cannot
 * exist), a near-duplicate of an indexed page, or a page to index (a canonical). Pages that need the
 * index are looked up in groups: one `_msearch` per group (candidates by fingerprint key, the pages'
 * own documents, and the profiles of hosts not known yet), so HTML pages pay one round trip per
 * group, not per page; a group is looked up once it has `maxBatch` pages or its first page has
 * waited `lingerMs`, and never while another lookup runs. Pages decided canonical are remembered
 * (RecentCanonicals) until their documents are surely searchable, so a duplicate fetched right
 * after its canonical is found too.
 *
 * Contract: every page handed to `judge` gets exactly one verdict; a lookup that keeps failing
 * (retried a few times) ends its pages as `index` without near-duplicate marks (nothing is lost, a
 * duplicate is indexed once too many), and is logged.
 */
export class PageJudge {
  readonly stats: JudgeStats = newJudgeStats();
  private queue: Item[] = [];
  private inFlight = false;
  private timer: NodeJS.Timeout | undefined;
  private held = 0;
  private waiters: (() => void)[] = [];
  private readonly recent = new RecentCanonicals();
  private readonly recentTexts = new RecentTexts();
  private lastWarn = 0;

  constructor(
    private readonly deps: JudgeDeps,
    private readonly options: JudgeOptions,
  ) {}

  /** True when the judge does nothing (both features off). */
  get idle(): boolean {
    return this.options.mode === 'off' && !this.options.soft404;
  }

  /** Pages waiting for a verdict. */
  get holding(): number {
    return this.held;
  }

  /** Resolves when the judge holds fewer pages than its limit. */
  room(): Promise<void> {
    if (this.held < this.options.maxHeld) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  judge(page: JudgedPage): Judgment {
    const md = page.metadata;
    const fp = readFingerprint(md);
    const host = originOf(page.url);
    const profile = host === undefined ? null : this.deps.profiles.get(host);
    // The root is never a soft 404; a host known to say "not found" properly has none.
    const soft =
      this.options.soft404 &&
      host !== undefined &&
      !isRoot(page.url) &&
      (profile === undefined || profile?.verdict === 'page');
    const dedup =
      this.options.mode !== 'off' && !page.noIndex && dedupable(fp) && (this.deps.indexable?.(md) ?? true);
    if (host !== undefined && this.options.soft404) this.deps.watcher?.page(host, page.url, fp, profile);
    if (!dedup && !(soft && profile === undefined)) {
      // Decided here and now: no lookup needed.
      const verdict = soft && this.isSoft404(page, fp, profile) ? 'soft404' : clearMarks(md);
      return { linksNow: !soft, verdict };
    }
    this.held++;
    const verdict = new Promise<Verdict>((resolve) => {
      this.queue.push({
        page,
        fp,
        host,
        soft,
        dedup,
        selfId: this.deps.contentId(page.url, md),
        keys: dedup && fp ? pageKeys(fp) : NO_KEYS,
        at: this.deps.clock.now(),
        resolve,
      });
    });
    this.kick();
    return { linksNow: !soft, verdict };
  }

  /** Stops the timer; pages still queued are judged without a lookup. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rest = this.queue.splice(0);
    for (const it of rest) this.settle(it, this.fallback(it));
  }

  /**
   * Starts the group's lookup when it is full, else once its first page has waited `lingerMs`.
   * Pages that came during a lookup wait out the rest of their time too: a lookup costs OpenSearch
   * 1-1.5 ms of CPU whatever its size, so the groups of 14 pages that a lookup's round trip
   * gathered in a crawl of 400 pages/s cost it 0.14-0.18 ms a page, groups of 30 0.10, larger
   * ones no less (0.08-0.15; scripts/bench/lookup-groups.mjs, two runs).
   */
  private kick(): void {
    if (this.inFlight || this.queue.length === 0) return;
    if (this.queue.length >= this.options.maxBatch) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.run();
    } else {
      const wait = Math.max(0, this.queue[0]!.at + this.options.lingerMs - this.deps.clock.now());
      this.timer ??= setTimeout(() => void this.run(), wait);
    }
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    if (this.inFlight || this.queue.length === 0) return;
    this.inFlight = true;
    const batch = this.queue.splice(0, this.options.maxBatch);
    try {
      const result = await this.lookupWithRetries(batch);
      // Once per group: every page of it looks its candidates up in the same set.
      const found = new CandidateSet(result?.candidates.length);
      this.stats.candidatesRead += result?.candidates.length ?? 0;
      for (const c of result?.candidates ?? []) found.add(c);
      const texts = result ? await this.candidateTexts(batch, found) : undefined;
      const exact = new ExactSimilarity((id) => texts?.get(id) ?? this.recentTexts.get(id));
      for (const it of batch) {
        let v: Verdict;
        try {
          v = result ? this.decideItem(it, result, found, exact) : this.fallback(it);
        } catch (e) {
          this.deps.log.warn({ url: it.page.url, err: errorMessage(e) }, 'near-duplicate judgment failed');
          v = this.fallback(it);
        }
        this.settle(it, v);
      }
      this.stats.shingled += exact.shingled;
    } finally {
      this.inFlight = false;
      this.kick();
    }
  }

  private settle(it: Item, v: Verdict): void {
    this.held--;
    it.resolve(v);
    while (this.waiters.length > 0 && this.held < this.options.maxHeld) this.waiters.shift()!();
  }

  private async lookupWithRetries(batch: readonly Item[]): Promise<LookupResult | undefined> {
    const keys = new Set<string>();
    const exact = new Set<string>();
    const ids = new Set<string>();
    const hosts = new Set<string>();
    for (const it of batch) {
      if (it.dedup && it.fp) {
        if (it.fp.kind === 'simhash') for (const k of it.keys.stored) keys.add(k);
        else exact.add(it.fp.hash);
        ids.add(it.selfId);
      }
      if (it.soft && it.host !== undefined && this.deps.profiles.get(it.host) === undefined)
        hosts.add(it.host);
    }
    const request: LookupRequest = { keys: [...keys], exact: [...exact], ids: [...ids], hosts: [...hosts] };
    this.stats.lookups++;
    this.stats.pagesLookedUp += batch.length;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.lookup.lookup(request);
      } catch (e) {
        if (attempt >= 4) {
          this.stats.lookupFailures++;
          const now = this.deps.clock.now();
          if (now - this.lastWarn > 60_000) {
            this.lastWarn = now;
            this.deps.log.warn(
              { pages: batch.length, err: errorMessage(e) },
              'near-duplicate lookup failed; these pages are indexed without the check (logged once a minute)',
            );
          }
          return undefined;
        }
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }

  /**
   * The texts of the candidates found in the index that pass the estimates for some page of the
   * group (and are not in this process's recent texts): one request for the group, none when no
   * candidate passed, which is most groups. A failure leaves those pages undecided (indexed).
   */
  private async candidateTexts(
    batch: readonly Item[],
    found: CandidateSet,
  ): Promise<ReadonlyMap<string, string> | undefined> {
    const need = new Set<string>();
    for (const it of batch) {
      const fp = it.fp;
      if (!it.dedup || fp?.kind !== 'simhash' || it.page.text === undefined) continue;
      for (const c of found.find(it.keys.memory)) {
        if (c.duplicateOf !== undefined || c.id === it.selfId || c.url === it.page.url) continue;
        if (this.recentTexts.get(c.id) === undefined && nearness(fp, c) !== undefined) need.add(c.id);
      }
    }
    if (need.size === 0) return undefined;
    this.stats.textLookups++;
    try {
      const texts = await this.deps.lookup.texts([...need]);
      this.stats.textsRead += texts.size;
      return texts;
    } catch (e) {
      this.stats.lookupFailures++;
      this.deps.log.warn(
        { pages: batch.length, err: errorMessage(e) },
        "near-duplicate candidates' texts could not be read; their pages are indexed",
      );
      return undefined;
    }
  }

  /** The page's text as the content index will hold it. */
  private storedText(text: string): string {
    const t = text.trim();
    const max = this.options.textMaxLength ?? -1;
    return max >= 0 ? t.slice(0, max) : t;
  }

  private decideItem(it: Item, result: LookupResult, found: CandidateSet, exact: ExactSimilarity): Verdict {
    const { page, fp, host } = it;
    let profile: HostProfile | null | undefined;
    // Only a page that may be a soft 404 reads its profile (a group's other pages of its host, if
    // any, asked for it themselves).
    if (it.soft && host !== undefined) {
      profile = this.deps.profiles.get(host);
      if (profile === undefined && result.profiles.has(host)) {
        profile = result.profiles.get(host) ?? null;
        this.deps.profiles.set(host, profile);
      }
    }
    if (it.soft && this.isSoft404(page, fp, profile)) return 'soft404';
    page.metadata.remove(MD.soft404Evidence);
    if (!it.dedup || !fp) return clearMarks(page.metadata);

    const self = found.byDocument(it.selfId);
    // A canonical whose text changed away: its near-duplicates no longer duplicate it.
    if (self && self.duplicateOf === undefined && nearness(fp, self) === undefined) {
      this.deps.releaseDuplicates(page.url);
      this.stats.released++;
    }
    const now = this.deps.clock.now();
    const gone = this.deps.isGone;
    const near = this.recent.find(it.keys.memory, now, found.find(it.keys.memory));
    const candidates = gone ? near.filter((c) => !gone(c.url)) : near;
    const text = page.text === undefined ? undefined : this.storedText(page.text);
    const mineText: { readonly text: string; shingles?: Int32Array } | undefined =
      text === undefined ? undefined : { text };
    const d = decide(
      { url: page.url, selfId: it.selfId, fp },
      candidates,
      (c) => (mineText ? exact.between(mineText, c.id) : undefined),
      this.options.duplicateSimilarity ?? DUPLICATE_SIMILARITY,
    );
    markDecision(page.metadata, d);
    if (d.kind === 'duplicate') {
      this.recent.forget(it.selfId);
      this.recentTexts.delete(it.selfId);
      this.stats.duplicates++;
      return 'index';
    }
    if (d.kind === 'similar') this.stats.similar++;
    if (text !== undefined && fp.kind === 'simhash') this.recentTexts.set(it.selfId, text);
    const mine: Candidate = {
      id: it.selfId,
      url: page.url,
      kind: fp.kind,
      hash: fp.hash,
      tokens: fp.tokens,
      ...(fp.minhash ? { minhash: fp.minhash } : {}),
      ...(fp.body ? { bodyMinhash: fp.body.minhash, bodyTokens: fp.body.tokens } : {}),
    };
    this.recent.add(mine, now, it.keys.memory);
    return 'index';
  }

  private isSoft404(
    page: JudgedPage,
    fp: PageFingerprint | undefined,
    profile: HostProfile | null | undefined,
  ) {
    const why = soft404Page(profile, page.url, fp);
    if (why === undefined) return false;
    markSoft404(page.metadata, why, this.options.validators);
    this.deps.deleteContent(page.url);
    this.stats.soft404++;
    return true;
  }

  /** Without a lookup: indexed, no near-duplicate marks, not a soft 404 unless known to be. */
  private fallback(it: Item): Verdict {
    const profile = it.host === undefined ? undefined : this.deps.profiles.get(it.host);
    if (it.soft && this.isSoft404(it.page, it.fp, profile)) return 'soft404';
    return clearMarks(it.page.metadata);
  }
}
