import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../../docker/dashboards/', import.meta.url);
const mappings = new URL('../../../mappings/', import.meta.url);

interface SavedObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  references: { name: string; type: string; id: string }[];
}

const objects: SavedObject[] = readdirSync(dir)
  .filter((f) => f.endsWith('.ndjson'))
  .flatMap((f) =>
    readFileSync(new URL(f, dir), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as SavedObject),
  );

/** Which mapping file an index pattern's title stands for. */
const MAPPING_OF: Record<string, string> = {
  status: 'status',
  content: 'content',
  'transitions*': 'transitions',
};

function fieldsOf(mapping: string): { fields: Set<string>; dynamicPrefixes: string[] } {
  const m = JSON.parse(readFileSync(new URL(`${mapping}.json`, mappings), 'utf8')) as {
    mappings: {
      properties: Record<string, unknown>;
      dynamic_templates?: { [k: string]: { path_match: string } }[];
    };
  };
  const dynamicPrefixes = (m.mappings.dynamic_templates ?? []).map((t) =>
    Object.values(t)[0]!.path_match.replace('*', ''),
  );
  return { fields: new Set(Object.keys(m.mappings.properties)), dynamicPrefixes };
}

describe('OpenSearch Dashboards saved objects', () => {
  it('parse, and include the index patterns, the visualizations and the Crawl status dashboard', () => {
    expect(objects.filter((o) => o.type === 'index-pattern').map((o) => o.attributes.title)).toEqual([
      'status',
      'content',
      'transitions*',
    ]);
    expect(objects.filter((o) => o.type === 'visualization')).toHaveLength(7);
    expect(objects.find((o) => o.type === 'dashboard')?.attributes.title).toBe('Crawl status');
    expect(new Set(objects.map((o) => o.id)).size).toBe(objects.length);
  });

  it('every reference resolves to an object of the right type', () => {
    for (const o of objects) {
      for (const r of o.references) {
        expect(
          objects.some((x) => x.id === r.id && x.type === r.type),
          `${o.id} -> ${r.type}:${r.id}`,
        ).toBe(true);
      }
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
        for (const p of panels)
          expect(
            o.references.some((r) => r.name === p.panelRefName),
            p.panelRefName,
          ).toBe(true);
      }
    }
  });

  it('every field a visualization or index pattern uses exists in our mappings', () => {
    for (const o of objects) {
      if (o.type === 'index-pattern') {
        const time = o.attributes.timeFieldName as string | undefined;
        if (time)
          expect(fieldsOf(MAPPING_OF[o.attributes.title as string]!).fields.has(time), time).toBe(true);
      }
      if (o.type !== 'visualization') continue;
      const pattern = objects.find((x) => x.id === o.references[0]!.id)!;
      const { fields, dynamicPrefixes } = fieldsOf(MAPPING_OF[pattern.attributes.title as string]!);
      const vis = JSON.parse(o.attributes.visState as string) as { aggs: { params: { field?: string } }[] };
      for (const agg of vis.aggs) {
        const f = agg.params.field;
        if (f === undefined) continue;
        const known = fields.has(f) || dynamicPrefixes.some((p) => f.startsWith(p));
        expect(known, `${o.id} uses ${f}`).toBe(true);
      }
    }
  });
});
