import type { HostProfile } from './profile.js';

/**
 * This process's copy of the soft-404 profiles of the origins it crawls (each host is crawled by one
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

/**
 * The origin a profile belongs to: scheme, host and port (`http://127.0.0.1:8080`). Not the host name
 * alone: two servers on one address (two ports, or http beside https) answer URLs that cannot exist
 * each in its own way, and a profile keyed by the name let a normal site hide a soft-404 site beside
 * it. It is also the id of the profile's document in the hosts index.
 */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
