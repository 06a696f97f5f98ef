import { ConfigError } from '../../util/errors.js';

/** RFC 9309 §2.2.1: a product token of letters, "_" and "-" only. */
export const AGENT_NAME = /^[A-Za-z_-]+$/;

export interface AgentSettings {
  readonly 'http.agent.name': string;
  readonly 'http.agent.version': string;
  readonly 'http.agent.description': string;
  readonly 'http.agent.url': string;
  readonly 'http.agent.email': string;
  readonly 'http.agent': string;
}

/**
 * Checks a robots.txt agent name and returns it. Called at start-up so a crawl never begins under a
 * name robots.txt files cannot address; the ConfigError names the key and the value.
 */
export function checkAgentName(value: string, key = 'http.agent.name'): string {
  if (value.trim() === '') {
    throw new ConfigError([
      `key "${key}" is required to crawl: set it to your crawler's name (letters, "_" and "-" only)`,
    ]);
  }
  if (!AGENT_NAME.test(value.trim())) {
    throw new ConfigError([
      `key "${key}" has value ${JSON.stringify(value)}; expected letters, "_" and "-" only (RFC 9309 product token)`,
    ]);
  }
  return value.trim();
}

/**
 * The User-Agent header: `http.agent` verbatim when set, else `name[/version][ (description; url;
 * email)]` leaving out what is empty (StormCrawler's AbstractHttpProtocol.getAgentString).
 * Validates http.agent.name even when `http.agent` is set, because robots.txt matching uses it.
 */
export function userAgent(s: AgentSettings): string {
  const name = checkAgentName(s['http.agent.name']);
  const verbatim = s['http.agent'].trim();
  if (verbatim !== '') return verbatim;
  const version = s['http.agent.version'].trim();
  const details = [s['http.agent.description'], s['http.agent.url'], s['http.agent.email']]
    .map((v) => v.trim())
    .filter((v) => v !== '');
  let ua = version === '' ? name : `${name}/${version}`;
  if (details.length > 0) ua += ` (${details.join('; ')})`;
  return ua;
}
