import { describe, expect, it } from 'vitest';
import { formatForTerminal, shorten } from '../../../src/util/terminal.js';

const at = new Date(2026, 11, 1, 10, 4, 5).getTime();
const line = (o: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: at, pid: 1, hostname: 'h', ...o });

describe('log lines on a terminal', () => {
  it('a transition is one line: time, old -> new status, URL, reason, next fetch', () => {
    const out = formatForTerminal(
      line({
        component: 'transitions',
        event: 'transition',
        url: 'http://a.test/p',
        previousStatus: 'DISCOVERED',
        status: 'FETCH_ERROR',
        reason: 'HTTP 503',
        nextFetchDate: new Date(2026, 11, 1, 12, 4, 5).toISOString(),
        metadata: { depth: ['1'] },
        dropped: ['protocol.date', 'fetch.statusCode'],
        msg: 'long',
      }),
    );
    expect(out).toBe(
      '10:04:05 INFO  DISCOVERED -> FETCH_ERROR  http://a.test/p  (HTTP 503)  next 2026-12-01 12:04\n',
    );
  });

  it('the progress line reads at a glance', () => {
    const out = formatForTerminal(
      line({
        msg: 'progress',
        fetchedPerSec: 12.5,
        fetched: 300,
        queued: 20,
        hosts: 3,
        errors: 'HTTP 404=2',
      }),
    );
    expect(out).toBe(
      '10:04:05 INFO  progress: 12.5 pages/s, fetched 300, queued 20, hosts 3, errors HTTP 404=2\n',
    );
  });

  it('the progress line says when OpenSearch cannot be reached', () => {
    const out = formatForTerminal(
      line({
        msg: 'progress: OpenSearch unreachable for 12 s',
        fetchedPerSec: 0,
        fetched: 3,
        queued: 0,
        hosts: 1,
        opensearchUnreachableSec: 12,
      }),
    );
    expect(out).toBe(
      '10:04:05 INFO  progress: 0 pages/s, fetched 3, queued 0, hosts 1, OpenSearch unreachable for 12 s\n',
    );
  });

  it('other lines keep their fields on the same line, long values cut, control characters escaped', () => {
    const out = formatForTerminal(
      line({ level: 40, msg: 'spout query failed', err: `${'x'.repeat(200)}\u0000`, attempt: 2 }),
    );
    expect(out.split('\n')).toHaveLength(2);
    expect(out).toMatch(/^10:04:05 WARN {2}spout query failed {2}err=x{79}… {2}attempt=2\n$/);
    expect(shorten('a\nb\u001b[31m')).toBe('a\\x0ab\\x1b[31m');
  });

  it('on a terminal of a given width, fields that do not fit go on continuation lines; nothing is cut', () => {
    const msg = `127.0.0.1 is refused by http.filter.ipaddress.exclude (entry "localhost"); to crawl it: --set http.filter.ipaddress.exclude=${'x,'.repeat(40)}y`;
    const out = formatForTerminal(line({ level: 40, msg, entry: 'localhost' }), 79);
    expect(out).toBe(`10:04:05 WARN  ${msg}\n               entry=localhost\n`);
    const counts = { FETCHED: 120, FETCH_ERROR: 3, ERROR: 2, DISCOVERED: 4000, REDIRECTION: 7 };
    const summary = formatForTerminal(
      line({ msg: 'crawl stopped', fetched: 132, byStatus: counts, dedup: { duplicates: 12, soft404: 3 } }),
      79,
    );
    expect(summary.split('\n')).toEqual([
      '10:04:05 INFO  crawl stopped  fetched=132',
      `               byStatus=${JSON.stringify(counts)}`,
      '               dedup={"duplicates":12,"soft404":3}',
      '',
    ]);
  });

  it("a worker's line says which worker it came from; the supervisor's progress line how many run", () => {
    expect(formatForTerminal(line({ worker: 1, msg: 'crawling', once: true }))).toBe(
      '10:04:05 INFO  w1 crawling  once=true\n',
    );
    const progress = line({
      msg: 'progress',
      fetchedPerSec: 40,
      fetched: 80,
      queued: 5,
      hosts: 4,
      workers: 2,
    });
    expect(formatForTerminal(progress)).toBe(
      '10:04:05 INFO  progress: 40 pages/s, fetched 80, queued 5, hosts 4, workers 2\n',
    );
  });

  it('a line that is not JSON passes unchanged', () => {
    expect(formatForTerminal('plain text\n')).toBe('plain text\n');
  });
});
