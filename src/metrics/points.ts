import type { MetricFamily, MetricValue } from './registry.js';
import { seriesName } from './series-names.js';

/** One data point of an interval, before it gets its timestamp and origin. */
export interface Point {
  readonly name: string;
  readonly value: number;
  /** StormCrawler's srcComponentId. */
  readonly component: string;
}

/** What a process's counters (and histogram sums and counts) stood at when its last interval was taken. */
export type Baseline = ReadonlyMap<string, number>;

function labelOf(v: MetricValue): string | undefined {
  const parts = Object.entries(v.labels)
    .filter(([k]) => k !== 'le')
    .map(([, x]) => String(x));
  return parts.length === 0 ? undefined : parts.join('.');
}

/**
 * The points of one interval of one process: each counter's increase since `previous` (a counter
 * lower than before means the process started again: its whole value is the increase), each
 * gauge's value, each histogram's mean over the interval (none when nothing was observed). As
 * StormCrawler's multi-count metrics do, a labelled counter is written once it has counted anything
 * (zeros after that), an unlabelled one always. `seconds` is the interval's length, for rates.
 */
export function intervalPoints(
  families: readonly MetricFamily[],
  previous: Baseline | undefined,
  seconds: number,
): { points: Point[]; baseline: Map<string, number> } {
  const points: Point[] = [];
  const baseline = new Map<string, number>();
  const increase = (key: string, now: number) => {
    baseline.set(key, now);
    const before = previous?.get(key) ?? 0;
    return now >= before ? now - before : now;
  };
  for (const f of families) {
    const s = seriesName(f.name);
    if (!s) continue;
    const scale = s.scale ?? 1;
    const push = (label: string | undefined, value: number) => {
      if (Number.isFinite(value))
        points.push({ name: s.name(label), value: value * scale, component: s.component });
    };
    if (f.type === 'gauge') {
      for (const v of f.values) push(labelOf(v), v.value);
    } else if (f.type === 'counter') {
      for (const v of f.values) {
        const label = labelOf(v);
        const delta = increase(`${f.name}|${label ?? ''}`, v.value);
        if (label !== undefined && v.value === 0) continue;
        push(label, delta);
        if (s.perSecond && seconds > 0)
          points.push({ name: s.perSecond, value: delta / seconds, component: s.component });
      }
    } else {
      const sums = new Map<string | undefined, { sum: number; count: number }>();
      for (const v of f.values) {
        const label = labelOf(v);
        const e = sums.get(label) ?? { sum: 0, count: 0 };
        if (v.metricName === `${f.name}_sum`) e.sum = increase(`${f.name}_sum|${label ?? ''}`, v.value);
        else if (v.metricName === `${f.name}_count`)
          e.count = increase(`${f.name}_count|${label ?? ''}`, v.value);
        sums.set(label, e);
      }
      for (const [label, { sum, count }] of sums) if (count > 0) push(label, sum / count);
    }
  }
  return { points, baseline };
}
