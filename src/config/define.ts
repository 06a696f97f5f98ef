/**
 * Building blocks of the configuration schema. Each key is declared once with its kind, default and
 * a one-line meaning; the TypeScript type of a loaded config is derived from these declarations, and
 * `conf/crawler-default.yaml` is tested against them so that the two cannot drift.
 */

export type Kind =
  | 'string'
  | 'number'
  | 'integer'
  | 'integerOrWord'
  | 'boolean'
  | 'enum'
  | 'stringList'
  | 'duration'
  | 'structured';

interface Base<K extends Kind, T> {
  readonly kind: K;
  readonly default: T;
  readonly doc: string;
}

export interface StringKey extends Base<'string', string> {}
export interface NumberKey extends Base<'number', number> {
  readonly min?: number;
}
export interface IntegerKey extends Base<'integer', number> {
  readonly min?: number;
}
/** A whole number, or one of a few words that stand for a computed one (e.g. "auto"). */
export interface IntegerOrWordKey<W extends string = string> extends Base<'integerOrWord', number | W> {
  readonly min?: number;
  readonly words: readonly W[];
}
export interface BooleanKey extends Base<'boolean', boolean> {}
export interface EnumKey<V extends string = string> extends Base<'enum', V> {
  readonly values: readonly V[];
  /** Compare case-insensitively and store the canonical spelling (StormCrawler reads these so). */
  readonly caseInsensitive?: boolean;
}
export interface StringListKey extends Base<'stringList', readonly string[]> {
  /** A single string is split on this separator (StormCrawler's `loadListFromConf` accepts both). */
  readonly split?: RegExp;
}
/** A duration: a number of milliseconds, or a string such as "5s", "500ms", "2m", "1h". */
export interface DurationKey extends Base<'duration', number> {}

/**
 * A YAML structure (a list of mappings, say) that its role checks itself at start-up, with messages
 * that name the key: for StormCrawler keys such as protocol.delegator.config.
 */
export interface StructuredKey extends Base<'structured', unknown> {}

export type KeyDef =
  | StructuredKey
  | StringKey
  | NumberKey
  | IntegerKey
  | IntegerOrWordKey
  | BooleanKey
  | EnumKey
  | StringListKey
  | DurationKey;

export type ValueOf<D> =
  D extends EnumKey<infer V>
    ? V
    : D extends IntegerOrWordKey<infer W>
      ? number | W
      : D extends Base<Kind, infer T>
        ? T
        : never;

export const str = (d: string, doc: string): StringKey => ({ kind: 'string', default: d, doc });
export const num = (d: number, doc: string, min?: number): NumberKey => ({
  kind: 'number',
  default: d,
  doc,
  min,
});
export const int = (d: number, doc: string, min?: number): IntegerKey => ({
  kind: 'integer',
  default: d,
  doc,
  min,
});
export const intOr = <const W extends string>(
  words: readonly W[],
  d: number | NoInfer<W>,
  doc: string,
  min?: number,
): IntegerOrWordKey<W> => ({ kind: 'integerOrWord', words, default: d, doc, min });
export const bool = (d: boolean, doc: string): BooleanKey => ({ kind: 'boolean', default: d, doc });
export const oneOf = <const V extends string>(
  values: readonly V[],
  d: NoInfer<V>,
  doc: string,
  caseInsensitive = false,
): EnumKey<V> => ({ kind: 'enum', values, default: d, doc, caseInsensitive });
export const list = (d: readonly string[], doc: string, split: RegExp = / *, */): StringListKey => ({
  kind: 'stringList',
  default: d,
  doc,
  split,
});
export const duration = (d: number, doc: string): DurationKey => ({ kind: 'duration', default: d, doc });
export const structured = (d: unknown, doc: string): StructuredKey => ({
  kind: 'structured',
  default: d,
  doc,
});

/**
 * Keys that are families rather than single names, e.g. `fetchInterval.FETCHED.isFeed=true` or
 * `fetcher.maxThreads.<regex>`. Their values keep the order in which the merged config lists them.
 */
export interface PatternDef {
  readonly pattern: RegExp;
  readonly kind: 'number' | 'integer' | 'string' | 'boolean';
  readonly example: string;
  readonly doc: string;
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string') return undefined;
  const m = DURATION.exec(value.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value}`;
}

export type Coerced = { ok: true; value: unknown } | { ok: false; expected: string; got: string };

/** Checks one value against its declaration; YAML already gave numbers and booleans their types. */
export function coerce(def: KeyDef | PatternDef, value: unknown): Coerced {
  const fail = (expected: string): Coerced => ({ ok: false, expected, got: describe(value) });
  switch (def.kind) {
    case 'string':
      if (typeof value === 'string') return { ok: true, value };
      if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return fail('a string');
    case 'number':
    case 'integer': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n))
        return fail(def.kind === 'integer' ? 'an integer' : 'a number');
      if (def.kind === 'integer' && !Number.isInteger(n)) return fail('an integer');
      const min = 'min' in def ? def.min : undefined;
      if (min !== undefined && n < min) return fail(`a number >= ${min}`);
      return { ok: true, value: n };
    }
    case 'integerOrWord': {
      const word =
        typeof value === 'string' ? def.words.find((w) => w === value.trim().toLowerCase()) : undefined;
      if (word !== undefined) return { ok: true, value: word };
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      const expected = `an integer${def.min !== undefined ? ` >= ${def.min}` : ''} or ${def.words.map((w) => `"${w}"`).join(', ')}`;
      if (typeof n !== 'number' || !Number.isInteger(n) || (def.min !== undefined && n < def.min))
        return fail(expected);
      return { ok: true, value: n };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return fail('a boolean (true or false)');
    case 'enum': {
      const s = typeof value === 'string' ? value : undefined;
      const same = (v: string, x: string) =>
        def.caseInsensitive ? v.toLowerCase() === x.toLowerCase() : v === x;
      // A Java class name such as org.apache.stormcrawler.persistence.DefaultScheduler names the same thing.
      const short = s?.slice(s.lastIndexOf('.') + 1);
      const hit = s === undefined ? undefined : def.values.find((v) => same(v, s) || same(v, short!));
      if (hit === undefined) return fail(`one of ${def.values.join(', ')}`);
      return { ok: true, value: hit };
    }
    case 'stringList':
      if (value === null || value === '') return { ok: true, value: [] };
      if (typeof value === 'string')
        return {
          ok: true,
          value: value
            .split(def.split ?? / *, */)
            .map((s) => s.trim())
            .filter(Boolean),
        };
      if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v)))
        return { ok: true, value: value.map(String) };
      return fail('a list of strings (or one comma-separated string)');
    case 'structured':
      return { ok: true, value };
    case 'duration': {
      const ms = parseDuration(value);
      return ms === undefined
        ? fail('a duration (milliseconds, or a string like "5s", "500ms", "2m")')
        : { ok: true, value: ms };
    }
  }
}

export function describeValue(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
