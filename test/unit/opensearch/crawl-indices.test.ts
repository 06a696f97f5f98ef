import { describe, expect, it } from 'vitest';
import { createdLine } from '../../../src/opensearch/crawl-indices.js';

describe('indices created by a crawl', () => {
  const created = [
    { role: 'status', name: 'statsu', action: 'created' },
    { role: 'content', name: 'content', action: 'created' },
  ] as const;

  it('are named, with the other status indices closest to the name first (a mistyped name shows)', () => {
    const others = [
      { name: 'zzz-other', docs: 5 },
      { name: 'status', docs: 1234 },
      { name: 'demo-status', docs: 9 },
    ];
    expect(createdLine(created, 'statsu', others)).toBe(
      'created the indices "statsu" (status), "content" (content): a new crawl, while this cluster holds other ' +
        'status indices: "status" (1234 URLs), "demo-status" (9 URLs), "zzz-other" (5 URLs); if you meant one of ' +
        'them, stop and set opensearch.status.index.name',
    );
    expect(createdLine(created, 'statsu', [])).toBe(
      'created the indices "statsu" (status), "content" (content): a new crawl',
    );
    const many = Array.from({ length: 8 }, (_, i) => ({ name: `s${i}`, docs: i }));
    expect(createdLine(created, 'statsu', many)).toMatch(/ and 3 more; if you meant/);
  });
});
