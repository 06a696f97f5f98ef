/*
 * The crawl's metrics: one small registry that every stage adds to, read in two ways: as
 * per-interval points for the metrics index (series.ts) and as the Prometheus text format
 * (prometheus.ts). A collected registry is a list of families in prom-client's JSON shape
 * (`Registry.getMetricsAsJSON()`), so that a supervisor can sum its workers' with prom-client's own
 * aggregation, and the default process metrics (prom-client) sit beside ours.
 */

/** How a supervisor combines one family over its workers (prom-client's aggregator names). */
export type Aggregator = 'sum' | 'min' | 'max' | 'first' | 'average' | 'omit';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  /** For histograms: NAME_bucket, NAME_sum, NAME_count. */
  readonly metricName?: string;
}

/** One metric with all its values: prom-client's JSON shape. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly aggregator: Aggregator;
  readonly values: readonly MetricValue[];
}

/**
 * A bounded label: the only values it takes are these, plus "other" for anything else. Labels never
 * carry a URL or a host: their values are fixed when the metric is registered.
 */
export interface LabelSet {
  readonly name: string;
  readonly values: readonly string[];
}

export const OTHER = 'other';

export interface Counter {
  inc(n?: number): void;
}

export interface LabelledCounter {
  /** `value` outside the label's set counts as "other". */
  inc(value: string, n?: number): void;
}

export interface Histogram {
  /** One observation, in the metric's unit (seconds for *_seconds). */
  observe(v: number): void;
}

export interface LabelledHistogram {
  observe(value: string, v: number): void;
}

interface Def {
  readonly name: string;
  readonly help: string;
  readonly aggregator?: Aggregator;
}

type Read = () => number;
type ReadLabelled = () => Iterable<readonly [string, number]>;

/**
 * Where a stage registers its metrics. Registering is one line; the returned handle is cheap to
 * call on the hot path (a number added), or a `read` function is called only when the registry is
 * collected (every metrics.interval, a Prometheus scrape, a console refresh), so a stage that
 * already counts pays nothing more.
 *
 * Names are Prometheus names: `crawler_` then lower case, counters ending in `_total`, durations in
 * seconds ending in `_seconds`. Their names in the metrics index come from series-names.ts
 * (StormCrawler's where it has one; otherwise the name without `crawler_` and `_total`, and a
 * label's value after a dot). Registering a name twice throws.
 */
export interface MetricsRegistry {
  counter(def: Def): Counter;
  counter(def: Def & { readonly label: LabelSet }): LabelledCounter;
  /** A counter whose total the stage keeps itself: `read` returns it when collected. */
  counterOf(def: Def, read: Read): void;
  counterOf(def: Def & { readonly label: LabelSet }, read: ReadLabelled): void;
  /** A value read when collected. */
  gauge(def: Def, read: Read): void;
  gauge(def: Def & { readonly label: LabelSet }, read: ReadLabelled): void;
  histogram(def: Def & { readonly buckets: readonly number[] }): Histogram;
  histogram(def: Def & { readonly buckets: readonly number[]; readonly label: LabelSet }): LabelledHistogram;
  /** Called once before each collection (e.g. to take one snapshot that several gauges read). */
  beforeCollect(hook: () => void): void;
  /** Every family with its current values. */
  collect(): MetricFamily[];
}

const NAME = /^crawler_[a-z][a-z0-9_]*$/;

/** The label's value for `v`: itself when in the set, "other" otherwise. */
export function bounded(label: LabelSet, v: string): string {
  return label.values.includes(v) ? v : OTHER;
}

interface Entry {
  readonly family: () => MetricFamily;
}

class HistogramState {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly buckets: readonly number[]) {
    this.counts = new Array<number>(buckets.length).fill(0);
  }
  observe(v: number): void {
    const b = this.buckets;
    for (let i = 0; i < b.length; i++) if (v <= b[i]!) this.counts[i]!++;
    this.sum += v;
    this.count++;
  }
  values(name: string, labels: Record<string, string>): MetricValue[] {
    const out: MetricValue[] = this.buckets.map((le, i) => ({
      value: this.counts[i]!,
      labels: { ...labels, le },
      metricName: `${name}_bucket`,
    }));
    out.push({ value: this.count, labels: { ...labels, le: '+Inf' }, metricName: `${name}_bucket` });
    out.push({ value: this.sum, labels, metricName: `${name}_sum` });
    out.push({ value: this.count, labels, metricName: `${name}_count` });
    return out;
  }
}

/** Sums `read`'s entries by bounded label value; the "other" bucket collects the rest. */
function boundedValues(label: LabelSet, entries: Iterable<readonly [string, number]>): MetricValue[] {
  const by = new Map<string, number>();
  for (const [k, v] of entries) {
    const b = bounded(label, k);
    by.set(b, (by.get(b) ?? 0) + v);
  }
  return [...by].map(([k, value]) => ({ value, labels: { [label.name]: k } }));
}

/** The registry of one process. */
export class Registry implements MetricsRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly hooks: (() => void)[] = [];

  private add(def: Def, type: MetricType, family: (base: Omit<MetricFamily, 'values'>) => MetricFamily) {
    if (!NAME.test(def.name)) throw new TypeError(`metric name "${def.name}" must match ${NAME}`);
    if (type === 'counter' && !def.name.endsWith('_total'))
      throw new TypeError(`counter "${def.name}" must end in _total`);
    if (this.entries.has(def.name)) throw new TypeError(`metric "${def.name}" is registered already`);
    const base = { name: def.name, help: def.help, type, aggregator: def.aggregator ?? 'sum' };
    this.entries.set(def.name, { family: () => family(base) });
  }

  counter(def: Def): Counter;
  counter(def: Def & { readonly label: LabelSet }): LabelledCounter;
  counter(def: Def & { readonly label?: LabelSet }): Counter | LabelledCounter {
    const label = def.label;
    if (label) {
      const counts = new Map<string, number>();
      this.add(def, 'counter', (b) => ({
        ...b,
        values: [...counts].map(([k, value]) => ({ value, labels: { [label.name]: k } })),
      }));
      return {
        inc(v: string, n = 1) {
          const k = bounded(label, v);
          counts.set(k, (counts.get(k) ?? 0) + n);
        },
      };
    }
    let total = 0;
    this.add(def, 'counter', (b) => ({ ...b, values: [{ value: total, labels: {} }] }));
    return {
      inc(n = 1) {
        total += n;
      },
    };
  }

  counterOf(def: Def, read: Read): void;
  counterOf(def: Def & { readonly label: LabelSet }, read: ReadLabelled): void;
  counterOf(def: Def & { readonly label?: LabelSet }, read: Read | ReadLabelled): void {
    this.read(def, 'counter', read);
  }

  gauge(def: Def, read: Read): void;
  gauge(def: Def & { readonly label: LabelSet }, read: ReadLabelled): void;
  gauge(def: Def & { readonly label?: LabelSet }, read: Read | ReadLabelled): void {
    this.read(def, 'gauge', read);
  }

  private read(def: Def & { readonly label?: LabelSet }, type: MetricType, read: Read | ReadLabelled) {
    const label = def.label;
    this.add(def, type, (b) => ({
      ...b,
      values: label
        ? boundedValues(label, (read as ReadLabelled)())
        : [{ value: (read as Read)(), labels: {} }],
    }));
  }

  histogram(def: Def & { readonly buckets: readonly number[] }): Histogram;
  histogram(def: Def & { readonly buckets: readonly number[]; readonly label: LabelSet }): LabelledHistogram;
  histogram(
    def: Def & { readonly buckets: readonly number[]; readonly label?: LabelSet },
  ): Histogram | LabelledHistogram {
    const buckets = [...def.buckets].sort((a, b) => a - b);
    const label = def.label;
    if (label) {
      const states = new Map<string, HistogramState>();
      this.add(def, 'histogram', (b) => ({
        ...b,
        values: [...states].flatMap(([k, s]) => s.values(def.name, { [label.name]: k })),
      }));
      return {
        observe(v: string, x: number) {
          const k = bounded(label, v);
          let s = states.get(k);
          if (!s) {
            s = new HistogramState(buckets);
            states.set(k, s);
          }
          s.observe(x);
        },
      };
    }
    const state = new HistogramState(buckets);
    this.add(def, 'histogram', (b) => ({ ...b, values: state.values(def.name, {}) }));
    return { observe: (x: number) => state.observe(x) };
  }

  beforeCollect(hook: () => void): void {
    this.hooks.push(hook);
  }

  collect(): MetricFamily[] {
    for (const h of this.hooks) h();
    return [...this.entries.values()].map((e) => e.family());
  }
}
