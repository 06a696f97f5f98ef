import { MD } from '../../model/keys.js';
import { connect } from '../../opensearch/client.js';
import { DedupIndex } from '../../opensearch/dedup-index.js';
import { documentId, fromStatusSource, partitionKey } from '../../opensearch/status-doc.js';
import { urlProblem } from '../../pipeline/inject.js';
import { HttpProtocol } from '../../protocol/http/client.js';
import { RobotsService } from '../../protocol/robots/fetch-robots.js';
import { systemClock } from '../../util/clock.js';
import { CrawlerError } from '../../util/errors.js';
import { type Command, UsageError } from '../command.js';

function when(ms: number, now: number): string {
  const d = Math.round((ms - now) / 60_000);
  if (d <= 0) return `due now (since ${new Date(ms).toISOString()})`;
  return `due in ${d >= 180 ? `${Math.round(d / 60)} h` : `${d} min`} (${new Date(ms).toISOString()})`;
}

export const urlCommand: Command = {
  name: 'url',
  summary: 'explain one URL: its status document, when it is due, its transitions and content',
  usage: 'crawler url URL [--robots] [--json] [options]',
  options: {
    robots: {
      type: 'boolean',
      description: "fetch the host's robots.txt now and show its verdict for the URL",
    },
    json: { type: 'boolean', description: 'print one JSON object' },
  },
  async run({ positionals, values, config, log, out }) {
    const url = positionals[0];
    if (!url || positionals.length > 1) {
      throw new UsageError('crawler url URL');
    }
    const problem = urlProblem(url);
    if (problem !== undefined) {
      throw new CrawlerError(
        'BAD_ARGUMENT',
        `${problem}: give the absolute URL as crawled, e.g. https://www.example.com/page`,
      );
    }
    const cfg = config();
    const { client } = await connect(cfg, log);
    try {
      const statusIndex = cfg['opensearch.status.index.name'];
      const id = documentId(url);
      const res = await client.search({
        index: statusIndex,
        body: { query: { ids: { values: [id] } } } as never,
      });
      const hit = (res.body.hits.hits as { _source: unknown }[])[0];
      const doc = hit ? fromStatusSource(hit._source) : undefined;
      const report: Record<string, unknown> = { url, id, known: doc !== undefined };
      const now = Date.now();
      if (doc) {
        report.status = doc.status;
        report.key = doc.key ?? partitionKey(url, cfg['partition.url.mode']);
        report.nextFetchDate =
          doc.nextFetchDate === null ? 'never' : new Date(doc.nextFetchDate).toISOString();
        report.due = doc.nextFetchDate === null ? 'never fetched again' : when(doc.nextFetchDate, now);
        report.metadata = doc.metadata.toJSON();
        const of = doc.metadata.getFirstValue(MD.duplicateOf);
        if (of !== undefined) {
          report.duplicate = {
            of,
            distance: Number(doc.metadata.getFirstValue(MD.duplicateDistance)),
            indexed: cfg['dedup.mode'] === 'flag',
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
      if (transitionsIndex) {
        const t = await client
          .search({
            index: transitionsIndex,
            body: { size: 50, query: { term: { url } }, sort: [{ appliedAt: 'asc' }] } as never,
          })
          .catch(() => undefined);
        report.transitions = ((t?.body.hits.hits ?? []) as { _source: Record<string, unknown> }[]).map(
          (h) => {
            const s = h._source;
            return `${s.appliedAt}  ${s.previousStatus ?? '-'} -> ${s.status}  (${s.reason}; next ${s.nextFetchDate})`;
          },
        );
      }
      const content = await client
        .search({
          index: cfg['opensearch.indexer.index.name'],
          body: { size: 1, query: { term: { url } } } as never,
        })
        .catch(() => undefined);
      const c = (content?.body.hits.hits ?? [])[0] as
        | { _id: string; _source: Record<string, unknown> }
        | undefined;
      report.content = c
        ? {
            id: c._id,
            title: c._source.title,
            canonical: c._source.canonical,
            fetchTime: c._source.fetchTime,
            characters: String(c._source.content ?? '').length,
            ...(c._source.simhash || c._source.simhashExact
              ? { fingerprint: c._source.simhash ?? `exact ${c._source.simhashExact}` }
              : {}),
            ...(c._source.duplicateOf ? { duplicateOf: c._source.duplicateOf } : {}),
          }
        : 'not in the content index';
      // What the host answers to URLs that cannot exist: the evidence behind a soft 404.
      const host = (() => {
        try {
          return new URL(url).hostname.toLowerCase();
        } catch {
          return undefined;
        }
      })();
      const profile =
        host === undefined
          ? null
          : await new DedupIndex(client, {
              content: cfg['opensearch.indexer.index.name'],
              hosts: cfg['opensearch.hosts.index.name'],
            })
              .profile(host)
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
      if (values.robots) {
        const protocol = new HttpProtocol(cfg, { clock: systemClock });
        try {
          const { rules, unavailable } = await new RobotsService(cfg, {
            protocol,
            clock: systemClock,
          }).rulesFor(url);
          report.robots = unavailable
            ? `unavailable (${unavailable.reason}): disallowed for now, the URL is deferred`
            : `${rules.isAllowed(url) ? 'allowed' : 'disallowed'} (${rules.kind}${
                rules.crawlDelayMs ? `, Crawl-delay ${rules.crawlDelayMs / 1000} s` : ''
              })`;
        } finally {
          await protocol.close();
        }
      }
      if (values.json) {
        out(JSON.stringify(report, null, 2));
        return 0;
      }
      out(url);
      if (!doc) out('  not in the status index');
      else {
        out(`  status ${doc.status}, key ${report.key}, ${report.due}`);
        const d = report.deferred as { cause: string; at?: string; message?: string } | undefined;
        if (d) {
          out(
            `  deferred${d.at ? ` at ${d.at}` : ''} (${d.cause}), not fetched and not counted as an error: ` +
              `${d.message ?? ''}; tried again at ${report.nextFetchDate}`,
          );
        }
        const dup = report.duplicate as { of: string; distance: number; indexed: boolean } | undefined;
        if (dup) {
          out(
            `  near-duplicate of ${dup.of} (distance ${dup.distance}): FETCHED, ${dup.indexed ? 'indexed with duplicateOf' : 'not indexed'}, ` +
              'refetched dedup.fetch.interval.factor times less often, its links followed',
          );
        }
        if (report.soft404) out(`  soft 404: ${report.soft404}; not indexed, its links not followed`);
        out('  metadata:');
        for (const [k, v] of Object.entries(doc.metadata.toJSON())) out(`    ${k} = ${v.join(' | ')}`);
      }
      if (Array.isArray(report.transitions)) {
        out('  transitions:');
        for (const t of report.transitions) out(`    ${t}`);
      }
      out(
        `  content: ${typeof report.content === 'string' ? report.content : JSON.stringify(report.content)}`,
      );
      const probes = report.hostProbes as
        | { probedAt: string; verdict: string; answers: string[] }
        | undefined;
      if (probes) {
        out(`  soft-404 probes of the host (${probes.probedAt}): ${probes.verdict}`);
        for (const a of probes.answers) out(`    ${a}`);
      }
      if (report.robots) out(`  robots.txt: ${report.robots}`);
      return doc ? 0 : 1;
    } finally {
      await client.close();
    }
  },
};
