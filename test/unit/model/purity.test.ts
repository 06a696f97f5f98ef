import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const modelDir = join(root, 'src/model');

// The rules must stay replayable with a simulated clock: nothing that touches disk, network,
// processes or a real logger. Packages are refused unless listed here on purpose.
const ALLOWED_PACKAGES: readonly string[] = [];
const IO = [
  /^node:/,
  /^(fs|http|https|net|dns|child_process|worker_threads)$/,
  /^undici/,
  /^@opensearch-project\//,
  /^pino/,
];

interface Import {
  readonly file: string;
  readonly specifier: string;
  readonly typeOnly: boolean;
}

const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]/g;
const BARE = /(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\b(?:import|require)\s*\(/;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(STATIC)) {
    const names = m[3] ?? '';
    const allTypes =
      /^\{[\s\S]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .every((n) => /^\s*(type\s+\S|$)/.test(n));
    out.push({ file, specifier: m[4]!, typeOnly: Boolean(m[2]) || allTypes });
  }
  for (const m of text.matchAll(BARE)) out.push({ file, specifier: m[1]!, typeOnly: false });
  if (DYNAMIC.test(text)) out.push({ file, specifier: '<dynamic import or require>', typeOnly: false });
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every import of src/model and of the modules it loads at run time. */
function reachableImports(): Import[] {
  const seen = new Set<string>();
  const queue = tsFiles(modelDir);
  const all: Import[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of importsOf(file)) {
      // A package is refused even for its types; a relative type-only import loads nothing, so it is
      // not followed (src/config/schema.ts is read for its types only).
      all.push(imp);
      if (!imp.typeOnly && imp.specifier.startsWith('.')) {
        queue.push(resolve(dirname(file), imp.specifier.replace(/\.js$/, '.ts')));
      }
    }
  }
  return all;
}

describe('the rules module', () => {
  it('imports nothing that does I/O, directly or through the modules it uses', () => {
    const bad = reachableImports()
      .filter((i) => !i.specifier.startsWith('.'))
      .filter((i) => IO.some((re) => re.test(i.specifier)) || !ALLOWED_PACKAGES.includes(i.specifier))
      .map((i) => `${relative(root, i.file)} imports ${i.specifier}`);
    expect(bad).toEqual([]);
  });

  it('the scanner sees the imports it must refuse', () => {
    const sample = join(root, 'test/unit/model/purity.test.ts');
    const specifiers = importsOf(sample).map((i) => i.specifier);
    expect(specifiers).toEqual(expect.arrayContaining(['node:fs', 'node:path', 'vitest']));
    expect(reachableImports().some((i) => i.specifier === '../util/errors.js')).toBe(true);
  });
});
