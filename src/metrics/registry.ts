import {
  Counter as PromCounter,
  Gauge as PromGauge,
  Histogram as PromHistogram,
  Registry as PromRegistry,
} from 'prom-client';

/*
 * The crawl's metrics: every stage registers its metrics here, and each lives in prom-client's
 * Registry, the one model of a metric. It is read in two ways: as per-interval points for the
 * metrics index (series.ts) and as the Prometheus text format (prometheus.ts), both from one
 * `collect()` (prom-client's `getMetricsAsJSON()`), so that the series and /metrics can never
 * disagree. A collected registry is a list of families in prom-client's JSON shape, so that a
 * supervisor can sum its workers' with prom-client's own aggregation, and the default process
 * metrics (prom-client) sit beside ours.
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

/** A metric's definition, with its label if it has one. */
export type MetricDef = Def & { readonly label?: LabelSet };
type Read = () => number;
type ReadLabelled = () => Iterable<readonly [string, number]>;
/** What a read metric returns when collected: one value, or values by label value (labelled). */
export type MetricRead = Read | ReadLabelled;

/**
 * Where a stage registers its metrics. Registering is one line; the returned handle is cheap to
 * call on the hot path (a prom-client child bound to its label value once), or a `read` function is
 * called only when the registry is collected (every metrics.interval, a Prometheus scrape, a console refresh), so a stage that
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
  /** `counterOf` or `gauge` by `type`, for a table of read metrics (a labelled `def` reads pairs). */
  readOf(type: 'counter' | 'gauge', def: MetricDef, read: MetricRead): void;
  histogram(def: Def & { readonly buckets: readonly number[] }): Histogram;
  histogram(def: Def & { readonly buckets: readonly number[]; readonly label: LabelSet }): LabelledHistogram;
  /** Called once before each collection (e.g. to take one snapshot that several gauges read). */
  beforeCollect(hook: () => void): void;
  /** Every family with its current values (prom-client's `getMetricsAsJSON()`, after the hooks). */
  collect(): Promise<MetricFamily[]>;
}

const NAME = /^crawler_[a-z][a-z0-9_]*$/;

/** The label's value for `v`: itself when in the set, "other" otherwise. */
export function bounded(label: LabelSet, v: string): string {
  return label.values.includes(v) ? v : OTHER;
}

/**
 * The child of a labelled metric for each bounded value, made on first use and kept: prom-client
 * binds the label once (`labels()`), and a hot path pays one Set and one Map lookup per call. At
 * most one child per value of the set, plus "other".
 */
function childOf<C>(label: LabelSet, make: (value: string) => C): (v: string) => C {
  const allowed = new Set(label.values);
  const made = new Map<string, C>();
  return (v) => {
    const k = allowed.has(v) ? v : OTHER;
    let c = made.get(k);
    if (c === undefined) {
      c = make(k);
      made.set(k, c);
    }
    return c;
  };
}

/** Sums `read`'s entries by bounded label value; the "other" bucket collects the rest. */
function boundedSums(label: LabelSet, entries: Iterable<readonly [string, number]>): Map<string, number> {
  const by = new Map<string, number>();
  for (const [k, v] of entries) {
    const b = bounded(label, k);
    by.set(b, (by.get(b) ?? 0) + v);
  }
  return by;
}

/** A counter only grows: what a stage reads is taken as is, a negative or broken value as 0. */
const count = (v: number) => (Number.isFinite(v) && v > 0 ? v : 0);

/** The registry of one process: a prom-client Registry of its own (never the global one). */
export class Registry implements MetricsRegistry {
  /** Where every metric lives; read only through `collect` (which runs the hooks first). */
  private readonly prom = new PromRegistry();
  private readonly hooks: (() => void)[] = [];

  /** prom-client's configuration of a metric, after our naming rules. */
  private config(def: MetricDef, type: MetricType) {
    if (!NAME.test(def.name)) throw new TypeError(`metric name "${def.name}" must match ${NAME}`);
    if (type === 'counter' && !def.name.endsWith('_total'))
      throw new TypeError(`counter "${def.name}" must end in _total`);
    if (this.prom.getSingleMetric(def.name))
      throw new TypeError(`metric "${def.name}" is registered already`);
    return {
      name: def.name,
      // prom-client wants a help text; tests register some without one.
      help: def.help || def.name,
      aggregator: def.aggregator ?? 'sum',
      labelNames: def.label ? [def.label.name] : [],
      registers: [this.prom],
    };
  }

  counter(def: Def): Counter;
  counter(def: Def & { readonly label: LabelSet }): LabelledCounter;
  counter(def: MetricDef): Counter | LabelledCounter {
    const c = new PromCounter(this.config(def, 'counter'));
    const label = def.label;
    if (!label) return { inc: (n = 1) => c.inc(n) };
    const child = childOf(label, (k) => c.labels(k));
    return { inc: (v: string, n = 1) => child(v).inc(n) };
  }

  counterOf(def: Def, read: Read): void;
  counterOf(def: Def & { readonly label: LabelSet }, read: ReadLabelled): void;
  counterOf(def: MetricDef, read: MetricRead): void {
    this.readOf('counter', def, read);
  }

  gauge(def: Def, read: Read): void;
  gauge(def: Def & { readonly label: LabelSet }, read: ReadLabelled): void;
  gauge(def: MetricDef, read: MetricRead): void {
    this.readOf('gauge', def, read);
  }

  /** Each collection replaces the metric's values with what `read` returns then, bounded. */
  readOf(type: 'counter' | 'gauge', def: MetricDef, read: MetricRead): void {
    const label = def.label;
    const fill = (put: (labels: Record<string, string>, v: number) => void) => {
      if (!label) put({}, (read as Read)());
      else for (const [k, v] of boundedSums(label, (read as ReadLabelled)())) put({ [label.name]: k }, v);
    };
    const config = this.config(def, type);
    if (type === 'counter') {
      new PromCounter({
        ...config,
        collect() {
          this.reset();
          fill((labels, v) => this.inc(labels, count(v)));
        },
      });
    } else {
      new PromGauge({
        ...config,
        collect() {
          this.reset();
          fill((labels, v) => this.set(labels, v));
        },
      });
    }
  }

  histogram(def: Def & { readonly buckets: readonly number[] }): Histogram;
  histogram(def: Def & { readonly buckets: readonly number[]; readonly label: LabelSet }): LabelledHistogram;
  histogram(def: MetricDef & { readonly buckets: readonly number[] }): Histogram | LabelledHistogram {
    const h = new PromHistogram({
      ...this.config(def, 'histogram'),
      buckets: [...def.buckets].sort((a, b) => a - b),
    });
    const label = def.label;
    if (!label) {
      // Bound once: prom-client's observe(v) would build its closure on every call.
      const bound = h.labels();
      return { observe: (x: number) => bound.observe(x) };
    }
    const child = childOf(label, (k) => h.labels(k));
    return { observe: (v: string, x: number) => child(v).observe(x) };
  }

  beforeCollect(hook: () => void): void {
    this.hooks.push(hook);
  }

  async collect(): Promise<MetricFamily[]> {
    for (const h of this.hooks) h();
    const families = (await this.prom.getMetricsAsJSON()) as unknown as MetricFamily[];
    return families.map((f) => (f.type === 'histogram' ? { ...f, values: f.values.map(leLast) } : f));
  }
}

/**
 * A histogram's value as the crawl has always served it: `le` after the metric's own label (the
 * /metrics text keeps its label order), without prom-client's exemplar slot (never enabled here).
 */
function leLast(v: MetricValue): MetricValue {
  const { le, ...labels } = v.labels;
  return {
    value: v.value,
    labels: le === undefined ? labels : { ...labels, le },
    ...(v.metricName === undefined ? {} : { metricName: v.metricName }),
  };
}
