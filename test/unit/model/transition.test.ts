import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Status } from '../../../src/model/status.js';
import {
  formatTransition,
  logTransition,
  TransitionLog,
  type TransitionLogger,
  type TransitionRecord,
  transitionReason,
} from '../../../src/model/transition.js';
import { config, md } from './support.js';

const reason = (
  status: Status,
  m: Record<string, string>,
  extra: Partial<{ asIs: boolean; max: boolean }> = {},
) =>
  transitionReason({
    status,
    metadata: md(m),
    storedAsIs: extra.asIs ?? false,
    reachedMaxFetchErrors: extra.max ?? false,
  });

describe('the reason of a transition', () => {
  it('as-is comes first, then discovered', () => {
    expect(reason('ERROR', { 'error.cause': 'robots.txt' }, { asIs: true })).toBe('as-is');
    expect(reason('DISCOVERED', { 'fetch.statusCode': '200' })).toBe('discovered');
  });

  it('maxFetchErrors names the last failure', () => {
    expect(
      reason('ERROR', { 'fetch.statusCode': '404', 'error.cause': 'maxFetchErrors' }, { max: true }),
    ).toBe('maxFetchErrors: HTTP 404');
    expect(
      reason('ERROR', { 'fetch.exception': 'Unknown host', 'fetch.statusCode': '200' }, { max: true }),
    ).toBe('maxFetchErrors: Unknown host');
    expect(reason('ERROR', {}, { max: true })).toBe('maxFetchErrors');
  });

  it("an ERROR's cause beats the fetch evidence", () => {
    expect(reason('ERROR', { 'error.cause': 'crawl_delay', 'fetch.statusCode': '200' })).toBe('crawl_delay');
  });

  it('a failure names its exception before a (possibly stale) status code', () => {
    expect(
      reason('FETCH_ERROR', { 'fetch.exception': 'Socket timeout fetching', 'fetch.statusCode': '200' }),
    ).toBe('Socket timeout fetching');
    expect(reason('FETCH_ERROR', { 'fetch.statusCode': '503', 'error.cause': 'robots.txt' })).toBe(
      'HTTP 503',
    );
  });

  it('a success names its status code, ignoring a leftover exception', () => {
    expect(reason('FETCHED', { 'fetch.statusCode': '304', 'fetch.exception': 'old' })).toBe('HTTP 304');
    expect(reason('REDIRECTION', { 'fetch.statusCode': '301' })).toBe('HTTP 301');
  });

  it('falls back to error.cause, then unspecified', () => {
    expect(reason('FETCH_ERROR', { 'error.cause': 'something' })).toBe('something');
    expect(reason('FETCHED', {})).toBe('unspecified');
  });
});

const record: TransitionRecord = {
  url: 'https://site.test/x',
  appliedAt: '2025-01-01T00:00:00.000Z',
  previousStatus: 'FETCH_ERROR',
  status: 'ERROR',
  nextFetchDate: 'never',
  reason: 'maxFetchErrors: HTTP 404',
  scheduledBy: 'fetchInterval.error',
  metadata: { 'error.cause': ['maxFetchErrors'] },
  dropped: ['fetch.statusCode', 'lastProcessedDate', 'custom'],
  delete: true,
  problems: [],
};

function recorder() {
  const lines: { level: 'info' | 'warn'; obj: Record<string, unknown>; msg: string | undefined }[] = [];
  const logger: TransitionLogger = {
    info: (obj, msg) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  };
  return { lines, logger };
}

describe('the transition log', () => {
  it('formats one line for humans', () => {
    expect(formatTransition(record)).toBe(
      'https://site.test/x FETCH_ERROR -> ERROR (maxFetchErrors: HTTP 404), next never, delete',
    );
    expect(formatTransition({ ...record, previousStatus: null, delete: false })).toBe(
      'https://site.test/x - -> ERROR (maxFetchErrors: HTTP 404), next never',
    );
  });

  it('logs a record as a structured info line, or warn when bad input was ignored', () => {
    const { lines, logger } = recorder();
    logTransition(logger, record);
    logTransition(logger, { ...record, problems: ['x'] });
    expect(lines.map((l) => l.level)).toEqual(['info', 'warn']);
    expect(lines[0]!.obj).toEqual({ event: 'transition', ...record });
    expect(lines[0]!.msg).toBe(formatTransition(record));
  });

  // The keys StormCrawler users most often lose without noticing; an operator lists those they want.
  const wanted = {
    'status.transitions.warn.dropped': [
      'fetch.exception',
      'lastProcessedDate',
      'discoveryDate',
      'error.message',
      'fetch.statusCode',
    ],
  };

  it('by default warns about no dropped key: the dropped list is in each line, as information', () => {
    const { lines, logger } = recorder();
    const log = TransitionLog.fromConfig(logger, config());
    log.write(record);
    expect(lines.map((l) => l.level)).toEqual(['info']);
    expect(lines[0]!.obj['dropped']).toEqual(record.dropped);
  });

  it('warns once per wanted key that the persist filter drops, naming the setting that keeps it', () => {
    const { lines, logger } = recorder();
    const log = TransitionLog.fromConfig(logger, config(wanted));
    log.write(record);
    log.write(record);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.msg)).toEqual([
      'metadata key "fetch.statusCode" is not stored in the status index; add fetch.statusCode to metadata.persist to keep it',
      'metadata key "lastProcessedDate" is not stored in the status index; add lastProcessedDate to metadata.persist to keep it',
    ]);
    expect(warnings[0]!.obj).toMatchObject({
      event: 'transition.dropped',
      key: 'fetch.statusCode',
      setting: 'metadata.persist',
    });
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(2);
  });

  it('still warns when the lines are switched off', () => {
    const { lines, logger } = recorder();
    const log = TransitionLog.fromConfig(logger, config({ ...wanted, 'status.transitions.log': false }));
    log.write(record);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn']);
  });

  it('the warned keys come from status.transitions.warn.dropped', () => {
    const { lines, logger } = recorder();
    const log = TransitionLog.fromConfig(logger, config({ 'status.transitions.warn.dropped': ['custom'] }));
    log.write(record);
    expect(lines.filter((l) => l.level === 'warn').map((w) => w.obj['key'])).toEqual(['custom']);
  });

  it('a pino logger writes the records as JSON lines', () => {
    const out: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        out.push(String(chunk));
        done();
      },
    });
    const logger: TransitionLogger = pino({}, stream);
    logTransition(logger, record);
    const raw = out.join('');
    // No record field collides with pino's own (level, time, msg, pid, hostname).
    expect(raw.match(/"(level|time|msg|pid|hostname)":/g)).toEqual([
      '"level":',
      '"time":',
      '"pid":',
      '"hostname":',
      '"msg":',
    ]);
    const line = JSON.parse(raw) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      event: 'transition',
      url: record.url,
      status: 'ERROR',
      reason: record.reason,
    });
    expect(line['msg']).toBe(formatTransition(record));
  });
});
