/**
 * The spout's buffer: one FIFO per key, served round-robin, so that one query's URLs are spread over
 * hosts instead of arriving host by host. A URL already buffered is not added twice.
 */
export class UrlBuffer<T extends { readonly url: string }> {
  private readonly byKey = new Map<string, T[]>();
  private readonly urls = new Set<string>();

  get size(): number {
    return this.urls.size;
  }

  get keys(): number {
    return this.byKey.size;
  }

  has(url: string): boolean {
    return this.urls.has(url);
  }

  /** URLs buffered for one key. */
  count(key: string): number {
    return this.byKey.get(key)?.length ?? 0;
  }

  add(key: string, item: T): boolean {
    if (this.urls.has(item.url)) return false;
    this.urls.add(item.url);
    const q = this.byKey.get(key);
    if (q) q.push(item);
    else this.byKey.set(key, [item]);
    return true;
  }

  /** The head of the first key's queue; that key moves to the back. */
  next(): T | undefined {
    for (const [key, q] of this.byKey) {
      const item = q.shift()!;
      this.byKey.delete(key);
      if (q.length > 0) this.byKey.set(key, q);
      this.urls.delete(item.url);
      return item;
    }
    return undefined;
  }
}
