import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Faults of a three-node cluster (issue 27): one file, its tests in order, on a cluster its own
 * set-up starts. Not part of `vitest run` / `npm test` (it takes several minutes and three nodes'
 * memory): `npm run test:cluster` sets CRAWLER_TEST_CLUSTER=1 and runs it alone.
 */
const cluster: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'cluster',
    include: ['test/cluster/**/*.test.ts'],
    globalSetup: ['test/support/cluster-setup.ts'],
  },
};

/**
 * An elastic crawl across machines in network namespaces (issue 45): root and `ip netns` needed,
 * several minutes. `npm run test:elastic` sets CRAWLER_TEST_ELASTIC=1 and runs it alone, on the
 * integration tests' node (OPENSEARCH_TEST_PORT).
 */
const elastic: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'elastic',
    include: ['test/elastic/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
};

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // Two cores: one worker per core. Integration files share one OpenSearch node and use their own
    // index names, so they may run side by side.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Finds or starts OpenSearch once for the whole run; only this project pays for it.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      ...(process.env.CRAWLER_TEST_CLUSTER === '1' ? [cluster] : []),
      ...(process.env.CRAWLER_TEST_ELASTIC === '1' ? [elastic] : []),
    ],
  },
});
