import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import { type Status, statusFromHttpCode } from '../../../src/model/status.js';
import {
  createStatusUpdater,
  type StatusEvent,
  type StatusUpdater,
} from '../../../src/model/status-updater.js';
import { TransitionLog, type TransitionRecord } from '../../../src/model/transition.js';
import { ManualClock } from '../../../src/util/clock.js';
import { config, MIN, T0 } from './support.js';

const SITE = 'https://site.test';

/** What each page answers at each round (by minute); a page not listed for a round answers as in its last entry. */
type Answer =
  | { code: number; links?: string[]; location?: string }
  | { exception: string }
  | { robots: 'denied' };
const ANSWERS: Record<string, Record<number, Answer>> = {
  '/': {
    0: { code: 200, links: ['/about', '/flaky', '/gone', '/slow', '/old', '/private', '/'] },
    1441: { code: 304 },
  },
  '/about': { 0: { code: 200 } },
  '/flaky': { 0: { code: 503 }, 242: { code: 503 }, 1441: { code: 200 } },
  '/gone': { 0: { code: 404 } },
  '/slow': { 0: { exception: 'Socket timeout fetching' } },
  '/old': { 0: { code: 301, location: '/new' } },
  '/new': { 0: { code: 200 } },
  '/private': { 0: { robots: 'denied' } },
};

function answer(path: string, minute: number): Answer {
  const byMinute = ANSWERS[path]!;
  const at = Math.max(
    ...Object.keys(byMinute)
      .map(Number)
      .filter((m) => m <= minute),
  );
  return byMinute[at]!;
}

interface Doc {
  status: Status;
  metadata: Metadata;
  nextFetchDate: number | null;
}

/**
 * A small site crawled by the rules alone: a store standing in for the status index (DISCOVERED is
 * a create that loses to an existing document), a fetcher and parser standing in for the real stages
 * (they emit StormCrawler's events: outlinks before the page's own status), and an acknowledgement
 * of every write.
 */
function crawl(entries: Record<string, unknown>, minutes: readonly number[]) {
  const clock = new ManualClock(T0);
  const conf = config(entries);
  const updater = createStatusUpdater(conf, clock);
  const store = new Map<string, Doc>();
  const lines: string[] = [];
  const warnings: string[] = [];
  const log = TransitionLog.fromConfig({ info: () => {}, warn: (_o, msg) => warnings.push(msg ?? '') }, conf);

  const submit = (u: StatusUpdater, event: StatusEvent) => {
    const update = u.apply(event);
    if (update === 'skipped-cached') {
      lines.push(`${event.url.slice(SITE.length)} ${event.status} skipped (cached)`);
      return;
    }
    if (!(update.status === 'DISCOVERED' && store.has(update.url))) {
      store.set(update.url, {
        status: update.status,
        metadata: update.metadata,
        nextFetchDate: update.nextFetchDate,
      });
    }
    u.acknowledged(update.url);
    log.write(update.transition);
    lines.push(line(update.transition));
  };

  const fetch = (url: string, doc: Doc, minute: number): StatusEvent[] => {
    const md = doc.metadata.copy();
    md.remove('fetch.exception');
    const own = (status: Status, metadata = md): StatusEvent => ({
      url,
      status,
      metadata,
      previousStatus: doc.status,
    });
    const a = answer(url.slice(SITE.length), minute);
    if ('robots' in a) {
      md.setValue('error.cause', 'robots.txt');
      return [own('ERROR')];
    }
    if ('exception' in a) {
      md.setValue('fetch.exception', a.exception);
      return [own('FETCH_ERROR')];
    }
    md.setValue('fetch.statusCode', String(a.code));
    const outlink = (path: string): StatusEvent => ({
      url: SITE + path,
      status: 'DISCOVERED',
      metadata: updater.transfer.forOutlink(url, md),
    });
    if (a.location) md.setValue('_redirTo', a.location);
    const found = [...(a.links ?? []), ...(a.location ? [a.location] : [])].map(outlink);
    return [...found, own(statusFromHttpCode(a.code))];
  };

  submit(updater, { url: `${SITE}/`, status: 'DISCOVERED', metadata: new Metadata() });
  for (const minute of minutes) {
    clock.set(T0 + minute * MIN);
    lines.push(`-- minute ${minute}`);
    const due = [...store].filter(([, d]) => d.nextFetchDate !== null && d.nextFetchDate <= clock.now());
    for (const [url, doc] of due) for (const event of fetch(url, doc, minute)) submit(updater, event);
  }
  return { lines, warnings, store };
}

/**
 * One record per line: path, previous -> new status (reason), nextFetchDate, deletion, then the
 * metadata stored and the keys dropped. Dates are shown as "@<minutes since the start>".
 */
function line(r: TransitionRecord): string {
  const kept = Object.entries(r.metadata).map(([k, v]) => `${k}=${v.join(',')}`);
  const text =
    `${r.url.slice(SITE.length)} ${r.previousStatus ?? '-'} -> ${r.status} (${r.reason}) ` +
    `next ${r.nextFetchDate}${r.delete ? ' delete' : ''} | ${kept.join(' ') || '-'} | dropped ${r.dropped.join(' ') || '-'}`;
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, (d) => `@${(Date.parse(d) - T0) / MIN}`);
}

const ROUNDS = [0, 121, 242, 1441];

describe('a small site over four rounds (minutes 0, 121, 242, 1441)', () => {
  it('with the default config: 503 twice then 200 ends FETCHED, 404 and timeouts end ERROR, robots at once', () => {
    const { lines, warnings, store } = crawl({}, ROUNDS);
    expect(lines).toEqual([
      '/ - -> DISCOVERED (discovered) next @0 | - | dropped discoveryDate',
      '-- minute 0',
      '/about - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 | dropped discoveryDate',
      '/flaky - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 | dropped discoveryDate',
      '/gone - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 | dropped discoveryDate',
      '/slow - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 | dropped discoveryDate',
      '/old - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 | dropped discoveryDate',
      '/private - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 | dropped discoveryDate',
      '/ DISCOVERED skipped (cached)',
      '/ DISCOVERED -> FETCHED (HTTP 200) next @1440 | - | dropped fetch.statusCode lastProcessedDate',
      '-- minute 121',
      '/about DISCOVERED -> FETCHED (HTTP 200) next @1561 | url.path=https://site.test/ depth=1 | dropped fetch.statusCode lastProcessedDate',
      '/flaky DISCOVERED -> FETCH_ERROR (HTTP 503) next @241 | url.path=https://site.test/ depth=1 fetch.error.count=1 error.cause=http.503 error.source=fetching fetch.statusCode=503 | dropped lastProcessedDate',
      '/gone DISCOVERED -> FETCH_ERROR (HTTP 404) next @241 | url.path=https://site.test/ depth=1 fetch.error.count=1 error.cause=http.404 error.source=fetching fetch.statusCode=404 | dropped lastProcessedDate',
      '/slow DISCOVERED -> FETCH_ERROR (Socket timeout fetching) next @241 | url.path=https://site.test/ depth=1 fetch.error.count=1 error.cause=Socket timeout fetching error.source=fetching | dropped fetch.exception lastProcessedDate',
      '/new - -> DISCOVERED (discovered) next @121 | url.path=https://site.test/,https://site.test/old depth=2 | dropped discoveryDate',
      '/old DISCOVERED -> REDIRECTION (HTTP 301) next @1561 delete | url.path=https://site.test/ depth=1 _redirTo=/new | dropped fetch.statusCode lastProcessedDate',
      '/private DISCOVERED -> ERROR (robots.txt) next never delete | url.path=https://site.test/ depth=1 error.cause=robots.txt error.source=fetching | dropped lastProcessedDate',
      '-- minute 242',
      '/flaky FETCH_ERROR -> FETCH_ERROR (HTTP 503) next @362 | url.path=https://site.test/ depth=1 fetch.error.count=2 error.cause=http.503 error.source=fetching fetch.statusCode=503 | dropped lastProcessedDate',
      '/gone FETCH_ERROR -> FETCH_ERROR (HTTP 404) next @362 | url.path=https://site.test/ depth=1 fetch.error.count=2 error.cause=http.404 error.source=fetching fetch.statusCode=404 | dropped lastProcessedDate',
      '/slow FETCH_ERROR -> FETCH_ERROR (Socket timeout fetching) next @362 | url.path=https://site.test/ depth=1 fetch.error.count=2 error.cause=Socket timeout fetching error.source=fetching | dropped fetch.exception lastProcessedDate',
      '/new DISCOVERED -> FETCHED (HTTP 200) next @1682 | url.path=https://site.test/,https://site.test/old depth=2 | dropped fetch.statusCode lastProcessedDate',
      '-- minute 1441',
      '/ FETCHED -> FETCHED (HTTP 304) next @2881 | - | dropped fetch.statusCode lastProcessedDate',
      '/flaky FETCH_ERROR -> FETCHED (HTTP 200) next @2881 | url.path=https://site.test/ depth=1 | dropped fetch.statusCode lastProcessedDate',
      '/gone FETCH_ERROR -> ERROR (maxFetchErrors: HTTP 404) next never delete | url.path=https://site.test/ depth=1 error.cause=maxFetchErrors error.source=fetching fetch.statusCode=404 | dropped lastProcessedDate',
      '/slow FETCH_ERROR -> ERROR (maxFetchErrors: Socket timeout fetching) next never delete | url.path=https://site.test/ depth=1 error.cause=maxFetchErrors error.source=fetching | dropped fetch.exception lastProcessedDate',
    ]);
    // A default run warns about nothing: what it drops is in each line, as information.
    expect(warnings).toEqual([]);
    const final = Object.fromEntries([...store].map(([url, d]) => [url.slice(SITE.length), d.status]));
    expect(final).toEqual({
      '/': 'FETCHED',
      '/about': 'FETCHED',
      '/flaky': 'FETCHED',
      '/gone': 'ERROR',
      '/slow': 'ERROR',
      '/old': 'REDIRECTION',
      '/private': 'ERROR',
      '/new': 'FETCHED',
    });
  });

  it('with discoveryDate, lastProcessedDate and fetch.exception persisted', () => {
    const persist = [
      ...config()['metadata.persist'],
      'discoveryDate',
      'lastProcessedDate',
      'fetch.exception',
    ];
    const wanted = [
      'fetch.exception',
      'lastProcessedDate',
      'discoveryDate',
      'error.message',
      'fetch.statusCode',
    ];
    const { lines, warnings } = crawl(
      { 'metadata.persist': persist, 'status.transitions.warn.dropped': wanted },
      ROUNDS,
    );
    expect(lines).toEqual([
      '/ - -> DISCOVERED (discovered) next @0 | discoveryDate=@0 | dropped -',
      '-- minute 0',
      '/about - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 discoveryDate=@0 | dropped -',
      '/flaky - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 discoveryDate=@0 | dropped -',
      '/gone - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 discoveryDate=@0 | dropped -',
      '/slow - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 discoveryDate=@0 | dropped -',
      '/old - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 discoveryDate=@0 | dropped -',
      '/private - -> DISCOVERED (discovered) next @0 | url.path=https://site.test/ depth=1 discoveryDate=@0 | dropped -',
      '/ DISCOVERED skipped (cached)',
      '/ DISCOVERED -> FETCHED (HTTP 200) next @1440 | discoveryDate=@0 lastProcessedDate=@0 | dropped fetch.statusCode',
      '-- minute 121',
      '/about DISCOVERED -> FETCHED (HTTP 200) next @1561 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@121 | dropped fetch.statusCode',
      '/flaky DISCOVERED -> FETCH_ERROR (HTTP 503) next @241 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@121 fetch.error.count=1 error.cause=http.503 error.source=fetching fetch.statusCode=503 | dropped -',
      '/gone DISCOVERED -> FETCH_ERROR (HTTP 404) next @241 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@121 fetch.error.count=1 error.cause=http.404 error.source=fetching fetch.statusCode=404 | dropped -',
      '/slow DISCOVERED -> FETCH_ERROR (Socket timeout fetching) next @241 | url.path=https://site.test/ depth=1 discoveryDate=@0 fetch.exception=Socket timeout fetching lastProcessedDate=@121 fetch.error.count=1 error.cause=Socket timeout fetching error.source=fetching | dropped -',
      '/new - -> DISCOVERED (discovered) next @121 | url.path=https://site.test/,https://site.test/old depth=2 discoveryDate=@121 | dropped -',
      '/old DISCOVERED -> REDIRECTION (HTTP 301) next @1561 delete | url.path=https://site.test/ depth=1 discoveryDate=@0 _redirTo=/new lastProcessedDate=@121 | dropped fetch.statusCode',
      '/private DISCOVERED -> ERROR (robots.txt) next never delete | url.path=https://site.test/ depth=1 discoveryDate=@0 error.cause=robots.txt lastProcessedDate=@121 error.source=fetching | dropped -',
      '-- minute 242',
      '/flaky FETCH_ERROR -> FETCH_ERROR (HTTP 503) next @362 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@242 fetch.error.count=2 error.cause=http.503 error.source=fetching fetch.statusCode=503 | dropped -',
      '/gone FETCH_ERROR -> FETCH_ERROR (HTTP 404) next @362 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@242 fetch.error.count=2 error.cause=http.404 error.source=fetching fetch.statusCode=404 | dropped -',
      '/slow FETCH_ERROR -> FETCH_ERROR (Socket timeout fetching) next @362 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@242 fetch.error.count=2 error.cause=Socket timeout fetching error.source=fetching fetch.exception=Socket timeout fetching | dropped -',
      '/new DISCOVERED -> FETCHED (HTTP 200) next @1682 | url.path=https://site.test/,https://site.test/old depth=2 discoveryDate=@121 lastProcessedDate=@242 | dropped fetch.statusCode',
      '-- minute 1441',
      '/ FETCHED -> FETCHED (HTTP 304) next @2881 | discoveryDate=@0 lastProcessedDate=@1441 | dropped fetch.statusCode',
      '/flaky FETCH_ERROR -> FETCHED (HTTP 200) next @2881 | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@1441 | dropped fetch.statusCode',
      '/gone FETCH_ERROR -> ERROR (maxFetchErrors: HTTP 404) next never delete | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@1441 error.cause=maxFetchErrors error.source=fetching fetch.statusCode=404 | dropped -',
      '/slow FETCH_ERROR -> ERROR (maxFetchErrors: Socket timeout fetching) next never delete | url.path=https://site.test/ depth=1 discoveryDate=@0 lastProcessedDate=@1441 error.cause=maxFetchErrors error.source=fetching fetch.exception=Socket timeout fetching | dropped -',
    ]);
    expect(warnings).toEqual([
      'metadata key "fetch.statusCode" is not stored in the status index; add fetch.statusCode to metadata.persist to keep it',
    ]);
  });

  it('ERROR URLs are never due again under the default config', () => {
    const { lines, store } = crawl({}, [...ROUNDS, 10_000, 100_000]);
    const late = lines.slice(lines.indexOf('-- minute 10000'));
    expect(late.filter((l) => /^\/(gone|slow|private) /.test(l))).toEqual([]);
    for (const path of ['/gone', '/slow', '/private'])
      expect(store.get(SITE + path)!.nextFetchDate).toBeNull();
  });
});
