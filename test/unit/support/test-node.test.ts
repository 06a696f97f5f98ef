import { describe, expect, it } from 'vitest';
import { DEFAULT_TEST_PORT, testNodePort } from '../../support/test-node.js';

describe('the integration tests’ own OpenSearch node', () => {
  it('is never the 9200 of the user’s crawls unless OPENSEARCH_TEST_PORT says so', () => {
    expect(testNodePort({})).toBe(String(DEFAULT_TEST_PORT));
    expect(DEFAULT_TEST_PORT).not.toBe(9200);
    expect(testNodePort({ OPENSEARCH_TEST_PORT: '' })).toBe(String(DEFAULT_TEST_PORT));
    expect(testNodePort({ OPENSEARCH_TEST_PORT: '9230' })).toBe('9230');
  });
});
