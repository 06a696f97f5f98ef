import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, tsFiles } from '../support/imports.js';
import { configHoldersOf, signaturesOf } from '../support/signatures.js';

/*
 * Issue 44: one settings object per crawl, built from the configuration once in app/ and handed
 * down in parts; option objects instead of long positional lists. Outside app/ (the composition
 * root) and config/ (the schema), no function takes the whole `Config`; and no function takes more
 * than MAX_PARAMS positional parameters.
 */
const MAX_PARAMS = 4;
const src = join(root, 'src');
const all = tsFiles(src).flatMap(signaturesOf);
const folder = (at: string) => relative('src', at).split('/')[0];
const outsideRoot = (at: string) => !['app', 'config'].includes(folder(at)!);

describe('signatures of src/', () => {
  it('outside app/ and config/, no function takes the whole Config', () => {
    const found = all.filter((s) => s.takesConfig && outsideRoot(s.at));
    expect(found.map((s) => `${s.at} ${s.name}`)).toEqual([]);
  });

  it('outside app/ and config/, no property or type assertion holds the whole Config', () => {
    const found = tsFiles(src)
      .flatMap(configHoldersOf)
      .filter((at) => outsideRoot(at));
    expect(found).toEqual([]);
  });

  it(`no function takes more than ${MAX_PARAMS} parameters`, () => {
    const found = all.filter((s) => s.params > MAX_PARAMS);
    expect(found.map((s) => `${s.at} ${s.name} (${s.params})`)).toEqual([]);
  });

  it('reads the signatures it checks (a file of known shape)', () => {
    const settings = signaturesOf(join(src, 'app/settings.ts'));
    expect(settings.find((s) => s.name === 'crawlSettings')).toMatchObject({ params: 2, takesConfig: true });
    expect(configHoldersOf(join(src, 'app/feature.ts'))).toEqual([]);
    expect(signaturesOf(join(src, 'opensearch/client.ts')).find((s) => s.name === 'connect')).toMatchObject({
      params: 3,
      takesConfig: false,
    });
  });
});
