import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import type { Status } from '../../../src/model/status.js';
import { documentId, toStatusSource } from '../../../src/opensearch/status-doc.js';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { contentDocs, initIndices, testClient } from '../../support/crawl.js';
import { deleteIndices } from '../../support/opensearch.js';

// The deletion of an ERROR or REDIRECTION page's content follows its status write: a crash in
// between leaves the content behind. The crawl's reconcile removes such documents at start-up.

let names: { status: string; content: string };
let conf: string;

beforeAll(async () => {
  buildCli();
  ({ names, conf } = await initIndices('reconcile'));
}, 120_000);

afterAll(async () => {
  await deleteIndices(names.status, names.content);
});

const HOST = 'gone.example';
const YEAR = 365 * 24 * 3600_000;

/** What a crash leaves: the status written, the content document not yet deleted (or never). */
async function write(url: string, status: Status, content: { id?: string; fetchTime?: number } | null) {
  const client = testClient();
  try {
    await client.index({
      index: names.status,
      id: documentId(url),
      routing: HOST,
      refresh: true,
      body: toStatusSource({ url, status, metadata: new Metadata(), nextFetchDate: Date.now() + YEAR }, HOST),
    });
    if (content) {
      await client.index({
        index: names.content,
        id: content.id ?? documentId(url),
        refresh: true,
        body: {
          url,
          host: HOST,
          content: `text of ${url}`,
          fetchTime: new Date(content.fetchTime ?? Date.now() - 60_000).toISOString(),
        },
      });
    }
  } finally {
    await client.close();
  }
}

describe('the reconcile of the content index with the status index', () => {
  it('removes at start-up the content of ERROR and REDIRECTION URLs that a crash left, and says how many', async () => {
    const error = `https://${HOST}/error`;
    const redirected = `https://${HOST}/moved`;
    const canonical = `https://${HOST}/canonical`;
    const fetched = `https://${HOST}/kept`;
    const fresh = `https://${HOST}/refetched`;
    await write(error, 'ERROR', {});
    await write(redirected, 'REDIRECTION', {});
    // Indexed under its canonical URL's id: found by its url field.
    await write(`https://${HOST}/dup`, 'ERROR', { id: documentId(canonical) });
    await write(fetched, 'FETCHED', {});
    // Written after the pass began (a page crawled again): spared.
    await write(fresh, 'ERROR', { fetchTime: Date.now() + YEAR });
    expect((await contentDocs(names.content)).size).toBe(5);

    const run = spawnCrawler(['run', '--once', '--conf', conf, '--set', 'http.agent.name=reconcilebot']);
    expect(await run.exited).toBe(0);
    const lines = run.stderr.flatMap((l) => {
      const msg = String((JSON.parse(l) as { msg: unknown }).msg);
      return msg.startsWith('reconcile:') ? [msg] : [];
    });
    expect(lines).toEqual([
      'reconcile: removed 3 content documents whose URL is ERROR or REDIRECTION in the status index ' +
        '(opensearch.indexer.reconcile.interval)',
    ]);
    const left = await contentDocs(names.content);
    expect([...left.keys()].sort()).toEqual([documentId(fetched), documentId(fresh)].sort());
  }, 120_000);
});
