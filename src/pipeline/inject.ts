import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Metadata } from '../model/metadata.js';
import { shown } from '../util/shown.js';
import type { StatusWrites } from './status-writes.js';

export interface InjectReport {
  lines: number;
  /** URLs handed to the status index (new ones and known ones alike). */
  accepted: number;
  /** Lines with a problem: malformed, not http(s), rejected by the URL filters. */
  bad: number;
  /** Blank lines and comments. */
  skipped: number;
}

export interface InjectDeps {
  readonly writer: Pick<StatusWrites, 'inject'>;
  /** The URL filter chain applied to seeds (source URL null); null = rejected. */
  readonly filter: (url: string, metadata: Metadata) => string | null;
  /** One message per bad line, with its line number and reason. */
  readonly problem: (line: number, message: string) => void;
  /** Called with each URL handed to the writer, awaited (e.g. to judge a known one again). */
  readonly accepted?: (url: string) => Promise<void> | void;
}

/**
 * Why a seed (or a URL given on the command line) cannot be crawled before any filter sees it (not a URL, not http or https), in the
 * words `crawler inject` and `crawler run --seed` both use; undefined when it is fine. The seed is
 * quoted cut and escaped: a seed line may be 10 KB long or binary.
 */
export function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${shown(url)}" is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `"${shown(url)}" is not an http or https URL`;
  return undefined;
}

/** The message of a seed the URL filters reject. */
export const seedRejected = (url: string) =>
  `"${shown(url)}" is rejected by the URL filters (urlfilters.config.file)`;

/**
 * Reads a seeds file in StormCrawler's format, one URL per line with optional tab-separated
 * key=value metadata (split on the first "="), and writes each URL as DISCOVERED with op_type create,
 * so a URL already known keeps its status. Streams: memory does not grow with the file, and the
 * status writer's backpressure paces the reading.
 */
export async function injectSeeds(input: Readable | string, deps: InjectDeps): Promise<InjectReport> {
  const stream = typeof input === 'string' ? createReadStream(input, { encoding: 'utf8' }) : input;
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const report: InjectReport = { lines: 0, accepted: 0, bad: 0, skipped: 0 };
  for await (const raw of lines) {
    report.lines++;
    const n = report.lines;
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '' || line.trimStart().startsWith('#')) {
      report.skipped++;
      continue;
    }
    const [first, ...tokens] = line.split('\t');
    const url = first!.trim();
    const md = new Metadata();
    for (const token of tokens) {
      const eq = token.indexOf('=');
      if (eq <= 0) {
        if (token.trim() !== '') deps.problem(n, `metadata "${shown(token)}" is not key=value; ignored`);
        continue;
      }
      md.addValue(token.slice(0, eq).trim(), token.slice(eq + 1));
    }
    const problem = urlProblem(url);
    if (problem !== undefined) {
      report.bad++;
      deps.problem(n, `${problem}; skipped`);
      continue;
    }
    const kept = deps.filter(url, md);
    if (kept === null) {
      report.bad++;
      deps.problem(n, `${seedRejected(url)}; skipped`);
      continue;
    }
    await deps.writer.inject({ url: kept, status: 'DISCOVERED', metadata: md });
    await deps.accepted?.(kept);
    report.accepted++;
  }
  return report;
}
