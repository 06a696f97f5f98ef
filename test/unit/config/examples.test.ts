import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCrawlSettings } from '../../../src/app/compose.js';
import { loadConfig } from '../../../src/config/load.js';
import { Metadata } from '../../../src/model/metadata.js';
import { loadURLFilters } from '../../../src/urlfilters/load.js';

const dir = new URL('../../../conf/examples/', import.meta.url);
const load = (name: string) => loadConfig({ files: [new URL(name, dir).pathname], sets: [], env: {} });

/** Whether a link from `source` (at `depth` clicks from its seed) to `target` is followed. */
function follows(config: ReturnType<typeof load>['config'], source: string, depth: number, target: string) {
  const filter = loadURLFilters(config);
  return filter.filter(new URL(source), Metadata.of({ depth: String(depth) }), target) !== null;
}

describe('conf/examples', () => {
  it('holds a site-crawl and a broad-crawl config', () => {
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    ).toEqual(['broad-crawl.yaml', 'site-crawl.yaml']);
  });

  it.each(['site-crawl.yaml', 'broad-crawl.yaml'])(
    '%s passes every check crawler run makes, without a warning',
    async (name) => {
      const { config, warnings } = load(name);
      expect(warnings).toEqual([]);
      await checkCrawlSettings(config);
    },
  );

  it('the site crawl stays on the seed’s site and its subdomains, 5 links deep, one page every 2 s', () => {
    const { config } = load('site-crawl.yaml');
    const page = 'https://docs.example.org/guide/';
    expect(follows(config, page, 0, 'https://docs.example.org/guide/install')).toBe(true);
    expect(follows(config, page, 0, 'https://www.example.org/blog/')).toBe(true);
    expect(follows(config, page, 0, 'https://other.example.com/')).toBe(false);
    expect(follows(config, page, 4, 'https://docs.example.org/deep')).toBe(true);
    expect(follows(config, page, 5, 'https://docs.example.org/deeper')).toBe(false);
    expect(config['fetcher.server.delay']).toBe(2);
    expect(config['indexer.text.maxlength']).toBe(-1);
  });

  it('the broad crawl follows links to other sites, many hosts at once, one request at a time per host', () => {
    const { config } = load('broad-crawl.yaml');
    expect(follows(config, 'https://a.example.org/', 7, 'https://other.example.com/')).toBe(true);
    expect(config['fetcher.threads.per.queue']).toBe(1);
    expect(config['fetcher.threads.number']).toBeGreaterThan(100);
    expect(config['opensearch.status.shards']).toBeGreaterThanOrEqual(8);
  });
});
