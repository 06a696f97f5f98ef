import type { Client } from '@opensearch-project/opensearch';
import type { DecisionStore, HostDecision, HostRenderRecord } from '../render/advisor.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { ensureIndices, type IndexPlan } from './indices.js';

/** A record as stored: dates as ISO-8601 strings. */
type StoredRecord = Omit<HostRenderRecord, 'since' | 'decidedAt' | 'recheckAt' | 'updatedAt'> & {
  since: string;
  decidedAt?: string;
  recheckAt?: string;
  updatedAt: string;
};

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const ms = (s: unknown) => (typeof s === 'string' ? Date.parse(s) : undefined);

function toStored(r: HostRenderRecord): StoredRecord {
  return {
    ...r,
    since: iso(r.since)!,
    decidedAt: iso(r.decidedAt),
    recheckAt: iso(r.recheckAt),
    updatedAt: iso(r.updatedAt)!,
  };
}

const DECISIONS: readonly HostDecision[] = ['candidate', 'render', 'static'];

/** A stored `render` object read back; undefined when it is not one of ours. */
export function fromStored(raw: unknown): HostRenderRecord | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const s = raw as Record<string, unknown>;
  if (!DECISIONS.includes(s.decision as HostDecision)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const since = ms(s.since);
  const updatedAt = ms(s.updatedAt);
  const decidedAt = ms(s.decidedAt);
  const recheckAt = ms(s.recheckAt);
  return {
    decision: s.decision as HostDecision,
    signal: typeof s.signal === 'string' ? s.signal : '',
    samples: n(s.samples),
    gains: n(s.gains),
    failures: n(s.failures),
    textPlain: n(s.textPlain),
    textRendered: n(s.textRendered),
    newLinks: n(s.newLinks),
    reason: typeof s.reason === 'string' ? s.reason : '',
    since: since ?? 0,
    updatedAt: updatedAt ?? 0,
    ...(decidedAt === undefined ? {} : { decidedAt }),
    ...(recheckAt === undefined ? {} : { recheckAt }),
  };
}

/**
 * Render decisions in the hosts index (opensearch.hosts.index.name): document id = the host, our
 * fields under `render`, written as partial updates so that other per-host facts in the same
 * document are left alone. The index is created at the first write. Reads and writes never stop the
 * crawl: a failed read is "no record" (the host is sampled again), a failed write is logged once per
 * run of failures and the next save of that host writes its whole record again.
 */
export class RenderDecisions implements DecisionStore {
  private ready: Promise<void> | undefined;
  /** The last write of each host, so that a host's writes are applied in order. */
  private readonly chains = new Map<string, Promise<void>>();
  private failing = false;

  constructor(
    private readonly client: Client,
    /** The hosts index (indices.ts planHostsIndex), created at the first write. */
    private readonly plan: IndexPlan,
    private readonly log: Logger,
  ) {}

  get index(): string {
    return this.plan.name;
  }

  async load(host: string): Promise<HostRenderRecord | undefined> {
    try {
      const res = await this.client.get(
        { index: this.index, id: host, _source_includes: 'render' } as never,
        { ignore: [404] },
      );
      const body = res.body as { found?: boolean; _source?: { render?: unknown } };
      return body.found ? fromStored(body._source?.render) : undefined;
    } catch (e) {
      this.log.debug({ host, err: errorMessage(e) }, 'render decision not read; the host is sampled');
      return undefined;
    }
  }

  save(host: string, record: HostRenderRecord): void {
    // The record object changes after this call: what is written is what it says now.
    const doc = { host, render: toStored(record) };
    const previous = this.chains.get(host) ?? Promise.resolve();
    const next = previous.then(() => this.write(host, doc));
    this.chains.set(host, next);
    void next.finally(() => {
      if (this.chains.get(host) === next) this.chains.delete(host);
    });
  }

  /** Resolves once every write asked for so far is done (or failed). */
  async flush(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }

  private async write(host: string, doc: object): Promise<void> {
    try {
      this.ready ??= ensureIndices(this.client, [this.plan]).then(() => undefined);
      await this.ready;
      await this.client.update({
        index: this.index,
        id: host,
        retry_on_conflict: 3,
        body: { doc, doc_as_upsert: true },
      } as never);
      if (this.failing) {
        this.failing = false;
        this.log.info({ index: this.index }, 'render decisions are written again');
      }
    } catch (e) {
      this.ready = undefined;
      if (!this.failing) {
        this.failing = true;
        this.log.warn(
          { host, index: this.index, err: errorMessage(e) },
          'a render decision could not be written (kept in memory; written again with its next change)',
        );
      }
    }
  }
}

/** How many hosts hold each decision, and the rendered hosts, for `crawler stats`. */
export interface RenderSummary {
  readonly byDecision: Record<string, number>;
  readonly rendered: { host: string; signal: string; reason: string; decidedAt?: string }[];
}

/** Reads the hosts index for `crawler stats`; undefined when it does not exist (nothing decided). */
export async function renderSummary(
  client: Client,
  index: string,
  top = 10,
): Promise<RenderSummary | undefined> {
  const exists = await client.indices.exists({ index });
  if (exists.body !== true) return undefined;
  await client.indices.refresh({ index });
  const res = await client.search({
    index,
    body: {
      size: top,
      query: { term: { 'render.decision': 'render' } },
      sort: [{ 'render.decidedAt': { order: 'desc', missing: '_last' } }],
      _source: ['render'],
      aggs: { decision: { terms: { field: 'render.decision', size: 5 } } },
    } as never,
  });
  const body = res.body as unknown as {
    hits: { hits: { _id: string; _source: { render?: Record<string, unknown> } }[] };
    aggregations: { decision: { buckets: { key: string; doc_count: number }[] } };
  };
  return {
    byDecision: Object.fromEntries(body.aggregations.decision.buckets.map((b) => [b.key, b.doc_count])),
    rendered: body.hits.hits.map((h) => ({
      host: h._id,
      signal: String(h._source.render?.signal ?? ''),
      reason: String(h._source.render?.reason ?? ''),
      ...(typeof h._source.render?.decidedAt === 'string' ? { decidedAt: h._source.render.decidedAt } : {}),
    })),
  };
}

/** The stored record of one host, for `crawler url`; undefined when there is none. */
export async function hostRenderRecord(
  client: Client,
  index: string,
  host: string,
): Promise<HostRenderRecord | undefined> {
  const res = await client.get({ index, id: host, _source_includes: 'render' } as never, { ignore: [404] });
  const body = res.body as { found?: boolean; _source?: { render?: unknown } };
  return body.found ? fromStored(body._source?.render) : undefined;
}

/** One line on a host's decision, for `crawler url`. */
export function describeRecord(host: string, r: HostRenderRecord | undefined): string {
  if (!r) return `host ${host}: no render decision (no sign of script-built pages seen on it)`;
  const when = (ms: number | undefined) => (ms === undefined ? '?' : new Date(ms).toISOString());
  const round = `${r.samples} samples, ${r.gains} gained, ${r.failures} failed renders`;
  if (r.decision === 'candidate')
    return `host ${host}: candidate since ${when(r.since)} (sign ${r.signal}); ${round} so far`;
  const next =
    r.recheckAt === undefined ? 'being checked again now' : `checked again after ${when(r.recheckAt)}`;
  return `host ${host}: ${r.decision === 'render' ? 'rendered' : 'not rendered'} since ${when(r.decidedAt)}: ${r.reason} (sign ${r.signal}; ${round}); ${next}`;
}
