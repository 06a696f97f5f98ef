import type { FetcherSink } from '../fetch/fetcher-ports.js';
import type { StatusOutcome } from '../fetch/outcomes.js';
import { MD } from '../model/keys.js';
import { clearMarks, markSoft404 } from '../model/verdict-marks.js';
import { originOf } from './host-profiles.js';
import type { Prober } from './prober.js';
import type { HostProfile } from './profile.js';
import { soft404Redirect } from './profile.js';

export interface RouterDeps {
  /** Null when soft-404 detection is off: probes then never exist. */
  readonly prober: Prober | null;
  readonly profiles: { get(host: string): HostProfile | null | undefined };
  /** Metadata keys of the response validators, removed from a soft 404. */
  readonly validators: readonly string[];
}

/**
 * The fetcher's sink with soft-404 and near-duplicate bookkeeping in front of the crawl's own:
 * - the answers of probes (their typed `probe` field) go to the prober, never to the status index,
 *   and a probe's redirect target is not discovered;
 * - a redirect to the place the host's probes were redirected to is a soft 404: FETCH_ERROR with
 *   error.cause soft404, and its target is not followed;
 * - an answer that is not a page any more (404, 5xx, redirect, no answer) loses the marks of a
 *   near-duplicate or a soft 404 it had (a 304 keeps them: the page is the same).
 */
export function routeFetchSink(sink: FetcherSink, deps: RouterDeps): FetcherSink {
  const redirectWhy = (url: string, target: string | undefined) => {
    const host = originOf(url);
    return host === undefined ? undefined : soft404Redirect(deps.profiles.get(host), url, target);
  };
  return {
    status(o: StatusOutcome) {
      const md = o.metadata;
      if (o.probe) {
        deps.prober?.answered(o.url, o.status, md, o.deferral);
        return;
      }
      if (o.deferral !== undefined || o.status === 'FETCHED') return sink.status(o);
      const copy = md.copy();
      clearMarks(copy);
      if (o.status === 'REDIRECTION' && deps.prober) {
        const target = md.getFirstValue(MD.redirTo);
        const why = redirectWhy(o.url, target);
        if (why !== undefined) {
          markSoft404(copy, why, deps.validators);
          copy.remove(MD.redirTo);
          return sink.status({ ...o, status: 'FETCH_ERROR', metadata: copy });
        }
        const host = originOf(o.url);
        if (host !== undefined && target !== undefined) deps.prober.redirect(host, o.url, target);
      }
      return sink.status({ ...o, metadata: copy });
    },
    fetched(o) {
      if (o.probe) return deps.prober?.fetched(o.url, o.metadata, o.content);
      return sink.fetched(o);
    },
    discovered(source, target, found) {
      // A probe's redirect target, or a soft 404's, is not a link to follow; sitemaps still are.
      if (!found?.sitemap && (source.probe || (deps.prober && redirectWhy(source.url, target)))) return;
      sink.discovered(source, target, found);
    },
  };
}
