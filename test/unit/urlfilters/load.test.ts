import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filterKeys } from '../../../src/config/keys/filters.js';
import { buildFilters, loadURLFilters, PACKAGE_CONF_DIR } from '../../../src/urlfilters/load.js';
import type { MetadataView, URLFilter, WarnLogger } from '../../../src/urlfilters/types.js';
import { ConfigError } from '../../../src/util/errors.js';

const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
const noMetadata: MetadataView = { getFirstValue: () => undefined, getValues: () => undefined };

function warnings(): WarnLogger & { messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (_obj, msg) => messages.push(msg) };
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'urlfilters-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('loading the URL filters', () => {
  it('defaults to the shipped conf/urlfilters.json, in StormCrawler’s order except BasicURLFilter', () => {
    expect(filterKeys['urlfilters.config.file'].default).toBe('urlfilters.json');
    const chain = loadURLFilters({}, { baseDir: tempDir({}) });
    expect(chain.source).toBe(join(PACKAGE_CONF_DIR, 'urlfilters.json'));
    expect(chain.filters.map((f) => f.name)).toEqual([
      'MaxDepthFilter',
      'BasicURLNormalizer',
      'BasicURLFilter',
      'HostURLFilter',
      'RegexURLNormalizer',
      'RegexURLFilter',
      'SelfURLFilter',
      'SitemapFilter',
    ]);
  });

  it('the shipped chain normalises, keeps the crawl in its domains and drops images', () => {
    const chain = loadURLFilters();
    const page = new URL('https://www.example.com/news/');
    expect(chain.filter(page, noMetadata, 'HTTPS://News.Example.COM/a/./b/../c?z=1&a=2#top')).toBe(
      'https://news.example.com/a/c?a=2&z=1',
    );
    expect(chain.filter(page, noMetadata, 'https://other.org/')).toBeNull();
    expect(chain.filter(page, noMetadata, 'https://www.example.com/logo.PNG')).toBeNull();
    expect(chain.filter(page, noMetadata, 'https://www.example.com/news/#comments')).toBeNull();
    expect(chain.filter(null, null, 'https://other.org/seed')).toBe('https://other.org/seed');
  });

  it('looks the config file up in baseDir first, and "" means an empty chain', () => {
    const dir = tempDir({
      'urlfilters.json': JSON.stringify({ URLFilters: [{ class: 'SelfURLFilter', name: 'mine' }] }),
    });
    expect(loadURLFilters({}, { baseDir: dir }).filters.map((f) => f.name)).toEqual(['mine']);
    const empty = loadURLFilters({ 'urlfilters.config.file': '' });
    expect(empty.filters).toEqual([]);
    expect(empty.filter(null, null, 'mailto:a@b.c')).toBeNull();
  });

  it('accepts StormCrawler class names and short names; rule files resolve next to the JSON file', () => {
    const chain = loadURLFilters({ 'urlfilters.config.file': join(fixtures, 'custom-urlfilters.json') });
    expect(chain.filters.map((f) => f.name)).toEqual(['normalise', 'regex', 'fast', 'rewrite']);
    expect(chain.filter(null, null, 'http://www.example.com/Index.html?utm_source=x')).toBe(
      'http://www.example.com/',
    );
    expect(chain.filter(null, null, 'http://other.org/')).toBeNull();
    expect(chain.filter(null, null, 'http://stormcrawler.net/bla/?page=1')).toBe(
      'http://stormcrawler.net/bla/',
    );
    expect(chain.filter(null, null, 'http://stormcrawler.net/other')).toBeNull();
  });

  it('reports every problem at once, naming the file, the entry and the param', () => {
    const logger = warnings();
    const file = join(fixtures, 'bad-urlfilters.json');
    const error = configError(() => loadURLFilters({ 'urlfilters.config.file': file }, { logger }));
    expect(error.problems).toEqual([
      `${file}: filters[0] "BasicURLFilter": param "maxLength" has value "long" (string); expected an integer`,
      expect.stringMatching(
        /filters\[1\] "BasicURLNormaliser": unknown class ".*BasicURLNormaliser" \(did you mean "BasicURLNormalizer"\?\)/,
      ),
      expect.stringMatching(
        /filters\[2\] "broken regex": param "urlFilters"\[1\]: invalid regular expression/,
      ),
      expect.stringMatching(/filters\[2\] "broken regex": param "urlFilters"\[2\]: a rule starts with/),
      expect.stringMatching(
        /filters\[3\] "missing file": regexFilterFile: cannot find "no-such-file.txt" \(looked at /,
      ),
    ]);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(logger.messages).toEqual([
      expect.stringMatching(/filters\[4\] "HostURLFilter": unknown key "params.ignoreOutsideDomian"/),
    ]);
  });

  it('names a missing or malformed config file', () => {
    expect(configError(() => loadURLFilters({ 'urlfilters.config.file': 'nope.json' })).message).toMatch(
      /urlfilters.config.file: cannot find "nope.json" \(looked at .*nope.json/,
    );
    const dir = tempDir({ 'bad.json': '{ nope', 'shape.json': '{"filters": []}' });
    expect(
      configError(() => loadURLFilters({ 'urlfilters.config.file': join(dir, 'bad.json') })).message,
    ).toMatch(/bad.json: cannot read the URL filters: .*JSON/);
    expect(
      configError(() => loadURLFilters({ 'urlfilters.config.file': join(dir, 'shape.json') })).message,
    ).toMatch(/shape.json: expected \{"org.apache.stormcrawler.filtering.URLFilters": \[/);
  });

  it('takes custom filters by class name', () => {
    const shout: URLFilter = { name: 'shout', filter: (_s, _m, url) => url.toUpperCase() };
    const filters = buildFilters(
      { URLFilters: [{ class: 'my.Shout', params: { loud: true } }] },
      '/x/urlfilters.json',
      {},
      {
        classes: {
          'my.Shout': ({ params }) => {
            expect(params.bool('loud', false)).toBe(true);
            return shout;
          },
        },
      },
    );
    expect(filters).toEqual([shout]);
  });

  it('gives SitemapFilter the sitemap.discovery setting and FastURLFilter fast.urlfilter.file', () => {
    const json = { URLFilters: [{ class: 'SitemapFilter' }, { class: 'FastURLFilter' }] };
    const path = join(fixtures, 'urlfilters.json');
    const [sitemap, fast] = buildFilters(json, path, { 'sitemap.discovery': true });
    const md: MetadataView = {
      getFirstValue: (k) => (k === 'foundSitemap' ? 'true' : undefined),
      getValues: () => undefined,
    };
    expect(sitemap!.filter(new URL('http://a.com/'), md, 'http://a.com/x')).toBeNull();
    // fast.urlfilter.json is found next to the (here imaginary) urlfilters.json: the fixture's rules.
    expect(fast!.filter(null, null, 'http://a.com/x.jpg')).toBeNull();
  });
});
