import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/opensearch/client.js';
import { ensureIndices, planIndices } from '../../../src/opensearch/indices.js';
import { deleteIndices, hostsIndexOf, testConfig, uniqueIndexNames } from '../../support/opensearch.js';

const names = uniqueIndexNames('indices');
const config = testConfig(names);
const { client } = createClient(config);

afterAll(async () => {
  await deleteIndices(names.status, names.content);
  await client.close();
});

type Props = Record<string, { type?: string; properties?: Props }>;

describe('index creation on a real node', () => {
  it('creates both indices with the StormCrawler-shaped status mapping', async () => {
    const outcomes = await ensureIndices(client, planIndices(config));
    expect(outcomes).toEqual([
      { role: 'status', name: names.status, action: 'created' },
      { role: 'content', name: names.content, action: 'created' },
      { role: 'hosts', name: hostsIndexOf(names), action: 'created' },
    ]);

    const status = (await client.indices.getMapping({ index: names.status })).body[names.status]!
      .mappings as {
      properties: Props;
      dynamic_templates: unknown[];
    };
    expect(status.properties.url?.type).toBe('keyword');
    expect(status.properties.status?.type).toBe('keyword');
    expect(status.properties.key?.type).toBe('keyword');
    expect(status.properties.nextFetchDate?.type).toBe('date');
    expect(status.dynamic_templates).toEqual([
      // url.path is kept in _source for the outlinks, but not indexed: nothing searches it.
      {
        metadata_url_path: {
          path_match: 'metadata.url%2Epath',
          match_mapping_type: 'string',
          mapping: { type: 'keyword', index: false, doc_values: false },
        },
      },
      { metadata: { path_match: 'metadata.*', match_mapping_type: 'string', mapping: { type: 'keyword' } } },
    ]);

    const content = (await client.indices.getMapping({ index: names.content })).body[names.content]!
      .mappings as {
      properties: Props;
    };
    expect(content.properties.url?.type).toBe('keyword');
    expect(content.properties.content?.type).toBe('text');
    expect(content.properties.title?.type).toBe('text');
    expect(content.properties.keywords?.type).toBe('keyword');
    expect(content.properties.fetchTime?.type).toBe('date');
  });

  it('maps metadata.* strings of a stored document as keyword', async () => {
    await client.index({
      index: names.status,
      id: 'doc1',
      routing: 'example.com',
      refresh: true,
      body: {
        url: 'http://example.com/',
        status: 'DISCOVERED',
        key: 'example.com',
        nextFetchDate: '2025-01-01T00:00:00.000Z',
        metadata: {
          'error%2Ecause': ['robots.txt'],
          depth: ['0'],
          lastProcessedDate: ['2025-01-01T00:00:00.000Z'],
        },
      },
    });
    const mapping = (await client.indices.getMapping({ index: names.status })).body[names.status]!
      .mappings as {
      properties: Props;
    };
    const md = mapping.properties.metadata?.properties ?? {};
    expect(md['error%2Ecause']?.type).toBe('keyword');
    expect(md.depth?.type).toBe('keyword');
    // A date-like value stays a keyword too (date detection is off).
    expect(md.lastProcessedDate?.type).toBe('keyword');
  });

  it('uses the configured shard and replica counts', async () => {
    const settings = (await client.indices.getSettings({ index: names.status })).body[names.status]!
      .settings as {
      index: { number_of_shards: string; number_of_replicas: string };
    };
    expect(settings.index.number_of_shards).toBe('2');
    expect(settings.index.number_of_replicas).toBe('0');
  });

  it('a second run changes nothing', async () => {
    const before = await client.count({ index: names.status });
    const outcomes = await ensureIndices(client, planIndices(config));
    expect(outcomes.map((o) => o.action)).toEqual(['exists', 'exists', 'exists']);
    expect((await client.count({ index: names.status })).body.count).toBe(before.body.count);
  });

  it('recreate drops the documents', async () => {
    const outcomes = await ensureIndices(client, planIndices(config), { recreate: true });
    expect(outcomes.map((o) => o.action)).toEqual(['recreated', 'recreated', 'recreated']);
    expect((await client.count({ index: names.status })).body.count).toBe(0);
  });
});
