import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressFilter } from './address-filter.js';
import { BlockedAddressError } from './errors.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Name resolution, injectable so tests can point public-looking names at loopback servers. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The operating system's resolver (getaddrinfo, as net.connect would use). */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true });

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The addresses `hostname` may be connected to, in resolver order: the literal itself, or every
 * resolved address the filter allows. Throws BlockedAddressError when all are refused, naming the
 * first one.
 */
export async function allowedAddresses(
  hostname: string,
  filter: AddressFilter,
  resolver: Resolver,
): Promise<string[]> {
  const host = unbracket(hostname);
  const addresses = isIP(host) !== 0 ? [host] : (await resolver(host)).map((a) => a.address);
  if (addresses.length === 0) {
    throw Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
  }
  if (filter.allowsAll) return addresses;
  const allowed = addresses.filter((a) => filter.refusedBy(a) === undefined);
  if (allowed.length > 0) return allowed;
  const rule = filter.refusedBy(addresses[0]!)!;
  throw new BlockedAddressError(host, addresses[0]!, rule);
}

/** The first address `hostname` may be connected to; see allowedAddresses. */
export async function allowedAddress(
  hostname: string,
  filter: AddressFilter,
  resolver: Resolver,
): Promise<string> {
  return (await allowedAddresses(hostname, filter, resolver))[0]!;
}

/** Failures where another address of the host may work (e.g. IPv6 first on a host without IPv6). */
const TRY_NEXT = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

export interface GuardedConnectorOptions {
  readonly filter: AddressFilter;
  readonly resolver: Resolver;
  /** TCP + TLS handshake timeout, ms, per address tried. */
  readonly timeoutMs: number;
  /** Told the address of every new connection, by origin (`http://host:port`). */
  readonly onConnected?: (origin: string, address: string) => void;
}

/**
 * An undici connector that resolves the host itself, checks every candidate against the filter and
 * connects to a checked address, so DNS cannot answer differently between check and connect (DNS
 * rebinding). Allowed addresses are tried in turn while the network says "not this one"; the
 * request's deadline bounds the whole. TLS still uses the host name for SNI and certificate checks.
 */
export function guardedConnector(o: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: o.timeoutMs });
  return (options, callback) => {
    const name = unbracket(options.hostname);
    // Without an explicit servername undici would derive it from the address we now pass.
    const servername = options.servername || (isIP(name) === 0 ? name : undefined);
    const attempt = (addresses: readonly string[], i: number) => {
      connect({ ...options, hostname: addresses[i]!, servername }, (err: Error | null, socket) => {
        const code = (err as { code?: string } | null)?.code;
        if (err && i + 1 < addresses.length && code && TRY_NEXT.has(code)) return attempt(addresses, i + 1);
        if (err) return callback(err, null);
        o.onConnected?.(`${options.protocol}//${options.host}`, addresses[i]!);
        callback(null, socket!);
      });
    };
    allowedAddresses(options.hostname, o.filter, o.resolver).then(
      (addresses) => attempt(addresses, 0),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
}
