import { describe, expect, it } from 'vitest';
import { buildConfig, envLayer, parseSet } from '../../../src/config/load.js';
import { addressesFor, embeddedAllowed, normaliseAddress } from '../../../src/opensearch/client.js';

describe('cluster addresses', () => {
  it('adds http:// and port 9200 as StormCrawler does', () => {
    expect(normaliseAddress('localhost')).toBe('http://localhost:9200');
    expect(normaliseAddress('https://search.example.com')).toBe('https://search.example.com:9200');
    expect(normaliseAddress('http://10.0.0.1:9201')).toBe('http://10.0.0.1:9201');
    expect(normaliseAddress('[::1]:9300')).toBe('http://[::1]:9300');
  });

  it('per-index addresses fall back to opensearch.addresses', () => {
    const { config } = buildConfig([
      parseSet('opensearch.addresses=a:9200;b:9200'),
      parseSet('opensearch.indexer.addresses=c'),
    ]);
    expect(addressesFor(config, 'status')).toEqual(['http://a:9200', 'http://b:9200']);
    expect(addressesFor(config, 'indexer')).toEqual(['http://c:9200']);
  });

  it('the embedded node is only for users who configured no cluster', () => {
    expect(embeddedAllowed(buildConfig([]).config)).toBe(true);
    expect(embeddedAllowed(buildConfig([envLayer({ OPENSEARCH_URL: 'http://x:9200' })]).config)).toBe(false);
    expect(embeddedAllowed(buildConfig([parseSet('opensearch.status.addresses=x')]).config)).toBe(false);
    expect(embeddedAllowed(buildConfig([parseSet('opensearch.embedded=false')]).config)).toBe(false);
  });
});
