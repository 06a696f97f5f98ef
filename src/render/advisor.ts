import type { Clock } from '../util/clock.js';
import type { Comparison } from './compare.js';
import { scriptSignal } from './detect.js';

/** `candidate`: signs seen, samples being taken; `render` / `static`: decided. */
export type HostDecision = 'candidate' | 'render' | 'static';

/** A host's rendering facts as kept in the hosts index (under `render`). Times are epoch ms. */
export interface HostRenderRecord {
  decision: HostDecision;
  /** The sign that made the host a candidate (detect.ts). */
  signal: string;
  /** Samples compared so far in this round, how many of them gained, renders that failed. */
  samples: number;
  gains: number;
  failures: number;
  /** Sums over this round's samples: text characters as fetched and as rendered, new links. */
  textPlain: number;
  textRendered: number;
  newLinks: number;
  /** Why the decision is what it is, for the operator. */
  reason: string;
  /** When this round of samples began. */
  since: number;
  decidedAt?: number;
  /** When the decision is checked again; absent while a round is under way. */
  recheckAt?: number;
  updatedAt: number;
}

/**
 * Where decisions are kept (src/opensearch/render-decisions.ts). `load` never rejects (a failed read
 * is no record); `save` is fire-and-forget, in order per host, and reports its own failures.
 */
export interface DecisionStore {
  load(host: string): Promise<HostRenderRecord | undefined>;
  save(host: string, record: HostRenderRecord): void;
  /** Resolves once every save asked for so far is done (or failed); called when the crawl ends. */
  flush?(): Promise<void>;
}

/** What to do with one page: leave it, render it, or render it as a sample and compare. */
export type Verdict = 'plain' | 'render' | 'sample';

export interface AdvisorOptions {
  /** render.adaptive.samples */
  readonly samples: number;
  /** render.adaptive.scan.pages */
  readonly scanPages: number;
  /** render.adaptive.recheck, ms */
  readonly recheckMs: number;
  /** Hosts remembered in memory at most (the least recently seen are forgotten). */
  readonly maxHosts?: number;
}

interface HostState {
  record?: HostRenderRecord;
  /** The stored record was read (or there was none). */
  loaded: boolean;
  loading?: Promise<void>;
  /** Pages scanned without a sign, and until when no more are scanned. */
  scanned: number;
  scanUntil: number;
  /** Samples being rendered now. */
  sampling: number;
}

/** Failed renders of one round after which the host is left plain until its recheck. */
const FAILURES_PER_SAMPLE = 3;

/**
 * The adaptive choice, per host. Its pages are scanned for signs of being built by scripts (the
 * first render.adaptive.scan.pages of each host per process, again after render.adaptive.recheck);
 * the first sign makes the host a candidate: its stored record is read then (so a host without signs
 * costs no OpenSearch request at all), and unless it holds a decision still in force, the next
 * pages of the host are rendered as samples and compared with their HTML until a majority of
 * render.adaptive.samples agrees. The decision is stored and holds until its recheck, when a new
 * round of samples begins (a rendered host keeps being rendered meanwhile).
 *
 * The plain path (a host without signs, or decided static) is synchronous: `verdict` returns a
 * value, never a promise, unless the page shows a sign.
 */
export class RenderAdvisor {
  private readonly hosts = new Map<string, HostState>();
  private readonly maxHosts: number;
  private readonly majority: number;

  constructor(
    private readonly options: AdvisorOptions,
    private readonly store: DecisionStore,
    private readonly clock: Clock,
  ) {
    this.maxHosts = options.maxHosts ?? 50_000;
    this.majority = Math.floor(options.samples / 2) + 1;
  }

  /** The in-memory record of a host (for logs and tests). */
  record(host: string): HostRenderRecord | undefined {
    return this.hosts.get(host)?.record;
  }

  verdict(host: string, html: Buffer): Verdict | Promise<Verdict> {
    const now = this.clock.now();
    let s = this.hosts.get(host);
    if (s?.record && s.loaded) {
      const v = this.byRecord({ host, state: s, record: s.record }, html, now);
      if (v !== undefined) return v;
    }
    if (s && s.scanned >= this.options.scanPages && now < s.scanUntil) return 'plain';
    const signal = scriptSignal(html);
    if (s === undefined) s = this.remember(host);
    if (signal === undefined) {
      if (++s.scanned >= this.options.scanPages) s.scanUntil = now + this.options.recheckMs;
      return 'plain';
    }
    const state = s;
    return this.load(host, state).then(() => this.afterSignal(host, state, signal));
  }

  /**
   * A sample's result: a comparison, or undefined when the render failed or timed out (no evidence
   * either way). Decides once a majority of the samples agrees.
   */
  sampled(host: string, c: Comparison | undefined): void {
    const s = this.hosts.get(host);
    const r = s?.record;
    if (!s || !r) return;
    s.sampling = Math.max(0, s.sampling - 1);
    const now = this.clock.now();
    r.updatedAt = now;
    if (!c) {
      r.failures++;
      if (r.recheckAt === undefined && r.failures >= FAILURES_PER_SAMPLE * this.options.samples) {
        this.decide(r, r.decision === 'render' ? 'render' : 'static', now, `${r.failures} renders failed`);
      }
      this.store.save(host, r);
      return;
    }
    r.samples++;
    if (c.gain) r.gains++;
    r.textPlain += c.textPlain;
    r.textRendered += c.textRendered;
    r.newLinks += c.newLinks;
    if (r.recheckAt === undefined) {
      const losses = r.samples - r.gains;
      const done = r.samples >= this.options.samples;
      if (r.gains >= this.majority || (done && r.gains > losses))
        this.decide(r, 'render', now, `${r.gains} of ${r.samples} samples gained by rendering`);
      else if (losses >= this.majority || done)
        this.decide(r, 'static', now, `${losses} of ${r.samples} samples gained nothing by rendering`);
    }
    this.store.save(host, r);
  }

  private decide(r: HostRenderRecord, d: HostDecision, now: number, reason: string): void {
    r.decision = d;
    r.reason = reason;
    r.decidedAt = now;
    r.recheckAt = now + this.options.recheckMs;
  }

  /** The verdict a stored record gives, or undefined when the page must be scanned first. */
  private byRecord(
    of: { readonly host: string; readonly state: HostState; readonly record: HostRenderRecord },
    html: Buffer,
    now: number,
  ) {
    const { host, state: s, record: r } = of;
    const inRound = r.recheckAt === undefined;
    if (!inRound && now >= r.recheckAt!) {
      // Time to check again: a rendered host is sampled at once (its pages are rendered anyway); a
      // static one when a page shows a sign again.
      if (r.decision === 'static' && scriptSignal(html) === undefined) {
        if (++s.scanned >= this.options.scanPages) {
          s.scanned = 0;
          r.recheckAt = now + this.options.recheckMs;
        }
        return 'plain';
      }
      this.newRound(r, now);
      this.store.save(host, r);
    } else if (!inRound) {
      return r.decision === 'render' ? 'render' : 'plain';
    }
    if (this.claimSample(s, r)) return 'sample';
    return r.decision === 'render' ? 'render' : 'plain';
  }

  private afterSignal(host: string, s: HostState, signal: string): Verdict {
    const now = this.clock.now();
    if (!s.record) {
      s.record = {
        decision: 'candidate',
        signal,
        samples: 0,
        gains: 0,
        failures: 0,
        textPlain: 0,
        textRendered: 0,
        newLinks: 0,
        reason: `its HTML shows ${signal}`,
        since: now,
        updatedAt: now,
      };
      this.store.save(host, s.record);
    }
    const r = s.record;
    if (r.recheckAt !== undefined && now >= r.recheckAt) {
      r.signal = signal;
      this.newRound(r, now);
      this.store.save(host, r);
    }
    if (r.recheckAt === undefined && this.claimSample(s, r)) return 'sample';
    return r.decision === 'render' ? 'render' : 'plain';
  }

  private newRound(r: HostRenderRecord, now: number): void {
    r.samples = 0;
    r.gains = 0;
    r.failures = 0;
    r.textPlain = 0;
    r.textRendered = 0;
    r.newLinks = 0;
    r.since = now;
    r.updatedAt = now;
    r.recheckAt = undefined;
    r.reason = `checking again (decided ${r.decision})`;
  }

  private claimSample(s: HostState, r: HostRenderRecord): boolean {
    if (r.samples + s.sampling >= this.options.samples) return false;
    s.sampling++;
    return true;
  }

  private load(host: string, s: HostState): Promise<void> {
    if (s.loaded) return Promise.resolve();
    s.loading ??= this.store.load(host).then((stored) => {
      s.loaded = true;
      s.loading = undefined;
      // A record made meanwhile in this process is newer than the stored one.
      if (stored && !s.record) s.record = stored;
    });
    return s.loading;
  }

  private remember(host: string): HostState {
    const s: HostState = { loaded: false, scanned: 0, scanUntil: 0, sampling: 0 };
    this.hosts.set(host, s);
    if (this.hosts.size > this.maxHosts) {
      // The oldest host first met is forgotten: it is scanned again when seen again.
      const oldest = this.hosts.keys().next().value!;
      this.hosts.delete(oldest);
    }
    return s;
  }
}
