import { ConfigError } from '../util/errors.js';

/** The parts of a Caffeine cache spec that the DISCOVERED cache honours. */
export interface CacheSpec {
  readonly maximumSize: number;
  /** Milliseconds after the last read or write; undefined = no such expiry. */
  readonly expireAfterAccess?: number;
  /** Milliseconds after the last write; undefined = no such expiry. */
  readonly expireAfterWrite?: number;
}

/**
 * The bound used when a spec has no maximumSize. Caffeine would grow without limit (StormCrawler's
 * newest default relies on `softValues` instead, which JavaScript cannot express); a cache of every
 * URL ever seen is a memory leak, so we cap it.
 */
export const DEFAULT_MAXIMUM_SIZE = 10_000;

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
const SIMPLE_DURATION = /^(\d+)([dhms])$/i;
const ISO_DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
// Caffeine options that change how values are held or counted, not which entries live: accepted
// so that StormCrawler specs load, and ignored.
const IGNORED = new Set(['initialCapacity', 'weakKeys', 'weakValues', 'softValues', 'recordStats']);

/**
 * Parses a Caffeine spec such as `maximumSize=10000,expireAfterAccess=1h`: comma-separated options,
 * durations as `<integer><d|h|m|s>` or ISO-8601 (`PT1H`). Throws a ConfigError naming `configKey`
 * for anything Caffeine would reject or that this cache cannot honour.
 */
export function parseCacheSpec(spec: string, configKey: string): CacheSpec {
  const problems: string[] = [];
  const seen = new Set<string>();
  let maximumSize = DEFAULT_MAXIMUM_SIZE;
  let expireAfterAccess: number | undefined;
  let expireAfterWrite: number | undefined;
  const fail = (msg: string) => problems.push(`key "${configKey}" has value ${JSON.stringify(spec)}: ${msg}`);

  for (const option of spec.split(',').map((s) => s.trim())) {
    if (option === '') continue;
    const eq = option.indexOf('=');
    const name = (eq < 0 ? option : option.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : option.slice(eq + 1).trim();
    if (seen.has(name)) {
      fail(`${name} is given twice`);
      continue;
    }
    seen.add(name);
    if (name === 'maximumSize') {
      const n = value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
      if (n === undefined) fail(`maximumSize needs a whole number, got ${JSON.stringify(value ?? '')}`);
      else maximumSize = n;
    } else if (name === 'expireAfterAccess' || name === 'expireAfterWrite') {
      const ms = parseSpecDuration(value);
      if (ms === undefined) fail(`${name} needs a duration such as 1h, 30m, 10s or PT1H`);
      else if (name === 'expireAfterAccess') expireAfterAccess = ms;
      else expireAfterWrite = ms;
    } else if (!IGNORED.has(name)) {
      fail(`unsupported option "${name}" (use maximumSize, expireAfterAccess, expireAfterWrite)`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { maximumSize, expireAfterAccess, expireAfterWrite };
}

function parseSpecDuration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const simple = SIMPLE_DURATION.exec(value);
  if (simple) return Number(simple[1]) * UNIT_MS[simple[2]!.toLowerCase()]!;
  const iso = ISO_DURATION.exec(value);
  if (!iso || value.length <= 2 || value.toUpperCase().endsWith('T')) return undefined;
  const [d, h, m, s] = iso.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number];
  return Math.round(((d * 24 + h) * 60 + m) * 60_000 + s * 1000);
}
