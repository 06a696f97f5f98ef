import { ConfigError } from '../../util/errors.js';

/** Reading the `params` of a parse filter entry, with messages that name the filter and the param. */
export class Params {
  constructor(
    private readonly filter: string,
    readonly raw: Readonly<Record<string, unknown>>,
  ) {}

  private fail(param: string, expected: string): never {
    throw new ConfigError([
      `parse filter ${this.filter}: param "${param}" must be ${expected}, got ${JSON.stringify(this.raw[param])}`,
    ]);
  }

  string(param: string, fallback: string): string {
    const v = this.raw[param];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') this.fail(param, 'a string');
    return v;
  }

  boolean(param: string, fallback: boolean): boolean {
    const v = this.raw[param];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    return this.fail(param, 'true or false');
  }

  integer(param: string, fallback: number, min = 0): number {
    const v = this.raw[param];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) this.fail(param, `an integer >= ${min}`);
    return v;
  }

  /** A string or a list of strings (StormCrawler accepts both for lists). */
  strings(param: string, fallback: readonly string[] = []): string[] {
    const v = this.raw[param];
    if (v === undefined || v === null) return [...fallback];
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return [...v];
    return this.fail(param, 'a string or a list of strings');
  }

  oneOf<const V extends string>(param: string, values: readonly V[], fallback: V): V {
    const v = this.string(param, fallback).toLowerCase();
    const hit = values.find((x) => x === v);
    if (hit === undefined) this.fail(param, `one of ${values.join(', ')}`);
    return hit;
  }

  /** Compiles a regular expression, failing with a ConfigError that names the param. */
  regex(param: string, source: string, flags = ''): RegExp {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      throw new ConfigError([
        `parse filter ${this.filter}: param "${param}": invalid regular expression ${JSON.stringify(source)}: ${(e as Error).message}`,
      ]);
    }
  }

  error(message: string): ConfigError {
    return new ConfigError([`parse filter ${this.filter}: ${message}`]);
  }
}
