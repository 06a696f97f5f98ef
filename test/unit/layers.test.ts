import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, resolveImport, root, tsFiles } from '../support/imports.js';
import { type Layers, layerViolations, undeclared } from '../support/layers.js';

/*
 * The layers of src/, lowest first, declared here and nowhere else. A folder imports only from
 * itself and from folders on lower levels; two folders on one level never import each other. Every
 * import counts: static imports, re-exports, dynamic import() and type-only imports (a type is a
 * dependency too).
 *
 *  0 util                              no knowledge of crawling: clocks, errors, logs
 *  1 config                            the one schema of the settings
 *  2 model                             the status rules: pure, replayable (model/purity.test.ts)
 *  3 fingerprint, urlfilters, protocol pure text fingerprints; the URL filters; HTTP and robots.txt
 *  4 fetch, parse                      the fetch queues (over protocol); parsing (over urlfilters,
 *                                      fingerprint)
 *  5 pipeline                          the crawl loop: it owns its ports and their types, and
 *                                      knows none of the adapters that implement them
 *  6 soft404, tika, render, warc       features over fetch and parse, each unaware of the others
 *  7 dedup                             the page judge: near-duplicates and the soft-404 verdict
 *                                      (soft404's host profiles) in one verdict per page
 *  8 opensearch                        every index, each feature's documents in it; implements the
 *                                      loop's source and stores
 *  9 metrics                           meters of the crawl loop and the OpenSearch series
 * 10 console                           the web console and status line, over the metrics
 * 11 app                               the composition root and the use cases: builds a crawl from
 *                                      the features' builders; run, run --join, inject, the workers'
 *                                      supervisor (app/workers), init, stats, url, reset-errors
 * 12 cli                               arguments and exit codes only: no value of opensearch/ (the
 *                                      test below says so)
 *
 * As in StormCrawler, where external/opensearch depends on core and never the reverse: the loop
 * (pipeline) declares the ports, OpenSearch, dedup and tika implement them (pipeline/ports.ts).
 * A lower layer that needs something of a higher one declares a port (a small interface) that the
 * higher one implements and the composition root hands in: render/advisor.ts's DecisionStore, which
 * opensearch/render-decisions.ts implements, is one. README "Layout" says the same in prose.
 */
const LAYERS: Layers = [
  ['util'],
  ['config'],
  ['model'],
  ['fingerprint', 'urlfilters', 'protocol'],
  ['fetch', 'parse'],
  ['pipeline'],
  ['soft404', 'tika', 'render', 'warc'],
  ['dedup'],
  ['opensearch'],
  ['metrics'],
  ['console'],
  ['app'],
  ['cli'],
];

const src = join(root, 'src');
const files = tsFiles(src);
const rel = (f: string) => relative(root, f);

/** Relative imports of every src file, type-only and dynamic ones included. */
const graph = new Map<string, string[]>(
  files.map((f) => [
    f,
    importsOf(f)
      .filter((i) => i.specifier.startsWith('.'))
      .map(resolveImport),
  ]),
);

const edges = [...graph].flatMap(([from, tos]) =>
  tos.map((to) => ({ from: relative(src, from), to: relative(src, to) })),
);

/** The cycles of the import graph (Tarjan's strongly connected components of more than one file). */
function cycles(): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(rel(w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const f of files) if (!order.has(f)) visit(f);
  return found;
}

describe('layers', () => {
  it('every folder of src is on exactly one level, and every level names folders that exist', () => {
    expect(
      undeclared(
        LAYERS,
        files.map((f) => relative(src, f)),
      ),
    ).toEqual({ missing: [], extra: [] });
  });

  it('every import of every file of src follows the order of the layers', () => {
    expect(layerViolations(LAYERS, edges)).toEqual([]);
  });

  it('src/pipeline imports nothing of opensearch, dedup, soft404, render, tika or warc (its adapters)', () => {
    const adapters = ['opensearch', 'dedup', 'soft404', 'render', 'tika', 'warc'];
    const found = edges.filter(
      (e) => e.from.startsWith('pipeline/') && adapters.some((a) => e.to.startsWith(`${a}/`)),
    );
    expect(found).toEqual([]);
  });

  it('src/cli imports no value of opensearch/: the use cases in app/ do (types only are allowed)', () => {
    const found = files
      .filter((f) => relative(src, f).startsWith('cli/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i.specifier.startsWith('.') && !i.typeOnly)
          .map((i) => ({ from: relative(src, f), to: relative(src, resolveImport(i)) }))
          .filter((e) => e.to.startsWith('opensearch/')),
      );
    expect(found).toEqual([]);
    // The check sees type imports, and lets them through.
    const typed = importsOf(join(src, 'cli/commands/search.ts')).filter((i) =>
      i.specifier.includes('opensearch/'),
    );
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.every((i) => i.typeOnly)).toBe(true);
  });

  it('no import cycle between files of src', () => {
    expect(cycles()).toEqual([]);
  });

  it('the scanner sees the imports it must judge', () => {
    // The composition root imports the pipeline's own modules and the layers below it.
    const compose = graph.get(join(root, 'src/app/compose.ts'))!.map(rel);
    expect(compose).toEqual(expect.arrayContaining(['src/pipeline/crawler.ts']));
    // Re-exports and dynamic imports are imports too.
    const store = importsOf(join(root, 'src/opensearch/status-store.ts'));
    expect(store.map((i) => i.specifier)).toContain('../pipeline/ports.js');
    const language = importsOf(join(root, 'src/parse/parsefilters/language.ts')).map((i) => i.specifier);
    expect(language).toContain('eld/small');
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(500);
  });
});
