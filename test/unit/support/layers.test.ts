import { describe, expect, it } from 'vitest';
import { folderOf, layerViolations, undeclared } from '../../support/layers.js';

// The checker of test/unit/layers.test.ts on a small graph of its own.
const layers = [['util'], ['fetch', 'parse'], ['pipeline']];

describe('layerViolations', () => {
  it('lets a folder import itself and lower levels', () => {
    const edges = [
      { from: 'pipeline/a.ts', to: 'fetch/b.ts' },
      { from: 'pipeline/a.ts', to: 'util/c.ts' },
      { from: 'fetch/b.ts', to: 'fetch/sub/d.ts' },
      { from: 'parse/e.ts', to: 'util/c.ts' },
    ];
    expect(layerViolations(layers, edges)).toEqual([]);
  });

  it('refuses an import of a higher level', () => {
    expect(layerViolations(layers, [{ from: 'util/c.ts', to: 'pipeline/a.ts' }])).toEqual([
      'src/util/c.ts imports src/pipeline/a.ts: util (level 0) is below pipeline (level 2)',
    ]);
  });

  it('refuses an import between two folders of one level', () => {
    expect(layerViolations(layers, [{ from: 'parse/e.ts', to: 'fetch/b.ts' }])).toEqual([
      'src/parse/e.ts imports src/fetch/b.ts: parse and fetch are on the same level (1) and may not import each other',
    ]);
  });

  it('refuses a folder on no level, and a file directly in src', () => {
    expect(
      layerViolations(layers, [
        { from: 'extra/x.ts', to: 'util/c.ts' },
        { from: 'util/c.ts', to: 'loose.ts' },
      ]),
    ).toEqual([
      'src/extra/x.ts imports src/util/c.ts: extra is on no level of the layers',
      'src/util/c.ts imports src/loose.ts: src/ is on no level of the layers',
    ]);
  });

  it('refuses a folder declared on two levels', () => {
    expect(() => layerViolations([['util'], ['util']], [])).toThrow('util is declared on two levels');
  });
});

describe('undeclared', () => {
  it('names the declared folders without files and the folders no level declares', () => {
    expect(undeclared(layers, ['util/a.ts', 'fetch/b.ts', 'parse/c.ts', 'cli/d.ts'])).toEqual({
      missing: ['pipeline'],
      extra: ['cli'],
    });
    expect(folderOf('fetch/sub/d.ts')).toBe('fetch');
  });
});
