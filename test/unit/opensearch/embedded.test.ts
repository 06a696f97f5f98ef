import { describe, expect, it } from 'vitest';
import {
  embeddedHome,
  embeddedPort,
  embeddedUrl,
  occupiedMessage,
  startingMessage,
  stillRunningMessage,
} from '../../../src/opensearch/embedded.js';
import { ConfigError } from '../../../src/util/errors.js';

describe('the embedded node', () => {
  it('listens on OPENSEARCH_PORT as scripts/opensearch does, 9200 by default', () => {
    expect(embeddedPort({})).toBe(9200);
    expect(embeddedUrl({ OPENSEARCH_PORT: '9250' })).toBe('http://127.0.0.1:9250');
    expect(embeddedHome({ OPENSEARCH_PORT: '9250', OPENSEARCH_HOME: '/data/os' })).toBe('/data/os/node-9250');
    for (const bad of ['x', '0', '65536', '92 00']) {
      expect(() => embeddedPort({ OPENSEARCH_PORT: bad })).toThrow(ConfigError);
    }
    expect(() => embeddedPort({ OPENSEARCH_PORT: 'x' })).toThrow(
      /OPENSEARCH_PORT has "x": expected a port number/,
    );
  });

  it('the start line says where its data goes, that it stays up and how to stop it', () => {
    const line = startingMessage({ OPENSEARCH_PORT: '9250', OPENSEARCH_HOME: '/data/os' });
    expect(line).toContain('no OpenSearch answers at http://127.0.0.1:9250 and OPENSEARCH_URL is unset');
    expect(line).toContain('heap 1g, data in /data/os/node-9250');
    expect(line).toContain('It stays up for the next commands: "crawler opensearch stop" stops it');
    expect(stillRunningMessage({ OPENSEARCH_HEAP: '512m' })).toBe(
      'the embedded OpenSearch at http://127.0.0.1:9200 keeps running for the next commands (heap 512m); "crawler opensearch stop" stops it',
    );
  });

  it('a port taken by something else is named, with OPENSEARCH_URL and OPENSEARCH_PORT as the ways out', () => {
    expect(
      occupiedMessage({ kind: 'opensearch', cluster: 'docker-cluster', version: 'OpenSearch 2.11.0' }, {}),
    ).toBe(
      'http://127.0.0.1:9200 is taken by OpenSearch 2.11.0, cluster "docker-cluster", which is not the crawler\'s embedded node. ' +
        'With no OPENSEARCH_URL the crawler uses only its own node there: set OPENSEARCH_URL=http://127.0.0.1:9200 ' +
        '(or opensearch.addresses) to crawl into that cluster, or OPENSEARCH_PORT=9201 to start the embedded node on another port',
    );
  });
});
