import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Import {
  readonly file: string;
  readonly specifier: string;
  readonly typeOnly: boolean;
  /** `import('x')` or `require('x')`: loaded when that line runs, not with the file. */
  readonly dynamic?: boolean;
}

// The names between `import` and `from` hold no quote: a string that merely says "from" ends no import.
const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'"]*?)\s*from\s*['"]([^'"]+)['"]/g;
const BARE = /(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
/** `import('x')` / `require('x')`; one with a computed argument has no specifier to read. */
const DYNAMIC = /\b(?:import|require)\s*\(\s*(?:['"]([^'"]+)['"]\s*\))?/g;

/** The imports and re-exports of one source file, as written. */
export function importsOf(file: string): Import[] {
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
  for (const m of text.matchAll(DYNAMIC))
    out.push({ file, specifier: m[1] ?? '<dynamic import or require>', typeOnly: false, dynamic: true });
  return out;
}

/** Every .ts file under `dir`. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The file a relative specifier names (`./x.js` is the source `./x.ts`). */
export function resolveImport(i: Import): string {
  return resolve(dirname(i.file), i.specifier.replace(/\.js$/, '.ts'));
}
