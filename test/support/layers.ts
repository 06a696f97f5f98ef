/*
 * The checker behind test/unit/layers.test.ts, kept apart so that it can be tested on a small graph
 * of its own (test/unit/support/layers.test.ts). Pure: it sees folder names and import pairs only.
 */

/** An order of layers, lowest first; each level lists the folders of src/ on it. */
export type Layers = readonly (readonly string[])[];

/** One import: the importing file and the file it names, as paths relative to src/. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** The folder of src/ a path relative to src/ belongs to ('' for a file directly in src/). */
export function folderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The level of each folder of `layers`; throws when a folder is declared twice. */
function levels(layers: Layers): Map<string, number> {
  const level = new Map<string, number>();
  layers.forEach((folders, i) => {
    for (const f of folders) {
      if (level.has(f)) throw new Error(`${f} is declared on two levels`);
      level.set(f, i);
    }
  });
  return level;
}

/**
 * The imports that break `layers`, one line each: a folder may import from itself and from folders
 * on lower levels, never from its own level nor from a higher one. A folder on no level breaks it.
 */
export function layerViolations(layers: Layers, edges: readonly ImportEdge[]): string[] {
  const level = levels(layers);
  const name = (f: string) => (f === '' ? 'src/' : f);
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b && a !== '') continue;
    const la = level.get(a);
    const lb = level.get(b);
    const where = `src/${from} imports src/${to}`;
    if (la === undefined) out.push(`${where}: ${name(a)} is on no level of the layers`);
    else if (lb === undefined) out.push(`${where}: ${name(b)} is on no level of the layers`);
    else if (lb === la)
      out.push(`${where}: ${a} and ${b} are on the same level (${la}) and may not import each other`);
    else if (lb > la) out.push(`${where}: ${a} (level ${la}) is below ${b} (level ${lb})`);
  }
  return out;
}

/** The declared folders no file is in, and the folders of `files` no level declares. */
export function undeclared(layers: Layers, files: readonly string[]): { missing: string[]; extra: string[] } {
  const declared = new Set(layers.flat());
  const present = new Set(files.map(folderOf));
  return {
    missing: [...declared].filter((f) => !present.has(f)).sort(),
    extra: [...present].filter((f) => !declared.has(f)).sort(),
  };
}
