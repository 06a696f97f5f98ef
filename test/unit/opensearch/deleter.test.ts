import type { Client } from '@opensearch-project/opensearch';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { BulkWriter } from '../../../src/opensearch/bulk-writer.js';
import { ContentDeleter } from '../../../src/opensearch/deleter.js';

// Only the deleter's own bookkeeping: what it does when more URLs wait for their delete-by-query
// than it keeps. The deletions themselves are tested against OpenSearch (integration/opensearch).

describe('content deletion by url beyond what the deleter keeps', () => {
  it('counts every URL left to the reconcile and says so in one line, not one per URL', async () => {
    const lines: { level: number; msg: string; dropped?: number }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    // A cluster that does not answer the delete-by-query: the URLs pile up.
    const client = { deleteByQuery: () => new Promise(() => {}) } as unknown as Client;
    const bulk = { add: async () => ({ ok: true, status: 200 }) } as unknown as BulkWriter;
    const deleter = new ContentDeleter({ client, bulk, index: 'content' }, log);
    for (let i = 0; i < 10_500; i++) deleter.delete(`http://a.test/p${i}`);
    expect(deleter.dropped).toBe(500);
    const warned = lines.filter((l) => l.level === 40);
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toContain('left to the reconcile');
    deleter.close();
    expect(lines.at(-1)).toMatchObject({ dropped: 500 });
  });
});
