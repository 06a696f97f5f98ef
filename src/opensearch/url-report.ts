import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config/schema.js';
import { ERROR_CAUSE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { HostRenderRecord } from '../render/advisor.js';
import { originOf } from '../soft404/host-profiles.js';
import { DedupIndex } from './dedup-index.js';
import { hostRenderRecord } from './render-decisions.js';
import { documentId, fromStatusSource, partitionKey, type StoredStatus } from './status-doc.js';

/** The keys a URL's report reads: the indices' names, the partition, the failure and dedup rules. */
export type UrlReportConfig = Pick<
  Config,
  | 'opensearch.status.index.name'
  | 'opensearch.indexer.index.name'
  | 'opensearch.hosts.index.name'
  | 'status.transitions.index.name'
  | 'partition.url.mode'
  | 'max.fetch.errors'
  | 'dedup.mode'
>;

function when(ms: number, now: number): string {
  const d = Math.round((ms - now) / 60_000);
  if (d <= 0) return `due now (since ${new Date(ms).toISOString()})`;
  return `due in ${d >= 180 ? `${Math.round(d / 60)} h` : `${d} min`} (${new Date(ms).toISOString()})`;
}

/**
 * Why a FETCH_ERROR or ERROR failed, in words: its cause (the setting that refused it, when one
 * did), the HTTP status of its last fetch or why there was no answer, the stage that ended it and
 * how many fetch errors in a row it had. Undefined for any other status.
 */
export function explainFailure(
  status: string | undefined,
  md: Metadata,
  maxFetchErrors: number,
): string | undefined {
  if (status !== 'FETCH_ERROR' && status !== 'ERROR') return undefined;
  const cause = md.getFirstValue(MD.errorCause);
  const code = md.getFirstValue(MD.fetchStatusCode);
  const exception = md.getFirstValue(MD.fetchException);
  const source = md.getFirstValue(MD.errorSource);
  const parts: string[] = [];
  if (cause === ERROR_CAUSE.nonHtmlContent) {
    const type = md.getFirstValue(MD.contentType) ?? 'unknown';
    parts.push(
      `content type ${type} refused: neither HTML, text nor a document Tika reads, and jsoup.treat.non.html.as.error is true`,
    );
  } else if (cause === ERROR_CAUSE.blockedAddress) {
    parts.push(
      'its address is refused by http.filter.ipaddress.exclude; allow it with http.filter.ipaddress.allow and give it as --seed again to fetch it',
    );
  } else if (cause === ERROR_CAUSE.maxFetchErrors) {
    parts.push(`${maxFetchErrors} fetch errors in a row (max.fetch.errors)`);
  } else if (cause) parts.push(`error.cause ${cause}`);
  if (code !== undefined) parts.push(`last fetch answered HTTP ${code}`);
  else if (exception !== undefined) parts.push(`last fetch got no answer: ${exception}`);
  if (source !== undefined) parts.push(`ended by ${source}`);
  const count = md.getFirstValue(MD.fetchErrorCount);
  if (status === 'FETCH_ERROR' && count !== undefined)
    parts.push(`fetch error ${count} in a row; ERROR at ${maxFetchErrors} (max.fetch.errors)`);
  return parts.length > 0 ? parts.join('; ') : 'no cause recorded';
}

/**
 * What the indices say about one URL (`crawler url`, the console's "explain one URL"): its status
 * document, when it is due and why it was deferred, its transitions (when a transitions index is
 * configured) and its content document. `doc` is the decoded status document, if any.
 */
export async function urlReport(
  client: Client,
  cfg: UrlReportConfig,
  url: string,
  now: number,
): Promise<{
  report: Record<string, unknown>;
  doc: StoredStatus | undefined;
  /** The URL's host (lowercased), when the URL parses. */
  host: string | undefined;
  /** The render decision of the host, when one was made. */
  rendering: HostRenderRecord | undefined;
  /** The page's text as indexed (the content document's content field), when it is indexed. */
  contentText: string | undefined;
  /** The page's main content as Markdown (the markdown field), when it is indexed with one. */
  contentMarkdown: string | undefined;
}> {
  const id = documentId(url);
  const res = await client.search({
    index: cfg['opensearch.status.index.name'],
    body: { query: { ids: { values: [id] } } } as never,
  });
  const hit = (res.body.hits.hits as { _source: unknown }[])[0];
  const doc = hit ? fromStatusSource(hit._source) : undefined;
  const report: Record<string, unknown> = { url, id, known: doc !== undefined };
  if (doc) {
    report.status = doc.status;
    report.key = doc.key ?? partitionKey(url, cfg['partition.url.mode']);
    report.nextFetchDate = doc.nextFetchDate === null ? 'never' : new Date(doc.nextFetchDate).toISOString();
    report.due = doc.nextFetchDate === null ? 'never fetched again' : when(doc.nextFetchDate, now);
    report.metadata = doc.metadata.toJSON();
    const failure = explainFailure(doc.status, doc.metadata, cfg['max.fetch.errors']);
    if (failure !== undefined) report.failure = failure;
    const of = doc.metadata.getFirstValue(MD.duplicateOf);
    if (of !== undefined) {
      report.duplicate = {
        of,
        distance: Number(doc.metadata.getFirstValue(MD.duplicateDistance)),
        ...(doc.metadata.getFirstValue(MD.duplicateSimilarity) === undefined
          ? {}
          : { similarity: Number(doc.metadata.getFirstValue(MD.duplicateSimilarity)) }),
        indexed: cfg['dedup.mode'] === 'flag',
      };
    }
    const similarTo = doc.metadata.getFirstValue(MD.similarTo);
    if (similarTo !== undefined) {
      // Like an indexed page but under the duplicate threshold: indexed, naming it (similarTo).
      report.similar = {
        to: similarTo,
        similarity: Number(doc.metadata.getFirstValue(MD.similarSimilarity)),
        indexed: true,
      };
    }
    const soft404 = doc.metadata.getFirstValue(MD.soft404Evidence);
    if (soft404 !== undefined) report.soft404 = soft404;
    const cause = doc.metadata.getFirstValue(MD.deferCause);
    if (cause !== undefined) {
      report.deferred = {
        cause,
        at: doc.metadata.getFirstValue(MD.deferDate),
        message: doc.metadata.getFirstValue(MD.deferMessage),
        until: report.nextFetchDate,
      };
    }
  }
  const transitionsIndex = cfg['status.transitions.index.name'];
  if (!transitionsIndex) {
    report.transitions =
      'not recorded: status.transitions.index.name is empty (set it, e.g. --set status.transitions.index.name=transitions, ' +
      'to keep them in an index; the log has them while status.transitions.log is true)';
  } else {
    const t = await client
      .search({
        index: transitionsIndex,
        body: { size: 50, query: { term: { url } }, sort: [{ appliedAt: 'asc' }] } as never,
      })
      .catch(() => undefined);
    report.transitions = ((t?.body.hits.hits ?? []) as { _source: Record<string, unknown> }[]).map((h) => {
      const s = h._source;
      return `${s.appliedAt}  ${s.previousStatus ?? '-'} -> ${s.status}  (${s.reason}; next ${s.nextFetchDate})`;
    });
  }
  // A get by id (the content document's id is the status document's) is real time: a search would
  // not see a page indexed since the content index's last refresh, which a shard nobody searches
  // (search idle) may not have done at all.
  const content = await client
    .get({ index: cfg['opensearch.indexer.index.name'], id }, { ignore: [404] })
    .catch(() => undefined);
  const got = content?.body as { found?: boolean; _id: string; _source: Record<string, unknown> } | undefined;
  const c = got?.found ? got : undefined;
  report.content = c
    ? {
        id: c._id,
        title: c._source.title,
        canonical: c._source.canonical,
        fetchTime: c._source.fetchTime,
        characters: String(c._source.content ?? '').length,
        ...(typeof c._source.markdown === 'string' ? { markdownCharacters: c._source.markdown.length } : {}),
        ...(c._source.simhash || c._source.simhashExact
          ? { fingerprint: c._source.simhash ?? `exact ${c._source.simhashExact}` }
          : {}),
        ...(c._source.duplicateOf ? { duplicateOf: c._source.duplicateOf } : {}),
      }
    : 'not in the content index';
  // What the origin answers to URLs that cannot exist: the evidence behind a soft 404.
  const host = hostNameOf(url);
  const origin = originOf(url);
  const profile =
    origin === undefined
      ? null
      : await new DedupIndex(client, {
          content: cfg['opensearch.indexer.index.name'],
          hosts: cfg['opensearch.hosts.index.name'],
        })
          .profile(origin)
          .catch(() => null);
  if (profile) {
    report.hostProbes = {
      probedAt: new Date(profile.probedAt).toISOString(),
      verdict: profile.verdict,
      ...(profile.redirectTo ? { redirectTo: profile.redirectTo } : {}),
      answers: profile.answers.map((a) =>
        a.kind === 'page'
          ? `${a.probe}: 200, ${a.fingerprint.tokens} tokens, fingerprint ${a.fingerprint.hash}`
          : a.kind === 'redirect'
            ? `${a.probe}: ${a.status} to ${a.target}`
            : a.kind === 'notFound'
              ? `${a.probe}: ${a.status}`
              : `${a.probe}: ${a.detail}`,
      ),
    };
  }
  // Rendering (src/render): the decision of the URL's host, from the hosts index.
  const rendering =
    host === undefined
      ? undefined
      : await hostRenderRecord(client, cfg['opensearch.hosts.index.name'], host).catch(() => undefined);
  report.rendering = rendering ?? 'no decision';
  return {
    report,
    doc,
    host,
    rendering,
    contentText: c ? String(c._source.content ?? '') : undefined,
    contentMarkdown: typeof c?._source.markdown === 'string' ? c._source.markdown : undefined,
  };
}

function hostNameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
