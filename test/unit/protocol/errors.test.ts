import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  classifyFetchError,
  DeadlineError,
  DecodingError,
  FETCH_EXCEPTION,
  FetchException,
} from '../../../src/protocol/http/errors.js';
import { CrawlerError } from '../../../src/util/errors.js';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });
const classify = (e: unknown) => classifyFetchError(e, 'http://example.com/').fetchException;

describe('fetch.exception classification', () => {
  it.each([
    [new DeadlineError('late'), FETCH_EXCEPTION.timeout],
    [withCode('UND_ERR_HEADERS_TIMEOUT'), FETCH_EXCEPTION.timeout],
    [withCode('UND_ERR_BODY_TIMEOUT'), FETCH_EXCEPTION.timeout],
    [withCode('UND_ERR_CONNECT_TIMEOUT'), FETCH_EXCEPTION.timeout],
    [withCode('ETIMEDOUT'), FETCH_EXCEPTION.timeout],
    [withCode('ENOTFOUND'), FETCH_EXCEPTION.unknownHost],
    [withCode('EAI_AGAIN'), FETCH_EXCEPTION.unknownHost],
    [withCode('ECONNREFUSED'), FETCH_EXCEPTION.connectionRefused],
    [withCode('ECONNRESET'), FETCH_EXCEPTION.connectionReset],
    [withCode('UND_ERR_SOCKET', 'other side closed'), FETCH_EXCEPTION.connectionReset],
    [withCode('ERR_SSL_WRONG_VERSION_NUMBER'), FETCH_EXCEPTION.tls],
    [withCode('DEPTH_ZERO_SELF_SIGNED_CERT'), FETCH_EXCEPTION.tls],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID'), FETCH_EXCEPTION.tls],
    [withCode('HPE_INVALID_CONSTANT'), FETCH_EXCEPTION.protocol],
    [withCode('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'), FETCH_EXCEPTION.protocol],
    [new DecodingError('bad gzip'), FETCH_EXCEPTION.protocol],
    [new BlockedAddressError('x', '10.0.0.1', 'sitelocal'), FETCH_EXCEPTION.blockedAddress],
  ])('maps %s to its documented value', (error, expected) => {
    expect(classify(error)).toBe(expected);
  });

  it('maps undici proxy refusals to Proxy error when the request went through a proxy', () => {
    const e = withCode('UND_ERR_INVALID_ARG', 'Proxy Authentication Required (407)');
    expect(classifyFetchError(e, 'http://example.com/', { viaProxy: true }).fetchException).toBe(
      FETCH_EXCEPTION.proxy,
    );
    expect(classify(e)).not.toBe(FETCH_EXCEPTION.proxy);
  });

  it('maps a refused connection to Proxy error, naming the proxy, when the request went through one', () => {
    const refused = withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:3128');
    const e = classifyFetchError(refused, 'http://example.com/', {
      viaProxy: true,
      proxy: 'http://user:***@127.0.0.1:3128/',
    });
    expect(e.fetchException).toBe(FETCH_EXCEPTION.proxy);
    expect(e.message).toBe(
      'Proxy error: http://example.com/ (through the proxy http://user:***@127.0.0.1:3128/): connect ECONNREFUSED 127.0.0.1:3128',
    );
    expect(classify(refused)).toBe(FETCH_EXCEPTION.connectionRefused);
  });

  it('looks through the cause chain', () => {
    expect(classify(new Error('fetch failed', { cause: withCode('ECONNREFUSED') }))).toBe(
      FETCH_EXCEPTION.connectionRefused,
    );
  });

  it('falls back to a generic value carrying the error code', () => {
    expect(classify(withCode('EHOSTUNREACH'))).toBe('Fetch error (EHOSTUNREACH)');
    expect(classify(new TypeError('odd'))).toBe('Fetch error (TypeError)');
  });

  it('yields a CrawlerError with a stable code, the URL in its message and the original as cause', () => {
    const original = withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1');
    const e = classifyFetchError(original, 'http://example.com/');
    expect(e).toBeInstanceOf(FetchException);
    expect(e).toBeInstanceOf(CrawlerError);
    expect(e.code).toBe('FETCH_CONNECTION_REFUSED');
    expect(e.message).toContain('http://example.com/');
    expect(e.cause).toBe(original);
  });

  it('keeps a FetchException as it is', () => {
    const e = FetchException.of('aborted', 'stop');
    expect(classifyFetchError(e, 'http://x/')).toBe(e);
  });
});
