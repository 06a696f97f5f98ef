import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, resolveImport, root, tsFiles } from '../support/imports.js';

// The direction of dependencies: the pipeline wires the layers together through its ports, so the
// layers it wires never reach back into it. And no two files depend on each other, even through
// others: a cycle makes the load order matter and the layers blur.

const files = tsFiles(join(root, 'src'));
const rel = (f: string) => relative(root, f);

/** Relative imports of every src file, type-only ones included (types are dependencies too). */
const graph = new Map<string, string[]>(
  files.map((f) => [
    f,
    importsOf(f)
      .filter((i) => i.specifier.startsWith('.'))
      .map(resolveImport),
  ]),
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
  it.each(['src/opensearch', 'src/parse'])('no module in %s imports src/pipeline', (dir) => {
    const pipeline = join(root, 'src/pipeline');
    const bad = files
      .filter((f) => f.startsWith(join(root, dir)))
      .flatMap((f) =>
        (graph.get(f) ?? []).filter((t) => t.startsWith(pipeline)).map((t) => `${rel(f)} -> ${rel(t)}`),
      );
    expect(bad).toEqual([]);
  });

  it('no import cycle between files of src', () => {
    expect(cycles()).toEqual([]);
  });

  it('the scanner sees the imports it must refuse', () => {
    // The composition root imports the pipeline's own modules and the layers below it.
    const compose = graph.get(join(root, 'src/app/compose.ts'))!.map(rel);
    expect(compose).toEqual(
      expect.arrayContaining(['src/pipeline/crawler.ts', 'src/opensearch/spout/spout.ts']),
    );
    expect(files.length).toBeGreaterThan(100);
  });
});
