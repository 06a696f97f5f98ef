import { describe, expect, it } from 'vitest';
import { knownSeedLine, seedProblems } from '../../../src/app/seed-checks.js';
import { loadURLFilters } from '../../../src/urlfilters/load.js';

describe('--seed', () => {
  it('a seed that is not a URL, or that the URL filters refuse, is a problem naming it', () => {
    const filter = loadURLFilters();
    expect(seedProblems(['http://127.0.0.5:8099/x', 'https://example.org/'], filter)).toEqual([]);
    expect(seedProblems(['127.0.0.5:8099/x'], filter)).toEqual([
      '--seed "127.0.0.5:8099/x" is not a URL: write it with http:// or https://',
    ]);
    expect(seedProblems(['ftp://example.org/'], filter)).toEqual([
      '--seed "ftp://example.org/" is not an http or https URL',
    ]);
    expect(seedProblems(['http://example.org/a.jpg'], filter)[0]).toMatch(
      /^--seed "http:\/\/example.org\/a.jpg" is rejected by the URL filters/,
    );
  });

  it('a known seed that is not due says its status, when it is due, and what would fetch it now', () => {
    expect(
      knownSeedLine({
        url: 'http://a.test/private/x',
        status: 'ERROR',
        nextFetchDate: undefined,
        cause: 'robots.txt',
      }),
    ).toBe(
      '--seed http://a.test/private/x is known already: ERROR (robots.txt), next fetch never; it is not fetched now. ' +
        "To fetch it again: crawler reset-errors --url http://a.test/private/x (with this command's --conf and --set)",
    );
    expect(
      knownSeedLine({
        url: 'http://a.test/',
        status: 'FETCH_ERROR',
        nextFetchDate: '2026-01-02T00:00:00.000Z',
        cause: undefined,
      }),
    ).toContain('crawler reset-errors --status FETCH_ERROR --url http://a.test/');
    expect(
      knownSeedLine({
        url: 'http://a.test/',
        status: 'FETCHED',
        nextFetchDate: '2026-01-02T00:00:00.000Z',
        cause: undefined,
      }),
    ).toBe(
      '--seed http://a.test/ is known already: FETCHED, next fetch 2026-01-02T00:00:00.000Z; it is fetched then, not now',
    );
  });
});
