import type { HostProfile } from './profile.js';

/**
 * This process's copy of the soft-404 profiles of the hosts it crawls (each host is crawled by one
 * process, so the copy stays true): null for a host known to have none yet, undefined for a host
 * not looked up yet. Bounded: the least recently used hosts are forgotten (and looked up again).
 */
export class HostProfiles {
  private readonly map = new Map<string, HostProfile | null>();

  constructor(private readonly max = 20_000) {}

  get(host: string): HostProfile | null | undefined {
    const p = this.map.get(host);
    if (p === undefined) return undefined;
    // Most recently used last.
    this.map.delete(host);
    this.map.set(host, p);
    return p;
  }

  set(host: string, profile: HostProfile | null): void {
    this.map.delete(host);
    this.map.set(host, profile);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  get size(): number {
    return this.map.size;
  }
}

/** The host a profile belongs to: the URL's host name, lowercased (the politeness queue's key). */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
