import type { FetchProtocol } from '../fetch/ports.js';
import { FetchException } from '../protocol/http/errors.js';

/*
 * A member of an elastic crawl fetches only while its leases are fresh: a process frozen past its
 * TTL (SIGSTOP, a suspended machine) wakes with URLs in its queues whose shards another member may
 * crawl now. Writes are fenced already (opensearch/fence.ts); this fences the requests to the hosts,
 * so that a host is never fetched by two machines within its delay.
 */

/** `protocol`, asking `gate` before each fetch; unchanged without a gate. */
export function gatedProtocol(
  protocol: FetchProtocol,
  gate: (() => true | Promise<boolean>) | undefined,
): FetchProtocol {
  if (!gate) return protocol;
  const refuse = () => {
    // The fetch fails; its status update is fenced too, so the URL keeps its state and comes back.
    throw new FetchException(
      'lease_lost',
      'LEASE_LOST',
      "this member's lease on the URL's status shard was lost: not fetched",
    );
  };
  const gated: FetchProtocol = {
    fetch(url, metadata) {
      const ok = gate();
      if (ok === true) return protocol.fetch(url, metadata);
      return ok.then((fresh) => (fresh ? protocol.fetch(url, metadata) : refuse()));
    },
  };
  if (protocol.reportTo) gated.reportTo = (sink) => protocol.reportTo!(sink);
  return gated;
}
