/**
 * The HTTP port of the OpenSearch node the integration tests start when neither OPENSEARCH_URL nor
 * a Docker engine gives them one. Not 9200: that is where the crawler's embedded node and a user's
 * own crawl live, and the tests create and delete indices freely. The node's data is then
 * `.opensearch/node-<port>`, apart from the user's `.opensearch/node-9200`.
 */
export const DEFAULT_TEST_PORT = 9299;

/** The port the test node listens on: OPENSEARCH_TEST_PORT when set, else DEFAULT_TEST_PORT. */
export function testNodePort(env: Readonly<Record<string, string | undefined>>): string {
  const given = env.OPENSEARCH_TEST_PORT?.trim();
  return given ? given : String(DEFAULT_TEST_PORT);
}
