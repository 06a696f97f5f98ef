import { list, str } from '../define.js';

/** The crawler's identity: user agent and robots.txt agent names (StormCrawler's http.agent.* keys). */
export const agentKeys = {
  'http.agent.name': str('', 'REQUIRED to crawl: your crawler\'s name, letters, "_" and "-" only (RFC 9309)'),
  'http.agent.version': str('', 'appended to the name as name/version'),
  'http.agent.description': str('', 'first item in the parentheses of the user agent'),
  'http.agent.url': str('', 'a page explaining your crawler, in the user agent'),
  'http.agent.email': str('', 'a contact address, in the user agent'),
  'http.agent': str('', 'the whole User-Agent header verbatim; robots.txt still matches http.agent.name'),
  'http.robots.agents': list(
    [],
    'more agent names that robots.txt groups may address (http.agent.name always counts)',
  ),
} as const;
