import type { ConsoleState } from './state.js';

const n = (x: number) => (x >= 100 || Number.isInteger(x) ? String(Math.round(x)) : x.toFixed(1));

/** Cuts `text` to `columns - 1` characters (the last column would wrap on some terminals). */
export function fitWidth(text: string, columns: number): string {
  const max = Math.max(10, columns - 1);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The live status line of `crawler run` on a terminal: rates, what is in hand, hosts, errors and
 * OpenSearch, cut to the terminal's width.
 */
export function statusLine(s: ConsoleState, columns: number): string {
  const errors = Object.values(s.totals.errors).reduce((a, b) => a + b, 0);
  const deferred = Object.values(s.totals.deferred).reduce((a, b) => a + b, 0);
  const l = s.load;
  const os = s.opensearch;
  const parts = [
    `${n(s.rates.now.pagesPerSec)} pages/s (avg ${n(s.rates.average.pagesPerSec)})`,
    `fetched ${s.totals.fetched}`,
    `queued ${l.queued}, fetching ${l.fetching}`,
    `hosts ${l.hosts}${l.hostsBackingOff || l.hostsDown ? ` (${l.hostsBackingOff} backing off, ${l.hostsDown} down)` : ''}`,
    `errors ${errors}${deferred ? `, deferred ${deferred}` : ''}`,
    os.reachable
      ? `OpenSearch ok, ${os.writesPending} writes pending`
      : `OpenSearch UNREACHABLE ${os.unreachableSec} s`,
    ...(s.workers ? [`workers ${s.workers.running}/${s.workers.of}`] : []),
  ];
  return fitWidth(parts.join(' | '), columns);
}
