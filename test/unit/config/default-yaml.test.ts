import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { coerce, type KeyDef } from '../../../src/config/define.js';
import { KEYS } from '../../../src/config/schema.js';

const yamlPath = new URL('../../../conf/crawler-default.yaml', import.meta.url);
const text = readFileSync(yamlPath, 'utf8');
const doc = parse(text) as Record<string, unknown>;

describe('conf/crawler-default.yaml', () => {
  it('lists every key the code knows', () => {
    const missing = Object.keys(KEYS).filter((k) => !(k in doc));
    expect(missing).toEqual([]);
  });

  it('lists no key the code does not know', () => {
    const unknown = Object.keys(doc).filter((k) => !(k in KEYS));
    expect(unknown).toEqual([]);
  });

  it("gives each key the code's default", () => {
    const differing = Object.entries(KEYS as Record<string, KeyDef>)
      .filter(([k]) => k in doc)
      .map(([k, def]) => {
        const parsed = coerce(def, doc[k]);
        return { k, yaml: parsed.ok ? parsed.value : `invalid: ${doc[k]}`, code: def.default };
      })
      .filter(({ yaml, code }) => JSON.stringify(yaml) !== JSON.stringify(code));
    expect(differing).toEqual([]);
  });

  it('comments every key', () => {
    const lines = text.split('\n');
    const uncommented = lines
      .map((line, i) => ({ line, prev: lines[i - 1] ?? '' }))
      .filter(({ line }) => /^[A-Za-z_][\w.]*:/.test(line))
      .filter(({ prev }) => !prev.startsWith('#') && !/^[A-Za-z_][\w.]*:/.test(prev))
      .map(({ line }) => line.split(':')[0]);
    expect(uncommented).toEqual([]);
  });
});
