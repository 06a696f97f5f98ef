import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/registry.js';
import { importsOf, resolveImport, root } from '../../support/imports.js';

// What a command loads before it does anything: every file its modules import statically (dynamic
// imports wait for the line that runs them), and the packages among them. `crawler --version` took
// 1.4-2 s when run.ts imported every command; scripts/bench/cli.mjs measures the times.

const SRC = join(root, 'src');

function loadedWith(file: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string) => {
    if (files.has(f)) return;
    files.add(f);
    for (const i of importsOf(f)) {
      if (i.typeOnly || i.dynamic) continue;
      if (i.specifier.startsWith('.')) visit(resolveImport(i));
      else if (!i.specifier.startsWith('node:')) packages.add(i.specifier);
    }
  };
  visit(join(SRC, file));
  return { files: [...files].map((f) => relative(SRC, f)).sort(), packages: [...packages].sort() };
}

describe('the crawler command starts fast', () => {
  it('--help and --version load the argument parser and the command list, no command and no package', () => {
    expect(loadedWith('cli/main.ts')).toEqual({
      files: [
        'cli/command.ts',
        'cli/exit.ts',
        'cli/main.ts',
        'cli/options.ts',
        'cli/registry.ts',
        'cli/run.ts',
        'util/errors.ts',
      ],
      packages: [],
    });
  });

  it('stats and url load the OpenSearch client, not the crawl, the HTTP client or the browser', () => {
    for (const c of ['stats', 'url']) {
      const { files, packages } = loadedWith(`cli/commands/${c}.ts`);
      expect(packages, c).toEqual(['@opensearch-project/opensearch', 'tldts']);
      expect(
        files.filter(
          (f) => /^(pipeline|fetch|render|parse|protocol)\//.test(f) && f !== 'pipeline/inject.ts',
        ),
        c,
      ).toEqual([]);
    }
  });

  it('every command of the list loads, and --help shows each with its summary', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.usage, entry.name).toMatch(new RegExp(`^crawler ${entry.name}\\b`));
    }
  });
});
