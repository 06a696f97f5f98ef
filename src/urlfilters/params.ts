import { bool, coerce, describeValue, int, type KeyDef, list, str, type ValueOf } from '../config/define.js';
import type { filterKeys } from '../config/keys/filters.js';
import type { URLFilter, WarnLogger } from './types.js';

/** The configuration keys the filters read; a loaded `Config` has them all. */
export type FilterConfig = { readonly [K in keyof typeof filterKeys]: ValueOf<(typeof filterKeys)[K]> };

/** A rule file named by a param, found and read. */
export interface LoadedFile {
  readonly path: string;
  readonly text: string;
}

/** What a filter factory gets: its entry of urlfilters.json and the means to read its files. */
export interface FilterContext {
  /** The entry's `name`, else the short class name. */
  readonly name: string;
  readonly params: FilterParams;
  readonly config: FilterConfig;
  readonly logger: WarnLogger | undefined;
  /**
   * Reads a file named by a param (or by a config key); a relative path is looked up in the
   * directory of urlfilters.json, then in the package's conf/. Records a problem naming the param
   * and the places looked at, and returns undefined, when it cannot be read.
   */
  readFile(param: string, path: string): LoadedFile | undefined;
  /** Records a problem with this entry; loading fails once every entry has been checked. */
  problem(message: string): void;
}

/**
 * Builds a filter from its entry. Throwing is fine: the message becomes a problem of the entry
 * (prefixed with the file and entry), like those recorded with `ctx.problem`.
 */
export type FilterFactory = (ctx: FilterContext) => URLFilter;

/**
 * Typed access to an entry's `params`. A value of the wrong type is recorded as a problem naming
 * the param, its value and the expected type, and the default is used so that checking goes on.
 * Params that nobody read are reported by the loader as probable typos.
 */
export class FilterParams {
  private readonly used = new Set<string>();

  constructor(
    private readonly values: Readonly<Record<string, unknown>>,
    private readonly report: (message: string) => void,
  ) {}

  has(key: string): boolean {
    this.used.add(key);
    return Object.hasOwn(this.values, key);
  }

  raw(key: string): unknown {
    this.used.add(key);
    return this.values[key];
  }

  bool(key: string, fallback: boolean): boolean {
    return this.read(key, bool(fallback, '')) as boolean;
  }

  int(key: string, fallback: number): number {
    return this.read(key, int(fallback, '')) as number;
  }

  string(key: string, fallback: string): string {
    return this.read(key, str(fallback, '')) as string;
  }

  stringList(key: string, fallback: readonly string[]): readonly string[] {
    return this.read(key, list(fallback, '')) as readonly string[];
  }

  /** Every param as text, for filters whose params are data rather than settings. */
  entries(): [string, string][] {
    const out: [string, string][] = [];
    for (const key of Object.keys(this.values)) {
      const value = this.read(key, str('', ''));
      if (value !== undefined) out.push([key, value as string]);
    }
    return out;
  }

  unused(): string[] {
    return Object.keys(this.values).filter((k) => !this.used.has(k));
  }

  fail(key: string, expected: string): void {
    const v = this.values[key];
    this.report(`param "${key}" has value ${describeValue(v)}; expected ${expected}`);
  }

  private read(key: string, def: KeyDef): unknown {
    this.used.add(key);
    if (!Object.hasOwn(this.values, key)) return def.default;
    const v = this.values[key];
    const result = coerce(def, v);
    if (result.ok) return result.value;
    this.report(`param "${key}" has value ${describeValue(v)} (${result.got}); expected ${result.expected}`);
    return def.default;
  }
}
