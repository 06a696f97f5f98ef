import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  classifyFetchError,
  DeadlineError,
  DecodingError,
  FETCH_EXCEPTION,
  FetchException,
} from '../../../src/protocol/http/errors.js';
import { ERROR_CODES } from '../../../src/util/errors.js';
import { root } from '../../support/imports.js';

describe('error codes: one closed list', () => {
  it('names each code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('each documented fetch failure has a code of the list, and becomes its fetch.exception', () => {
    for (const kind of Object.keys(FETCH_EXCEPTION) as (keyof typeof FETCH_EXCEPTION)[]) {
      const e = FetchException.of(kind, 'm');
      expect(ERROR_CODES).toContain(e.code);
      expect(e.fetchException).toBe(FETCH_EXCEPTION[kind]);
    }
  });

  it("each of our own FETCH_* codes, thrown in a fetch, becomes that code's fetch.exception", () => {
    const own = [
      new BlockedAddressError('a.test', '10.0.0.1', '10.0.0.0/8'),
      new DecodingError('cannot decode gzip content'),
      new DeadlineError('no complete answer within 10 ms'),
    ];
    expect(own.map((e) => e.code)).toEqual(['FETCH_BLOCKED_ADDRESS', 'FETCH_PROTOCOL', 'FETCH_TIMEOUT']);
    expect(own.map((e) => classifyFetchError(e, 'http://a.test/').fetchException)).toEqual([
      FETCH_EXCEPTION.blockedAddress,
      FETCH_EXCEPTION.protocol,
      FETCH_EXCEPTION.timeout,
    ]);
    // Wrapped as undici wraps a socket's error, too.
    const wrapped = new Error('fetch failed', { cause: new DeadlineError('late') });
    expect(classifyFetchError(wrapped, 'http://a.test/').fetchException).toBe(FETCH_EXCEPTION.timeout);
  });

  it('every error class of src extends the coded base (CrawlerError), none plain Error', () => {
    const plain: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.name.endsWith('.ts'))
          for (const m of readFileSync(path, 'utf8').matchAll(
            /class (\w+) extends (Error|TypeError|RangeError)\b/g,
          ))
            plain.push(`${relative(root, path)}: ${m[1]}`);
      }
    };
    walk(join(root, 'src'));
    // The base itself is the one class over Error.
    expect(plain).toEqual(['src/util/errors.ts: CrawlerError']);
  });
});
