import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOPOLOGY } from '../../src/pipeline/topology.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const ci = readFileSync(new URL('.ci/run', root), 'utf8');

describe('README quick start', () => {
  it('has exactly two command lines, the crawl and the tests', () => {
    const quick = readme.split('## Quick start')[1]!.split('\n## ')[0]!;
    const lines = [...quick.matchAll(/```sh\n([^`]*)```/g)].map((m) => m[1]!.trim());
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^npm ci && npx crawler /);
    expect(lines[1]).toBe('npm ci && npm test');
  });

  it('.ci/run runs the README test line verbatim', () => {
    const quick = readme.split('## Quick start')[1]!;
    const testLine = [...quick.matchAll(/```sh\n([^`]*)```/g)].map((m) => m[1]!.trim())[1]!;
    expect(ci).toContain(testLine);
  });
});

describe('README diagram', () => {
  it('is the one crawler topology prints', () => {
    expect(readme).toContain(TOPOLOGY);
  });
});

describe('README layout table', () => {
  const table = readme.split('## Layout')[1]!.split('\n## ')[0]!;
  const named = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);

  it('names folders that exist', () => {
    const missing = named.filter((f) => !existsSync(new URL(f, root)));
    expect(missing).toEqual([]);
  });

  it('names every folder of src/', () => {
    const folders = readdirSync(new URL('src/', root), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`);
    expect(folders.filter((f) => !named.includes(f))).toEqual([]);
    expect(folders.length).toBeGreaterThan(5);
  });
});
