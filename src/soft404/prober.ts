import type { FetchItem } from '../fetch/ports.js';
import { type PageFingerprint, readFingerprint } from '../fingerprint/page.js';
import { MD } from '../model/keys.js';
import { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';
import type { Deferral } from '../model/status-updater.js';
import type { ParseInput, ParseResult } from '../parse/types.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { originOf } from './host-profiles.js';
import { chooseProbes } from './probe-urls.js';
import {
  type HostProfile,
  type ProbeAnswer,
  profileOf,
  reprobeAt,
  soft404Page,
  soft404Redirect,
} from './profile.js';

export interface ProberDeps {
  readonly profiles: {
    get(host: string): HostProfile | null | undefined;
    set(host: string, profile: HostProfile | null): void;
  };
  /** The host's stored profile (hosts index), or null. */
  readonly loadProfile: (host: string) => Promise<HostProfile | null>;
  readonly saveProfile: (host: string, profile: HostProfile) => Promise<void>;
  /** Parses a probe's 200 answer (for its fingerprint). */
  readonly parse: (page: ParseInput) => ParseResult | Promise<ParseResult>;
  /** A page fetched before the probes answered that turns out to look like a soft 404: due now. */
  readonly makeDue: (url: string) => void;
  readonly clock: Clock;
  readonly log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface ProberOptions {
  /** soft404.probe.after */
  readonly after: number;
  /** soft404.probe.interval, ms */
  readonly intervalMs: number;
  /** Hosts tracked at most (the least recently seen are forgotten). */
  readonly maxHosts?: number;
}

interface Early {
  readonly url: string;
  readonly fp?: PageFingerprint;
  readonly target?: string;
}

interface HostState {
  count: number;
  /** A few URLs of the host, for the probes' parent paths. */
  readonly seen: string[];
  /** Pages and redirects judged before the probes answered, to judge again once they did. */
  readonly early: Early[];
  busy: boolean;
  probes?: { readonly urls: readonly string[]; readonly answers: Map<string, ProbeAnswer> };
}

/** Pages and redirects of a host remembered until its probes answer (memory: hosts x this). */
const EARLY_MAX = 20;

export interface ProberStats {
  probes: number;
  hostsProbed: number;
  soft404Hosts: number;
}

/**
 * Soft-404 probes: once a host answered 200 to `after` HTML pages and its profile is missing or
 * older than the interval, two URLs of it that cannot exist are fetched (probe-urls.ts) through the
 * fetcher like any URL, so through the host's politeness queue (first in line) and its robots.txt,
 * never written to the status index. Their answers make the host's profile (profile.ts), kept here
 * and in the hosts index. Pages of the host judged before that and looking like its "not found"
 * answer are made due again, to be judged with it.
 */
export class Prober {
  readonly stats: ProberStats = { probes: 0, hostsProbed: 0, soft404Hosts: 0 };
  private readonly hosts = new Map<string, HostState>();
  private submitFn: ((item: FetchItem) => Promise<void>) | undefined;
  private pending = 0;
  private stopped = false;

  constructor(
    private readonly deps: ProberDeps,
    private readonly options: ProberOptions,
  ) {}

  /** Where probes are submitted: the crawl's fetcher, first in its host's queue. */
  attach(submit: (item: FetchItem) => Promise<void>): void {
    this.submitFn = submit;
  }

  /** Sends no more probes (shutdown); the ones in flight still answer. */
  stop(): void {
    this.stopped = true;
  }

  /** Probes in flight, profiles being loaded or stored. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** A 200 HTML page of a host (from the judge), with its profile as known now. */
  page(
    host: string,
    url: string,
    fp: PageFingerprint | undefined,
    profile: HostProfile | null | undefined,
  ): void {
    if (this.fresh(profile)) return;
    const st = this.state(host);
    if (st.early.length < EARLY_MAX) st.early.push({ url, ...(fp ? { fp } : {}) });
    if (st.busy) return;
    st.count++;
    if (st.seen.length < 8 && !st.seen.includes(url)) st.seen.push(url);
    if (st.count >= this.options.after) void this.begin(host, st, profile);
  }

  /** A redirect of a host (from the fetch sink), kept to be judged again once the probes answer. */
  redirect(host: string, url: string, target: string): void {
    const st = this.hosts.get(host);
    if (st && st.early.length < EARLY_MAX) st.early.push({ url, target });
  }

  /** A probe's answer that is not a 200 page (the fetch sink routes it here). */
  answered(url: string, status: Status, md: Metadata, deferral?: Deferral): void {
    const code = Number(md.getFirstValue(MD.fetchStatusCode));
    let answer: ProbeAnswer;
    const target = md.getFirstValue(MD.redirTo);
    if (deferral !== undefined) answer = { probe: url, kind: 'other', detail: `deferred: ${deferral.cause}` };
    else if (status === 'REDIRECTION' && target)
      answer = { probe: url, kind: 'redirect', status: code, target };
    else if (code === 404 || code === 410) answer = { probe: url, kind: 'notFound', status: code };
    else {
      const why = md.getFirstValue(MD.errorCause) ?? md.getFirstValue(MD.fetchException);
      answer = { probe: url, kind: 'other', detail: why ?? (code ? `HTTP ${code}` : status) };
    }
    this.record(url, answer);
  }

  /** A probe answered 200: its page's fingerprint is the host's "not found" page. */
  async fetched(url: string, metadata: Metadata, content: Buffer): Promise<void> {
    let answer: ProbeAnswer;
    try {
      const result = await this.deps.parse({ url, metadata, content });
      const fp = result.kind === 'parsed' ? readFingerprint(result.metadata) : undefined;
      answer = fp
        ? { probe: url, kind: 'page', fingerprint: { kind: fp.kind, hash: fp.urlBlind, tokens: fp.tokens } }
        : { probe: url, kind: 'other', detail: `200 without a fingerprint (${result.kind})` };
    } catch (e) {
      answer = { probe: url, kind: 'other', detail: `parse failed: ${errorMessage(e)}` };
    }
    this.record(url, answer);
  }

  private fresh(profile: HostProfile | null | undefined): boolean {
    return !!profile && reprobeAt(profile, this.options.intervalMs) > this.deps.clock.now();
  }

  private state(host: string): HostState {
    let st = this.hosts.get(host);
    if (st) {
      this.hosts.delete(host);
      this.hosts.set(host, st);
      return st;
    }
    st = { count: 0, seen: [], early: [], busy: false };
    this.hosts.set(host, st);
    const max = this.options.maxHosts ?? 10_000;
    if (this.hosts.size > max) {
      // The least recently seen host that is not being probed.
      for (const [h, s] of this.hosts) {
        if (s.busy) continue;
        this.hosts.delete(h);
        break;
      }
    }
    return st;
  }

  private async begin(host: string, st: HostState, known: HostProfile | null | undefined): Promise<void> {
    if (this.stopped || !this.submitFn) return;
    st.busy = true;
    this.pending++;
    try {
      let profile = known;
      if (profile === undefined) {
        profile = await this.deps.loadProfile(host).catch(() => null);
        this.deps.profiles.set(host, profile);
      }
      if (this.fresh(profile) || this.stopped) {
        this.hosts.delete(host);
        return;
      }
      const urls = chooseProbes(st.seen);
      if (urls.length === 0) {
        this.hosts.delete(host);
        return;
      }
      st.probes = { urls, answers: new Map() };
      this.stats.probes += urls.length;
      this.pending += urls.length;
      const submit = this.submitFn;
      for (const url of urls) {
        const item = { url, metadata: new Metadata(), probe: true as const };
        submit(item).catch((e: unknown) =>
          this.record(url, { probe: url, kind: 'other', detail: `not submitted: ${errorMessage(e)}` }),
        );
      }
    } finally {
      this.pending--;
    }
  }

  private record(url: string, answer: ProbeAnswer): void {
    const host = originOf(url);
    const st = host === undefined ? undefined : this.hosts.get(host);
    if (!st?.probes?.urls.includes(url) || st.probes.answers.has(url)) return;
    st.probes.answers.set(url, answer);
    this.pending--;
    if (st.probes.answers.size === st.probes.urls.length) void this.finish(host!, st);
  }

  private async finish(host: string, st: HostState): Promise<void> {
    const answers = st.probes!.urls.map((u) => st.probes!.answers.get(u)!);
    const profile = profileOf(answers, this.deps.clock.now());
    this.deps.profiles.set(host, profile);
    this.hosts.delete(host);
    this.stats.hostsProbed++;
    if (profile.verdict === 'page' || profile.verdict === 'redirect') {
      this.stats.soft404Hosts++;
      let again = 0;
      for (const e of st.early) {
        const suspect = e.target
          ? soft404Redirect(profile, e.url, e.target)
          : soft404Page(profile, e.url, e.fp);
        if (suspect !== undefined) {
          this.deps.makeDue(e.url);
          again++;
        }
      }
      this.deps.log.info(
        { host, verdict: profile.verdict, again, probes: answers.map((a) => a.probe) },
        `${host} answers ${profile.verdict === 'page' ? '200' : 'with the same redirect'} for URLs that cannot exist: its pages that look the same are soft 404s`,
      );
    }
    this.pending++;
    try {
      await this.deps.saveProfile(host, profile);
    } catch (e) {
      this.deps.log.warn(
        { host, err: errorMessage(e) },
        'could not store the soft-404 profile of a host; it is probed again',
      );
    } finally {
      this.pending--;
    }
  }
}
