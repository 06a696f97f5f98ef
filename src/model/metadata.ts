/** The JSON shape of metadata: what the status index stores under `metadata`. */
export type MetadataJSON = Record<string, string[]>;

const BLANK = /^\s*$/;

/**
 * A URL's metadata: a multi-valued map from string keys to lists of strings, with StormCrawler's
 * semantics, so that seeds, status documents and rules written for StormCrawler behave the same:
 *
 * - `getFirstValue` / `getValues` treat a key with an empty list like a missing key.
 * - `setValues` and `addValues` with nothing to add are no-ops: they never remove a key.
 * - `addValue` ignores blank values (empty or whitespace only).
 * - Values are stored exactly as given (no trimming, no case change).
 *
 * Lists handed out are never mutated afterwards (every change replaces the list), so a caller may
 * keep what `getValues` returned.
 */
export class Metadata {
  private map = new Map<string, readonly string[]>();
  /** The map may be another Metadata's too (copy on write): cloned before the first change. */
  private shared = false;

  private writable(): Map<string, readonly string[]> {
    if (this.shared) {
      this.map = new Map(this.map);
      this.shared = false;
    }
    return this.map;
  }

  /**
   * Reads metadata from JSON such as a status document's `metadata`. Lenient, because documents may
   * have been written by other tools: a single string becomes a one-value list, numbers and booleans
   * become strings, anything else (objects, null) is skipped.
   */
  static fromJSON(json: unknown): Metadata {
    const md = new Metadata();
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return md;
    for (const [key, raw] of Object.entries(json as Record<string, unknown>)) {
      const list = Array.isArray(raw) ? raw : [raw];
      const values = list.filter(isScalar).map(String);
      if (values.length > 0 || Array.isArray(raw)) md.map.set(key, values);
    }
    return md;
  }

  /** Builds metadata from key/value pairs; a string value is a one-value list. */
  static of(record: Readonly<Record<string, string | readonly string[]>>): Metadata {
    const md = new Metadata();
    for (const [key, value] of Object.entries(record)) {
      md.setValues(key, typeof value === 'string' ? [value] : value);
    }
    return md;
  }

  /** The first value, or undefined when the key is missing or has no values. */
  getFirstValue(key: string): string | undefined {
    return this.map.get(key)?.[0];
  }

  /** All values, or undefined when the key is missing or has no values. */
  getValues(key: string): readonly string[] | undefined {
    const values = this.map.get(key);
    return values && values.length > 0 ? values : undefined;
  }

  /** True if one of the key's values equals `value`. */
  hasValue(key: string, value: string): boolean {
    return this.map.get(key)?.includes(value) ?? false;
  }

  /** True if the key is present, even with no values. */
  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Replaces the key's values with this one value. */
  setValue(key: string, value: string): void {
    this.writable().set(key, [value]);
  }

  /** Replaces the key's values; a no-op when `values` is missing or empty (the key is kept). */
  setValues(key: string, values: readonly string[] | undefined | null): void {
    if (!values || values.length === 0) return;
    this.writable().set(key, [...values]);
  }

  /** Appends a value; a no-op when the value is missing or blank. */
  addValue(key: string, value: string | undefined | null): void {
    if (value === undefined || value === null || BLANK.test(value)) return;
    this.writable().set(key, [...(this.map.get(key) ?? []), value]);
  }

  /** Appends values as they are (blank ones included); a no-op when there are none. */
  addValues(key: string, values: readonly string[] | undefined | null): void {
    if (!values || values.length === 0) return;
    this.writable().set(key, [...(this.map.get(key) ?? []), ...values]);
  }

  /** Removes the key and returns what it held. */
  remove(key: string): readonly string[] | undefined {
    const values = this.map.get(key);
    if (values !== undefined) this.writable().delete(key);
    return values;
  }

  /** The keys, in insertion order, optionally only those that start with `prefix`. */
  keySet(prefix = ''): string[] {
    return [...this.map.keys()].filter((k) => k.startsWith(prefix));
  }

  get size(): number {
    return this.map.size;
  }

  /**
   * An independent copy. O(1): both share the map until either changes (value lists are never
   * changed in place, so sharing them is safe); most copies of a crawl are read and never changed.
   */
  copy(): Metadata {
    const md = new Metadata();
    md.map = this.map;
    md.shared = true;
    this.shared = true;
    return md;
  }

  /** Sets `prefix + key` for every key of `other`; the prefix is used as is, no separator added. */
  putAll(other: Metadata, prefix = ''): void {
    const map = this.writable();
    for (const [key, values] of other.map) map.set(prefix + key, values);
  }

  entries(): IterableIterator<[string, readonly string[]]> {
    return this.map.entries();
  }

  /** A plain object of fresh arrays (safe for keys such as `__proto__`). */
  toJSON(): MetadataJSON {
    return Object.fromEntries([...this.map].map(([k, v]) => [k, [...v]]));
  }
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}
