import { lookup } from 'node:dns/promises';
import { getDomain } from 'tldts';

export type QueueMode = 'byHost' | 'byDomain' | 'byIP';

export type Resolve = (host: string) => Promise<string>;

const defaultResolve: Resolve = async (host) => (await lookup(host)).address;

/**
 * The politeness queue of a URL: its host, its registrable domain (public-suffix aware) or its IP
 * address, lowercased. Falls back to the host when no domain or address can be found, so a URL always
 * has a queue; `undefined` only for a URL without a host.
 */
export async function queueKey(
  url: URL,
  mode: QueueMode,
  resolve: Resolve = defaultResolve,
): Promise<string | undefined> {
  const host = url.hostname.toLowerCase();
  if (host === '') return undefined;
  if (mode === 'byDomain') return getDomain(host, { allowPrivateDomains: false }) ?? host;
  if (mode === 'byIP') {
    try {
      return await resolve(host.replace(/^\[|\]$/g, ''));
    } catch {
      return host;
    }
  }
  return host;
}
