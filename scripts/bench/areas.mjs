// @ts-check
// Where the crawler's CPU goes: a V8 CPU profile (`node --cpu-prof`) of `crawler run`, each sample
// given to the nearest frame up its stack that belongs to an area (by source file), as shares of
// the profile's busy time (idle left out). Multiplied by the CPU per page measured without the
// profiler, the shares give ms per page by area.

import { readFileSync } from 'node:fs';

/** Areas, first match wins for a frame; a sample's area is that of its nearest matching frame. */
export const AREAS = /** @type {const} */ ([
  ['garbage collection', /^\(garbage collector\)/],
  [
    'transition log and logging',
    /model\/transition|pino|util\/(log|line-sink|terminal)|sonic-boom|atomic-sleep/,
  ],
  [
    'HTML parse (SAX, text, charset)',
    /htmlparser2|entities|parse\/html\/(extract|text|robots-meta|selectors)|parse\/(charset|mime|strings)/,
  ],
  ['outlinks and URL filters', /parse\/outlinks|urlfilters\/|parse\/html\/links|tldts/],
  [
    'parse glue and parse filters',
    /parse\/(dispatch|stage|results|guard|html\/page|sitemap)|parsefilters|metadata-transfer/,
  ],
  ['status path (rules, cache, documents)', /model\/|opensearch\/status-(store|doc)|internal\/crypto/],
  [
    'OpenSearch client and bulk',
    /@opensearch-project|secure-json-parse|opensearch\/(bulk-writer|spout|deleter|outage|content-store|content-doc)|hpagent/,
  ],
  [
    'fetch (undici, protocol, queues)',
    /undici|protocol\/|fetch\/|node:net|node:internal\/(stream|net|dns|abort|event_target|timers|http)|node:stream|node:events|node:zlib/,
  ],
  [
    'crawl loop and glue',
    /pipeline\/|p-queue|eventemitter3|node:internal\/process\/task_queues|runMicrotasks/,
  ],
]);

/**
 * @param {string} file a .cpuprofile
 * @returns {{ area: string, share: number }[]} shares of busy time, largest first ("other": the rest)
 */
export function areaShares(file) {
  /** @type {{ nodes: { id: number, callFrame: { functionName: string, url: string }, children?: number[] }[], samples: number[], timeDeltas: number[] }} */
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** @type {Map<number, string>} */
  const memo = new Map();
  /** @param {number} id */
  const areaOf = (id) => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    let area = 'other';
    for (let cur = /** @type {number | undefined} */ (id); cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n) break;
      if (/^\((idle|program)\)$/.test(n.callFrame.functionName)) {
        area = 'idle';
        break;
      }
      const label = `${n.callFrame.functionName} ${n.callFrame.url}`;
      const hit = AREAS.find(([, re]) => re.test(label));
      if (hit) {
        area = hit[0];
        break;
      }
    }
    memo.set(id, area);
    return area;
  };
  /** @type {Map<string, number>} */
  const sums = new Map();
  p.samples.forEach((id, i) => {
    const a = areaOf(id);
    sums.set(a, (sums.get(a) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  sums.delete('idle');
  const busy = [...sums.values()].reduce((a, b) => a + b, 0);
  return [...sums].map(([area, us]) => ({ area, share: us / busy })).sort((a, b) => b.share - a.share);
}
