import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { main } from '../../src/cli/run.js';
import { buildConfig } from '../../src/config/load.js';
import { KEYS } from '../../src/config/schema.js';
import { createClient } from '../../src/opensearch/client.js';
import { isolationSettings, opensearchUrl, uniqueIndexNames } from './opensearch.js';

/** Settings that let a crawl of loopback test sites finish in seconds. */
export function fastCrawlSettings(names: { status: string; content: string }): Record<string, unknown> {
  return {
    'opensearch.addresses': opensearchUrl(),
    'opensearch.status.index.name': names.status,
    'opensearch.indexer.index.name': names.content,
    ...isolationSettings(names),
    'opensearch.status.shards': 2,
    'opensearch.indexer.shards': 1,
    'http.agent.name': 'endtoendbot',
    'http.filter.ipaddress.exclude': [],
    'http.timeout': 1000,
    'fetcher.server.delay': 0.05,
    'spout.min.delay.queries': 50,
    'spout.ttl.purgatory': 2,
    'opensearch.status.flushInterval': '100ms',
    'opensearch.indexer.flushInterval': '100ms',
    // Test crawls run side by side: none takes the console's port (tests of the console set one).
    'console.port': 0,
  };
}

/** `metadata.persist` as the defaults have it, plus `keys`: a test that needs more keeps the defaults. */
export function persistAlso(...keys: string[]): string[] {
  return [...KEYS['metadata.persist'].default, ...keys];
}

/** Writes a config file for the crawl, so child processes and in-process runs read the same. */
export function writeConf(settings: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'crawler-e2e-'));
  const path = join(dir, 'crawl.yaml');
  writeFileSync(path, stringify(settings));
  return path;
}

/**
 * A config on fresh one-shard indices that `crawler init` has created, for tests of the command
 * line: call in `beforeAll`, and delete `names` in `afterAll`.
 */
export async function initIndices(
  label: string,
): Promise<{ names: { status: string; content: string }; conf: string }> {
  const names = uniqueIndexNames(label);
  const conf = writeConf({
    'opensearch.addresses': opensearchUrl(),
    'opensearch.status.index.name': names.status,
    'opensearch.indexer.index.name': names.content,
    ...isolationSettings(names),
    'opensearch.status.shards': 1,
    'opensearch.indexer.shards': 1,
    'console.port': 0,
  });
  const init = await crawler('init', '--conf', conf);
  if (init.code !== 0) throw new Error(`crawler init failed (${init.code}): ${init.err.join('\n')}`);
  return { names, conf };
}

/** Runs one crawler command in this process; returns its exit code and output lines. */
export async function crawler(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--log-level', process.env.E2E_LOG ?? 'silent'], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

export function testClient() {
  return createClient(
    buildConfig([{ source: 'test', entries: { 'opensearch.addresses': opensearchUrl() } }]).config,
  ).client;
}

/** Simulated time: every scheduled URL of the index becomes due now (its nextFetchDate moves back). */
export async function makeEverythingDue(index: string): Promise<void> {
  const client = testClient();
  try {
    await client.updateByQuery({
      index,
      refresh: true,
      conflicts: 'proceed',
      body: {
        query: { exists: { field: 'nextFetchDate' } },
        script: { source: "ctx._source.nextFetchDate = '2000-01-01T00:00:00.000Z'", lang: 'painless' },
      },
    });
  } finally {
    await client.close();
  }
}

export interface StatusDocView {
  status: string;
  metadata: Record<string, string[]>;
  nextFetchDate?: string;
  key: string;
  id: string;
}

/** Every status document by URL, metadata keys decoded. */
export async function statusDocs(index: string): Promise<Map<string, StatusDocView>> {
  const client = testClient();
  try {
    await client.indices.refresh({ index });
    const res = await client.search({ index, body: { size: 1000, query: { match_all: {} } } });
    const out = new Map<string, StatusDocView>();
    for (const hit of res.body.hits.hits as { _id: string; _source: Record<string, unknown> }[]) {
      const s = hit._source as {
        url: string;
        status: string;
        key: string;
        nextFetchDate?: string;
        metadata: Record<string, string[]>;
      };
      const metadata = Object.fromEntries(
        Object.entries(s.metadata ?? {}).map(([k, v]) => [k.replaceAll('%2E', '.'), v]),
      );
      out.set(s.url, { status: s.status, metadata, nextFetchDate: s.nextFetchDate, key: s.key, id: hit._id });
    }
    return out;
  } finally {
    await client.close();
  }
}

/** Content documents by id. */
export async function contentDocs(index: string): Promise<Map<string, Record<string, unknown>>> {
  const client = testClient();
  try {
    await client.indices.refresh({ index });
    const res = await client.search({ index, body: { size: 1000, query: { match_all: {} } } });
    return new Map(
      (res.body.hits.hits as { _id: string; _source: Record<string, unknown> }[]).map((h) => [
        h._id,
        h._source,
      ]),
    );
  } finally {
    await client.close();
  }
}
