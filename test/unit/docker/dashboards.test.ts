import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownSeriesNames } from '../../../src/metrics/series-names.js';

// No Dashboards server runs here, so the saved objects are checked for what makes a panel work on
// a crawl with the default config, opened at any moment: every reference resolves, every field a
// panel reads is mapped explicitly in mappings/ (so it exists from the first document and an index
// pattern's field list never lacks it), every aggregation has a label (no raw field names as table
// headers), and every metric name a panel of metrics* asks for is one the crawler writes.

const dir = new URL('../../../docker/dashboards/', import.meta.url);
const mappings = new URL('../../../mappings/', import.meta.url);

interface SavedObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  references: { name: string; type: string; id: string }[];
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ndjson'))
  .sort();
const objectsOf = (f: string): SavedObject[] =>
  readFileSync(new URL(f, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SavedObject);
const objects = files.flatMap(objectsOf);

/** Which mapping file an index pattern's title stands for. */
const MAPPING_OF: Record<string, string> = {
  'status*': 'status',
  content: 'content',
  'transitions*': 'transitions',
  'metrics*': 'metrics',
};

/** The fields a mapping defines explicitly, dotted (objects' properties included). */
function fieldsOf(mapping: string): Set<string> {
  return new Set(typesOf(mapping).keys());
}

type Props = Record<string, { type?: string; properties?: Record<string, unknown> }>;

/** Each leaf field of a mapping with its OpenSearch type. */
function typesOf(mapping: string): Map<string, string | undefined> {
  const m = JSON.parse(readFileSync(new URL(`${mapping}.json`, mappings), 'utf8')) as {
    mappings: { properties: Props };
  };
  const out = new Map<string, string | undefined>();
  const walk = (props: Props, prefix: string) => {
    for (const [k, v] of Object.entries(props)) {
      if (v.properties) walk(v.properties as Props, `${prefix}${k}.`);
      else out.set(`${prefix}${k}`, v.type);
    }
  };
  walk(m.mappings.properties, '');
  return out;
}

interface Agg {
  type: string;
  schema: string;
  params: { field?: string; customLabel?: string };
}

const visualizations = objects.filter((o) => o.type === 'visualization');
const visState = (o: SavedObject) =>
  JSON.parse(o.attributes.visState as string) as { aggs: Agg[]; type: string };
const query = (o: SavedObject) =>
  (
    JSON.parse((o.attributes.kibanaSavedObjectMeta as { searchSourceJSON: string }).searchSourceJSON) as {
      query: { query: string; language: string };
    }
  ).query;
const patternOf = (o: SavedObject) => objects.find((x) => x.id === o.references[0]!.id)!;

describe('OpenSearch Dashboards saved objects', () => {
  it('hold the index patterns, the Crawl status and the Crawl metrics dashboards, ids unique', () => {
    expect(files).toEqual(['crawler.ndjson', 'metrics.ndjson']);
    // The index patterns come first (crawler.ndjson is imported first): the other file refers to them.
    expect(
      objectsOf('crawler.ndjson')
        .filter((o) => o.type === 'index-pattern')
        .map((o) => o.attributes.title),
    ).toEqual(['status*', 'content', 'transitions*', 'metrics*']);
    expect(objects.filter((o) => o.type === 'dashboard').map((o) => o.attributes.title)).toEqual([
      'Crawl status (os-crawler)',
      'Crawl metrics (os-crawler)',
    ]);
    expect(new Set(objects.map((o) => o.id)).size).toBe(objects.length);
  });

  it("share no id with StormCrawler's saved objects, so that its unchanged files import beside ours", () => {
    // The ids of StormCrawler's external/opensearch archetype dashboards/{status,metrics,storm}.ndjson.
    const stormcrawler = [
      'b5c3bbd0-7337-11e9-9289-ffa3ee6775e4',
      '7445c390-7339-11e9-9289-ffa3ee6775e4',
      'Fetcher-:-#-active-threads',
      'Fetcher-:-num-queues',
      'Fetcher-:-pages-fetched',
      'Fetcher-:-URLs-waiting-in-queues',
      'Fetcher-:-average-bytes-per-second',
      'Fetcher-:-average-pages-per-second',
      'Total-bytes-fetched',
      'Crawl-metrics',
      'status-count',
      'Top-Hosts',
      'Crawl-status',
      'Storm-Receive-Queues',
      'Memory-Heap',
      'Storm-metrics',
    ];
    for (const o of objects) expect(stormcrawler, o.id).not.toContain(o.id);
    for (const o of objects) expect(o.id, o.id).toMatch(/^crawler-/);
  });

  it('index patterns carry the field list of their mapping (Dashboards need not refresh and save them on first open)', () => {
    for (const o of objects.filter((x) => x.type === 'index-pattern')) {
      const fields = JSON.parse(o.attributes.fields as string) as {
        name: string;
        esTypes?: string[];
        searchable: boolean;
        aggregatable: boolean;
      }[];
      const names = fields.map((f) => f.name);
      const types = typesOf(MAPPING_OF[o.attributes.title as string]!);
      // A field listed with another type than its mapping's reads wrongly (a keyword as a number).
      for (const f of fields)
        if (types.has(f.name))
          expect(f.esTypes?.[0], `${o.id} ${f.name}`).toBe(types.get(f.name) ?? 'object');
      expect(new Set(names), o.id).toEqual(
        new Set([
          ...fieldsOf(MAPPING_OF[o.attributes.title as string]!),
          '_id',
          '_index',
          '_score',
          '_source',
          '_type',
        ]),
      );
      for (const f of fields) {
        expect(typeof f.searchable, `${o.id} ${f.name}`).toBe('boolean');
        expect(typeof f.aggregatable, `${o.id} ${f.name}`).toBe('boolean');
      }
    }
  });

  it('charts title their axes with what they show, not "Count"; workers are named in legends', () => {
    for (const o of visualizations) {
      const v = visState(o) as unknown as {
        type: string;
        aggs: Agg[];
        params: { valueAxes?: { title: { text: string } }[]; seriesParams?: { data: { label: string } }[] };
      };
      if (!['line', 'histogram', 'area'].includes(v.type)) continue;
      const label = v.aggs.find((a) => a.schema === 'metric')!.params.customLabel;
      expect(v.params.valueAxes?.[0]?.title.text, o.id).toBe(label);
      expect(v.params.seriesParams?.[0]?.data.label, o.id).toBe(label);
    }
    const metrics = objects.find((o) => o.attributes.title === 'metrics*')!;
    const formats = JSON.parse(metrics.attributes.fieldFormatMap as string) as Record<
      string,
      { params: { labelTemplate: string } }
    >;
    expect(formats.worker?.params.labelTemplate).toBe('worker {{value}}');
  });

  it('every reference resolves to an object of the right type, within the file or an earlier one', () => {
    const seen: SavedObject[] = [];
    for (const f of files) {
      const own = objectsOf(f);
      for (const o of own) {
        for (const r of o.references) {
          expect(
            [...seen, ...own].some((x) => x.id === r.id && x.type === r.type),
            `${o.id} -> ${r.type}:${r.id}`,
          ).toBe(true);
        }
      }
      seen.push(...own);
    }
  });

  it('every visState, searchSourceJSON and panelsJSON is valid JSON, and panels name their references', () => {
    for (const o of objects) {
      const a = o.attributes as {
        visState?: string;
        panelsJSON?: string;
        kibanaSavedObjectMeta?: { searchSourceJSON: string };
      };
      if (a.visState) expect(() => JSON.parse(a.visState!), o.id).not.toThrow();
      if (a.kibanaSavedObjectMeta)
        expect(() => JSON.parse(a.kibanaSavedObjectMeta!.searchSourceJSON), o.id).not.toThrow();
      if (a.panelsJSON) {
        const panels = JSON.parse(a.panelsJSON) as { panelRefName: string }[];
        expect(panels.length, o.id).toBeGreaterThan(0);
        for (const p of panels)
          expect(
            o.references.some((r) => r.name === p.panelRefName),
            p.panelRefName,
          ).toBe(true);
      }
    }
  });

  it('every field a panel or an index pattern uses is mapped explicitly in mappings/', () => {
    for (const o of objects.filter((x) => x.type === 'index-pattern')) {
      const time = o.attributes.timeFieldName as string | undefined;
      if (time) expect(fieldsOf(MAPPING_OF[o.attributes.title as string]!).has(time), time).toBe(true);
    }
    for (const o of visualizations) {
      const fields = fieldsOf(MAPPING_OF[patternOf(o).attributes.title as string]!);
      for (const agg of visState(o).aggs) {
        const f = agg.params.field;
        if (f !== undefined) expect(fields.has(f), `${o.id} aggregates ${f}`).toBe(true);
      }
      // The fields of its query (KQL `field:value`).
      for (const m of query(o).query.matchAll(/([A-Za-z_][\w.%]*):/g))
        expect(fields.has(m[1]!), `${o.id} queries ${m[1]}`).toBe(true);
    }
  });

  it("both dashboards have a control that chooses the crawl, on a field every panel's documents carry", () => {
    const controlOf = (dashboard: SavedObject) =>
      dashboard.references
        .map((r) => objects.find((o) => o.id === r.id)!)
        .filter((o) => visState(o).type === 'input_control_vis');
    for (const dashboard of objects.filter((o) => o.type === 'dashboard')) {
      const controls = controlOf(dashboard);
      expect(controls.length, dashboard.id).toBe(1);
      const params = (visState(controls[0]!) as unknown as { params: { controls: { fieldName: string }[] } })
        .params;
      expect(params.controls.map((c) => c.fieldName)).toEqual(['crawl']);
      // An input control's filter applies to every panel: each panel's index pattern must know the
      // field (mapped, in its field list), or choosing a crawl would empty the panel.
      for (const r of dashboard.references) {
        const vis = objects.find((o) => o.id === r.id)!;
        const pattern = patternOf(vis);
        expect(fieldsOf(MAPPING_OF[pattern.attributes.title as string]!).has('crawl'), vis.id).toBe(true);
        const listed = JSON.parse(pattern.attributes.fields as string) as {
          name: string;
          aggregatable: boolean;
        }[];
        expect(listed.find((f) => f.name === 'crawl')?.aggregatable, pattern.id).toBe(true);
      }
    }
    // Crawl status's control lists the crawls of the status indices (status*), Crawl metrics' those of the series.
    const status = objects.find((o) => o.id === 'crawler-crawl-status')!;
    expect(patternOf(controlOf(status)[0]!).attributes.title).toBe('status*');
    const metrics = objects.find((o) => o.id === 'crawler-crawl-metrics')!;
    expect(patternOf(controlOf(metrics)[0]!).attributes.title).toBe('metrics*');
  });

  it('every aggregation is labelled (no raw field names as headers or legends)', () => {
    for (const o of visualizations)
      for (const agg of visState(o).aggs) expect(agg.params.customLabel, `${o.id} ${agg.type}`).toBeTruthy();
  });

  it('the panels on metrics* ask for metric names the crawler writes', () => {
    const known = knownSeriesNames();
    const written = (name: string) =>
      name.endsWith('*')
        ? known.some((k) => k.endsWith('*') && k.startsWith(name.slice(0, -1)))
        : known.includes(name) || known.some((k) => k.endsWith('*') && name.startsWith(k.slice(0, -1)));
    // The crawl control asks for no metric: it filters the others by crawl.
    const onMetrics = visualizations.filter(
      (o) => patternOf(o).attributes.title === 'metrics*' && visState(o).type !== 'input_control_vis',
    );
    expect(onMetrics.length).toBeGreaterThan(8);
    for (const o of onMetrics) {
      const names = [...query(o).query.matchAll(/name:"?([^"\s)]+)"?/g)].map((m) => m[1]!);
      expect(names.length, o.id).toBeGreaterThan(0);
      for (const n of names) expect(written(n), `${o.id} asks for ${n}`).toBe(true);
    }
    // The fetched pages of the Crawl status dashboard come from the series, not from page fetch times;
    // of the crawl its control chooses (no crawl named in the query).
    const fetched = objects.find((o) => o.id === 'crawler-fetched-over-time')!;
    expect(patternOf(fetched).attributes.title).toBe('metrics*');
    expect(query(fetched).query).toBe('name:"fetcher_counter.fetched"');
    // FETCH_ERROR by a key every FETCH_ERROR carries under the default metadata.persist.
    const fetchErrors = objects.find((o) => o.id === 'crawler-fetch-error-by-cause')!;
    expect(visState(fetchErrors).aggs.map((a) => a.params.field)).toContain('metadata.error%2Ecause');
  });
});
