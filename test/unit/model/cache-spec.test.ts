import { describe, expect, it } from 'vitest';
import { DEFAULT_MAXIMUM_SIZE, parseCacheSpec } from '../../../src/model/cache-spec.js';
import { ConfigError } from '../../../src/util/errors.js';

const KEY = 'status.updater.cache.spec';
const parse = (spec: string) => parseCacheSpec(spec, KEY);

describe('parseCacheSpec', () => {
  it('reads the default spec', () => {
    expect(parse('maximumSize=10000,expireAfterAccess=1h')).toEqual({
      maximumSize: 10000,
      expireAfterAccess: 3_600_000,
      expireAfterWrite: undefined,
    });
  });

  it('reads every duration unit, ISO-8601 durations and spaces around options', () => {
    expect(parse(' expireAfterWrite = 30s , maximumSize=5 ')).toMatchObject({
      maximumSize: 5,
      expireAfterWrite: 30_000,
    });
    expect(parse('expireAfterAccess=10m').expireAfterAccess).toBe(600_000);
    expect(parse('expireAfterAccess=2d').expireAfterAccess).toBe(172_800_000);
    expect(parse('expireAfterAccess=1H').expireAfterAccess).toBe(3_600_000);
    expect(parse('expireAfterAccess=PT1H30M').expireAfterAccess).toBe(5_400_000);
    expect(parse('expireAfterAccess=P1D').expireAfterAccess).toBe(86_400_000);
    expect(parse('expireAfterAccess=PT0.5S').expireAfterAccess).toBe(500);
  });

  it("accepts StormCrawler's newest spec and caps the size it leaves open", () => {
    expect(parse('expireAfterAccess=1h,softValues')).toEqual({
      maximumSize: DEFAULT_MAXIMUM_SIZE,
      expireAfterAccess: 3_600_000,
      expireAfterWrite: undefined,
    });
    expect(parse('').maximumSize).toBe(DEFAULT_MAXIMUM_SIZE);
    expect(parse('initialCapacity=100,recordStats,weakKeys,weakValues,maximumSize=7').maximumSize).toBe(7);
  });

  it('rejects what Caffeine rejects, naming the key', () => {
    const bad = [
      ['maximumSize=lots', 'maximumSize needs a whole number'],
      ['maximumSize', 'maximumSize needs a whole number'],
      ['expireAfterAccess=1w', 'expireAfterAccess needs a duration'],
      ['expireAfterWrite=60', 'expireAfterWrite needs a duration'],
      ['expireAfterWrite=PT', 'expireAfterWrite needs a duration'],
      ['maximumSize=1,maximumSize=2', 'maximumSize is given twice'],
      ['maximumWeight=100', 'unsupported option "maximumWeight"'],
      ['refreshAfterWrite=1m', 'unsupported option "refreshAfterWrite"'],
    ] as const;
    for (const [spec, message] of bad) {
      expect(() => parse(spec), spec).toThrow(ConfigError);
      expect(() => parse(spec), spec).toThrow(`key "${KEY}" has value ${JSON.stringify(spec)}: ${message}`);
    }
  });
});
