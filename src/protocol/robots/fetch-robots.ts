import { parseCacheSpec } from '../../model/cache-spec.js';
import { MD } from '../../model/keys.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { raceAbort } from '../abort.js';
import { FetchException, UNREACHABLE_KINDS } from '../http/errors.js';
import type { ProtocolSettings } from '../settings.js';
import { type MetadataView, metadataOf, type Protocol, type ProtocolResponse } from '../types.js';
import { TtlCache } from './cache.js';
import { RobotRules, robotsAgents } from './rules.js';

export type RobotsSettings = Pick<
  ProtocolSettings,
  | 'http.agent.name'
  | 'http.robots.agents'
  | 'http.robots.403.allow'
  | 'http.robots.5xx.allow'
  | 'http.robots.file.skip'
  | 'http.robots.content.limit'
  | 'robots.cache.spec'
  | 'robots.error.cache.spec'
>;

/**
 * robots.txt could not be read: a 429 or 5xx answer, or no answer. Its rules disallow everything for
 * now (RFC 9309: unreachable means complete disallow), which is not a verdict on the URLs: they are
 * to be tried again later, not refused for good.
 */
export interface RobotsUnavailable {
  /** `HTTP <code>`, or the `fetch.exception` of a fetch that got no answer. */
  readonly reason: string;
  /**
   * No answer at all (refused, unknown host, TLS, timeout, reset): not cached, since the host is in
   * trouble and the fetcher's host health decides when it is asked again.
   */
  readonly unreachable: boolean;
  /** When the cached verdict expires and robots.txt is asked again; undefined when not cached. */
  readonly retryAt?: number;
}

/** What a lookup returns. */
export interface RobotsLookup {
  readonly rules: RobotRules;
  /** Set when robots.txt could not be read; `rules` then forbid everything for now. */
  readonly unavailable?: RobotsUnavailable;
  /**
   * True only for the one call that fetched robots.txt; false when the rules came from a cache or
   * from another call's fetch in flight. The fetcher runs sitemap discovery when it is true, so it
   * happens once per host and cache lifetime.
   */
  readonly fresh: boolean;
}

/** Redirect codes followed for robots.txt (RFC 9309 §2.3.1.2). */
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);
/** Redirects followed at most; RFC 9309 asks for at least five. */
export const MAX_ROBOTS_REDIRECTS = 5;

/** `scheme:host:port` with the default port filled in: one robots.txt per key (StormCrawler's key). */
export function robotsCacheKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol.slice(0, -1)}:${url.hostname}:${port}`;
}

/** A verdict as the caches hold it. */
interface Cached {
  readonly rules: RobotRules;
  /** Kept in the error cache (1 h) instead of the success cache (6 h). */
  readonly error: boolean;
  /** robots.txt could not be read (see RobotsUnavailable): why. */
  readonly unavailable?: string;
  /** ... because no answer came at all: such a verdict is not cached. */
  readonly unreachable?: boolean;
}

/**
 * The rules a final status code stands for (StormCrawler's HttpRobotRulesParser), and whether they
 * go to the error cache (1 h) instead of the success cache (6 h). 200 is parsed by the caller. A 429
 * or 5xx forbids everything for now: robots.txt is unavailable, which the fetcher does not hold
 * against the URLs (they are deferred until the entry expires).
 */
export function rulesForStatus(
  status: number,
  s: Pick<RobotsSettings, 'http.robots.403.allow' | 'http.robots.5xx.allow'>,
): Cached {
  if (status === 403)
    return { rules: s['http.robots.403.allow'] ? RobotRules.ALLOW_ALL : RobotRules.FORBID_ALL, error: false };
  const unavailable = { rules: RobotRules.FORBID_ALL, error: true, unavailable: `HTTP ${status}` };
  if (status === 429) return unavailable;
  if (status >= 500 && status <= 599) {
    return s['http.robots.5xx.allow'] ? { rules: RobotRules.ALLOW_ALL, error: true } : unavailable;
  }
  return { rules: RobotRules.ALLOW_ALL, error: false };
}

/**
 * robots.txt for every host: fetched through the HttpProtocol (so the address filter, timeout and
 * user agent apply), cached per scheme:host:port, one fetch per host at a time.
 *
 * Lifecycle: one per process, shared by all fetch workers; `rulesFor` may be called concurrently
 * for any URL. Caches live as long as the instance (6 h success, 1 h errors by default).
 */
export class RobotsService {
  readonly agents: readonly string[];
  private readonly protocol: Pick<Protocol, 'fetch'>;
  private readonly success: TtlCache<RobotRules>;
  private readonly errors: TtlCache<Cached>;
  private readonly inFlight = new Map<string, Promise<Cached>>();
  private readonly md: MetadataView;
  private fetches = 0;

  constructor(
    private readonly s: RobotsSettings,
    deps: { readonly protocol: Pick<Protocol, 'fetch'>; readonly clock?: Clock },
  ) {
    this.agents = robotsAgents(s);
    this.protocol = deps.protocol;
    const clock = deps.clock ?? systemClock;
    this.success = new TtlCache(parseCacheSpec(s['robots.cache.spec'], 'robots.cache.spec'), clock);
    this.errors = new TtlCache(
      parseCacheSpec(s['robots.error.cache.spec'], 'robots.error.cache.spec'),
      clock,
    );
    const limit = s['http.robots.content.limit'];
    // -1 leaves http.content.limit in charge, as StormCrawler does.
    this.md = metadataOf(limit === -1 ? {} : { [MD.httpContentLimit]: String(limit) });
  }

  /**
   * The rules for `url`'s host. Never rejects for network or HTTP trouble (those become allow
   * rules, or forbid-for-now rules with `unavailable`, as RFC 9309 says) nor for a URL that does not
   * parse (allow-all, since fetching it fails anyway); rejects only when `signal` aborts.
   */
  async rulesFor(url: string | URL, signal?: AbortSignal): Promise<RobotsLookup> {
    if (this.s['http.robots.file.skip']) return { rules: RobotRules.ALLOW_ALL, fresh: false };
    const u = typeof url === 'string' ? URL.parse(url) : url;
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
      return { rules: RobotRules.ALLOW_ALL, fresh: false };
    const key = robotsCacheKey(u);
    const hit = this.cached(key);
    if (hit) return this.lookup(key, hit, false);
    const pending = this.inFlight.get(key);
    if (pending) return this.lookup(key, await raceAbort(pending, signal), false);
    const fetching = this.fetchRules(new URL('/robots.txt', u.origin), key).finally(() =>
      this.inFlight.delete(key),
    );
    this.inFlight.set(key, fetching);
    return this.lookup(key, await raceAbort(fetching, signal), true);
  }

  private lookup(key: string, c: Cached, fresh: boolean): RobotsLookup {
    if (c.unavailable === undefined) return { rules: c.rules, fresh };
    const unreachable = c.unreachable === true;
    const retryAt = unreachable ? undefined : this.errors.expiresAt(key);
    return {
      rules: c.rules,
      fresh,
      unavailable: { reason: c.unavailable, unreachable, ...(retryAt !== undefined ? { retryAt } : {}) },
    };
  }

  /** robots.txt requests sent so far (redirect hops included), hosts being fetched, cache sizes. */
  stats(): { fetches: number; inFlight: number; cached: number; errorCached: number } {
    return {
      fetches: this.fetches,
      inFlight: this.inFlight.size,
      cached: this.success.size,
      errorCached: this.errors.size,
    };
  }

  // The error cache is checked first: a host in trouble is not served older success rules.
  private cached(key: string): Cached | undefined {
    const failed = this.errors.get(key);
    if (failed) return failed;
    const rules = this.success.get(key);
    return rules ? { rules, error: false } : undefined;
  }

  private store(keys: readonly string[], c: Cached): Cached {
    if (c.unreachable) return c;
    for (const key of keys) {
      if (c.error) this.errors.set(key, c);
      else this.success.set(key, c.rules);
    }
    return c;
  }

  private async fetchRules(first: URL, key: string): Promise<Cached> {
    const keys = [key];
    let current = first;
    for (let redirects = 0; ; redirects++) {
      let res: ProtocolResponse;
      try {
        this.fetches++;
        res = await this.protocol.fetch(current.href, this.md);
      } catch (e) {
        if (!(e instanceof FetchException)) throw e;
        // Our own address filter: the page is refused the same way, with a cause of its own.
        if (e.kind === 'blockedAddress')
          return this.store(keys, { rules: RobotRules.ALLOW_ALL, error: true });
        // Unreachable means "disallow for now" (StormCrawler allows everything, cached 1 h).
        return this.store(keys, {
          rules: RobotRules.FORBID_ALL,
          error: true,
          unavailable: e.fetchException,
          unreachable: e.kind !== undefined && UNREACHABLE_KINDS.has(e.kind),
        });
      }
      const next =
        REDIRECT_CODES.has(res.statusCode) && redirects < MAX_ROBOTS_REDIRECTS
          ? target(res, current)
          : undefined;
      if (!next) return this.store(keys, this.outcome(res, current));
      if (next.pathname === '/robots.txt' && next.search === '') {
        // Another origin's robots.txt: its rules are those of this host too, in both directions.
        const nextKey = robotsCacheKey(next);
        if (!keys.includes(nextKey)) {
          const hit = this.cached(nextKey);
          if (hit) return this.store(keys, hit);
          keys.push(nextKey);
        }
      }
      current = next;
    }
  }

  private outcome(res: ProtocolResponse, url: URL): Cached {
    if (res.statusCode !== 200) return rulesForStatus(res.statusCode, this.s);
    // A cut body may end in half a rule, which could forbid more than the whole rule says.
    const content = res.trimmed ? res.content.subarray(0, res.content.lastIndexOf(0x0a) + 1) : res.content;
    return { rules: RobotRules.parse(content, this.agents, url.href), error: false };
  }
}

function target(res: ProtocolResponse, from: URL): URL | undefined {
  const location = res.headers.location?.[0]?.trim();
  if (!location) return undefined;
  try {
    const next = new URL(location, from);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : undefined;
  } catch {
    return undefined;
  }
}
