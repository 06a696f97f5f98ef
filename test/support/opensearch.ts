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
      ...entries,
    },
  };
  return buildConfig([layer]).config;
}

export async function deleteIndices(...names: string[]): Promise<void> {
  const { client } = createClient(
    buildConfig([{ source: 'test', entries: { 'opensearch.addresses': opensearchUrl() } }]).config,
  );
  try {
    await client.indices.delete({ index: names.join(','), ignore_unavailable: true });
  } finally {
    await client.close();
  }
}
