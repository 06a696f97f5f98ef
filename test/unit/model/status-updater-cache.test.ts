import { describe, expect, it } from 'vitest';
import type { StatusUpdater } from '../../../src/model/status-updater.js';
import { ConfigError } from '../../../src/util/errors.js';
import { md, setup, stored } from './support.js';

const URL_A = 'https://site.test/a';

describe('the DISCOVERED cache', () => {
  const discovered = (u: StatusUpdater) => u.apply({ url: URL_A, status: 'DISCOVERED', metadata: md() });

  it('skips DISCOVERED for a URL only once its write was acknowledged', () => {
    const { u } = setup();
    expect(discovered(u)).not.toBe('skipped-cached');
    expect(discovered(u)).not.toBe('skipped-cached');
    u.acknowledged(URL_A);
    expect(discovered(u)).toBe('skipped-cached');
    expect(u.cacheStats()).toEqual({ hits: 1, misses: 2, size: 1 });
  });

  it('is filled by any status and only ever skips DISCOVERED', () => {
    const { u } = setup();
    stored(u, { url: URL_A, status: 'FETCHED', metadata: md() });
    u.acknowledged(URL_A);
    expect(discovered(u)).toBe('skipped-cached');
    expect(u.apply({ url: URL_A, status: 'FETCHED', metadata: md() })).not.toBe('skipped-cached');
  });

  it('forgets a URL an hour after its last use by default', () => {
    const { u, clock } = setup();
    u.acknowledged(URL_A);
    clock.advanceMinutes(59);
    expect(discovered(u)).toBe('skipped-cached');
    clock.advanceMinutes(60);
    expect(discovered(u)).not.toBe('skipped-cached');
  });

  it('is off with status.updater.use.cache false', () => {
    const { u } = setup({ 'status.updater.use.cache': false });
    u.acknowledged(URL_A);
    expect(discovered(u)).not.toBe('skipped-cached');
    expect(u.cacheStats()).toBeUndefined();
  });

  it('a bad cache spec stops start-up, naming the key', () => {
    expect(() => setup({ 'status.updater.cache.spec': 'maximumSize=many' })).toThrow(ConfigError);
    expect(() => setup({ 'status.updater.cache.spec': 'maximumSize=many' })).toThrow(
      'status.updater.cache.spec',
    );
    expect(() =>
      setup({ 'status.updater.use.cache': false, 'status.updater.cache.spec': 'x' }),
    ).not.toThrow();
  });
});
