import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Import, importsOf, resolveImport, root, tsFiles } from '../../support/imports.js';

// The rules and the URL filters must stay replayable with a simulated clock and callable on any
// thread: nothing that touches disk, network, processes or a real logger. Packages are refused
// unless listed on purpose. (Loading urlfilters.json from disk is the filters' one I/O edge.)
const IO = [
  /^node:/,
  /^(fs|http|https|net|dns|child_process|worker_threads)$/,
  /^undici/,
  /^@opensearch-project\//,
  /^pino/,
];

interface PureModule {
  readonly name: string;
  readonly dir: string;
  readonly allowedPackages: readonly string[];
  /** Files of the folder that may do I/O; what they import is not followed. */
  readonly edges: readonly string[];
}

const MODULES: readonly PureModule[] = [
  { name: 'the rules module', dir: 'src/model', allowedPackages: [], edges: [] },
  {
    name: 'the URL filters',
    dir: 'src/urlfilters',
    // The public-suffix list, compiled into the package: no I/O.
    allowedPackages: ['tldts'],
    edges: ['src/urlfilters/load.ts', 'src/urlfilters/index.ts'],
  },
];

/** Every import of the module's files and of the modules they load at run time. */
function reachableImports(m: PureModule): Import[] {
  const edges = new Set(m.edges.map((e) => join(root, e)));
  const seen = new Set<string>();
  const queue = tsFiles(join(root, m.dir)).filter((f) => !edges.has(f));
  const all: Import[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of importsOf(file)) {
      // A package is refused even for its types; a relative type-only import loads nothing, so it is
      // not followed (src/config/schema.ts is read for its types only).
      all.push(imp);
      if (!imp.typeOnly && imp.specifier.startsWith('.')) queue.push(resolveImport(imp));
    }
  }
  return all;
}

describe.each(MODULES)('$name', (m) => {
  it('imports nothing that does I/O, directly or through the modules it uses', () => {
    const bad = reachableImports(m)
      .filter((i) => !i.specifier.startsWith('.'))
      .filter((i) => IO.some((re) => re.test(i.specifier)) || !m.allowedPackages.includes(i.specifier))
      .map((i) => `${relative(root, i.file)} imports ${i.specifier}`);
    expect(bad).toEqual([]);
  });
});

describe('the purity scanner', () => {
  it('sees the imports it must refuse', () => {
    const sample = join(root, 'test/unit/model/purity.test.ts');
    const specifiers = [...importsOf(sample), ...importsOf(join(root, 'test/support/imports.ts'))].map(
      (i) => i.specifier,
    );
    expect(specifiers).toEqual(expect.arrayContaining(['node:fs', 'node:path', 'vitest']));
    expect(reachableImports(MODULES[0]!).some((i) => i.specifier === '../util/errors.js')).toBe(true);
    // The file loader is left out of the URL filters' check, and is indeed I/O.
    const loader = importsOf(join(root, 'src/urlfilters/load.ts')).map((i) => i.specifier);
    expect(loader).toContain('node:fs');
    expect(reachableImports(MODULES[1]!).some((i) => i.specifier === 'node:fs')).toBe(false);
  });
});
