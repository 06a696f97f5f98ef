import { describe, expect, it } from 'vitest';
import {
  outcomeOfException,
  outcomeOfResponse,
  type ResponseView,
  refusal,
} from '../../../src/fetch/outcomes.js';
import { Metadata } from '../../../src/model/metadata.js';

const base = (statusCode: number, headers: Record<string, string[]> = {}): ResponseView => ({
  statusCode,
  headers,
  byteLength: 123,
  loadingTimeMs: 45.4,
});

function outcome(
  statusCode: number,
  headers: Record<string, string[]> = {},
  md = Metadata.of({ depth: '1' }),
) {
  return outcomeOfResponse({
    url: 'http://a.test/dir/page',
    metadata: md,
    response: base(statusCode, headers),
    timeInQueuesMs: 10,
    prefix: 'protocol.',
  });
}

describe('fetch outcomes', () => {
  it('200 goes on to parsing with the fetch figures and prefixed headers', () => {
    const o = outcome(200, { 'content-type': ['text/html'] });
    expect(o.kind).toBe('fetched');
    expect(o.metadata.toJSON()).toEqual({
      depth: ['1'],
      'protocol.content-type': ['text/html'],
      'fetch.statusCode': ['200'],
      'fetch.byteLength': ['123'],
      'fetch.loadingTime': ['45'],
      'fetch.timeInQueues': ['10'],
    });
  });

  it('304 is FETCHED without parsing', () => {
    expect(outcome(304)).toMatchObject({ kind: 'status', status: 'FETCHED' });
  });

  it.each([301, 302, 303, 307, 308])('%i is REDIRECTION with the absolute target in _redirTo', (code) => {
    const o = outcome(code, { location: ['../other?x=1'] });
    expect(o).toMatchObject({ kind: 'status', status: 'REDIRECTION', redirectTo: 'http://a.test/other?x=1' });
    expect(o.metadata.getFirstValue('_redirTo')).toBe('http://a.test/other?x=1');
  });

  it('a redirect without Location is REDIRECTION without a target', () => {
    const o = outcome(302);
    expect(o).toMatchObject({ status: 'REDIRECTION', redirectTo: undefined });
    expect(o.metadata.has('_redirTo')).toBe(false);
  });

  it.each([404, 410, 500, 503, 201, 204, 206])('%i is FETCH_ERROR', (code) => {
    expect(outcome(code)).toMatchObject({ kind: 'status', status: 'FETCH_ERROR' });
  });

  it('an answer clears the fetch.exception of an earlier failure', () => {
    const o = outcome(404, {}, Metadata.of({ 'fetch.exception': 'Connection refused' }));
    expect(o.metadata.has('fetch.exception')).toBe(false);
  });

  it('a truncated body is marked http.trimmed with the reason', () => {
    const o = outcomeOfResponse({
      url: 'http://a.test/',
      metadata: new Metadata(),
      response: { ...base(200), trimmed: 'length' },
      timeInQueuesMs: 0,
      prefix: 'protocol.',
    });
    expect(o.metadata.getFirstValue('http.trimmed')).toBe('true');
    expect(o.metadata.getFirstValue('http.trimmed.reason')).toBe('length');
  });

  it('an exception is FETCH_ERROR with fetch.exception and the original metadata', () => {
    const md = Metadata.of({ depth: '2' });
    const o = outcomeOfException('http://a.test/', md, 'Socket timeout fetching');
    expect(o).toMatchObject({ status: 'FETCH_ERROR' });
    expect(o.metadata.toJSON()).toEqual({ depth: ['2'], 'fetch.exception': ['Socket timeout fetching'] });
    expect(md.has('fetch.exception')).toBe(false);
  });

  it('a refusal is ERROR with error.cause', () => {
    const o = refusal('http://a.test/', undefined, 'robots.txt');
    expect(o).toMatchObject({ status: 'ERROR' });
    expect(o.metadata.getFirstValue('error.cause')).toBe('robots.txt');
  });

  it('a 200 replaces the stored validators and the trimmed mark of the previous fetch', () => {
    const stored = Metadata.of({
      'protocol.etag': ['"old"'],
      'protocol.last-modified': ['Sat, 02 Mar 2024 08:00:00 GMT'],
      'http.trimmed': ['true'],
      'http.trimmed.reason': ['length'],
    });
    const o = outcome(200, { etag: ['"new"'] }, stored);
    expect(o.metadata.getValues('protocol.etag')).toEqual(['"new"']);
    expect(o.metadata.getFirstValue('protocol.last-modified')).toBeUndefined();
    expect(o.metadata.getFirstValue('http.trimmed')).toBeUndefined();
    expect(o.metadata.getFirstValue('http.trimmed.reason')).toBeUndefined();
  });

  it('a 304 keeps the stored validators it does not resend, and is FETCHED', () => {
    const stored = Metadata.of({
      'protocol.etag': ['"v1"'],
      'protocol.last-modified': ['Sat, 02 Mar 2024 08:00:00 GMT'],
    });
    const o = outcome(304, { date: ['Sun, 03 Mar 2024 08:00:00 GMT'] }, stored);
    expect(o).toMatchObject({ kind: 'status', status: 'FETCHED' });
    expect(o.metadata.getValues('protocol.etag')).toEqual(['"v1"']);
    expect(o.metadata.getValues('protocol.last-modified')).toEqual(['Sat, 02 Mar 2024 08:00:00 GMT']);
  });
});
