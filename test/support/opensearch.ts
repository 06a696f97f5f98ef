import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { buildConfig, type Layer } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { createClient } from '../../src/opensearch/client.js';

/** The URL of the OpenSearch node the global setup found or started. */
export function opensearchUrl(): string {
  return inject('opensearchUrl');
}

/** Index names no other test file uses; lowercase as OpenSearch requires. */
export function uniqueIndexNames(label: string): { status: string; content: string } {
  const id = `${label}-${randomBytes(3).toString('hex')}`.toLowerCase();
  return { status: `test-${id}-status`, content: `test-${id}-content` };
}

/**
 * The hosts index that goes with a file's index names (soft-404 probes write per-host documents
 * there; test files crawl the same loopback hosts, so each needs its own).
 */
export function hostsIndexOf(names: { status: string }): string {
  return names.status.replace(/-status$/, '-hosts');
}

/**
 * Per-file settings every test config carries: its own hosts index, soft-404 probes off (they fetch
 * URLs of their own, which tests of other features do not expect) and near-duplicates off (test
 * sites are made of short generated pages that differ by a number, which dedup.mode skip rightly
 * leaves out of the content index). test/integration/dedup turns each on.
 */
export function isolationSettings(names: { status: string }): Record<string, unknown> {
  return {
    'opensearch.hosts.index.name': hostsIndexOf(names),
    'soft404.enabled': false,
    'dedup.mode': 'off',
  };
}

/** A config pointing at the test node with this file's own index names. */
export function testConfig(
  names: { status: string; content: string },
  entries: Record<string, unknown> = {},
): Config {
  const layer: Layer = {
    source: 'test',
    entries: {
      'opensearch.addresses': opensearchUrl(),
      'opensearch.status.index.name': names.status,
      'opensearch.indexer.index.name': names.content,
      'opensearch.status.shards': 2,
      'opensearch.indexer.shards': 1,
      ...isolationSettings(names),
      ...entries,
    },
  };
  return buildConfig([layer]).config;
}

/** Deletes the indices; a status index takes its hosts index (`hostsIndexOf`) with it. */
export async function deleteIndices(...names: string[]): Promise<void> {
  const all = [
    ...names,
    ...names.filter((n) => n.endsWith('-status')).map((n) => hostsIndexOf({ status: n })),
  ];
  const { client } = createClient(
    buildConfig([{ source: 'test', entries: { 'opensearch.addresses': opensearchUrl() } }]).config,
  );
  try {
    await client.indices.delete({ index: all.join(','), ignore_unavailable: true });
  } finally {
    await client.close();
  }
}
