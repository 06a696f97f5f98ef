import { describeRecord } from '../opensearch/render-decisions.js';
import type { urlReport } from '../opensearch/url-report.js';
import { terminalLine } from '../util/terminal-text.js';

export type UrlReport = Awaited<ReturnType<typeof urlReport>>;

/**
 * What `crawler url URL` prints, as lines: the console's "explain one URL" box shows the same ones.
 * Most of it is written by the page or its server (metadata, titles, reasons, exceptions), so each
 * line goes out on one line with its control characters blanked (util/terminal-text.ts): nothing
 * in a page can move a terminal's cursor or fake a line. `contentIndex` names the content index.
 */
export function urlReportLines(url: string, r: UrlReport, contentIndex: string): string[] {
  const out: string[] = [];
  const say = (indent: number, text: string) => out.push(`${' '.repeat(indent)}${terminalLine(text)}`);
  const { report, doc } = r;
  say(0, url);
  if (!doc) say(2, 'not in the status index');
  else {
    say(2, `status ${doc.status}, key ${report.key}, ${report.due}`);
    const d = report.deferred as { cause: string; at?: string; message?: string } | undefined;
    if (d) {
      say(
        2,
        `deferred${d.at ? ` at ${d.at}` : ''} (${d.cause}), not fetched and not counted as an error: ` +
          `${d.message ?? ''}; tried again at ${report.nextFetchDate}`,
      );
    }
    const dup = report.duplicate as
      | { of: string; distance: number; similarity?: number; indexed: boolean }
      | undefined;
    if (dup) {
      const sim = dup.similarity === undefined ? '' : `similarity ${dup.similarity}, `;
      say(
        2,
        `near-duplicate of ${dup.of} (${sim}distance ${dup.distance}): FETCHED, ${dup.indexed ? 'indexed with duplicateOf' : 'not indexed'}, ` +
          'refetched dedup.fetch.interval.factor times less often, its links followed',
      );
    }
    const similar = report.similar as { to: string; similarity: number } | undefined;
    if (similar) {
      say(
        2,
        `similar to ${similar.to} (similarity ${similar.similarity}, under dedup.duplicate.similarity): ` +
          'FETCHED, indexed with similarTo, not a duplicate',
      );
    }
    if (report.soft404) say(2, `soft 404: ${report.soft404}; not indexed, its links not followed`);
    if (report.failure) say(2, `why ${doc.status}: ${report.failure}`);
    say(2, 'metadata:');
    for (const [k, v] of Object.entries(doc.metadata.toJSON())) say(4, `${k} = ${v.join(' | ')}`);
  }
  if (Array.isArray(report.transitions)) {
    say(2, 'transitions:');
    for (const t of report.transitions) say(4, String(t));
  } else say(2, `transitions: ${report.transitions}`);
  if (typeof report.content === 'string') say(2, `content: ${report.content} "${contentIndex}"`);
  else {
    say(2, `content (index "${contentIndex}"):`);
    for (const [k, v] of Object.entries(report.content as Record<string, unknown>))
      if (v !== undefined && v !== null && v !== '') say(4, `${k}: ${String(v)}`);
  }
  const probes = report.hostProbes as { probedAt: string; verdict: string; answers: string[] } | undefined;
  if (probes) {
    say(2, `soft-404 probes of the host (${probes.probedAt}): ${probes.verdict}`);
    for (const a of probes.answers) say(4, a);
  }
  say(2, `rendering: ${describeRecord(r.host ?? url, r.rendering)}`);
  if (report.robots) say(2, `robots.txt: ${report.robots}`);
  return out;
}
