import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig, loadConfig, parseLayer, parseSet } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/util/errors.js';

function confFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'crawler-conf-'));
  const path = join(dir, 'my.yaml');
  writeFileSync(path, text);
  return path;
}

describe('loading the configuration', () => {
  it('uses the defaults when nothing is given', () => {
    const { config, warnings } = loadConfig({ env: {} });
    expect(config['max.fetch.errors']).toBe(3);
    expect(config['opensearch.status.index.name']).toBe('status');
    expect(config['metadata.persist']).toEqual([
      '_redirTo',
      'error.cause',
      'error.source',
      'isSitemap',
      'isFeed',
      'feed.*',
    ]);
    expect(warnings).toEqual([]);
  });

  it('a misspelled key in a file gets a warning naming the key, the file and the nearest known key', () => {
    const path = confFile('max.fetch.erors: 5\nopensearch.status.index.name: st\n');
    const { config, warnings } = loadConfig({ files: [path], env: {} });
    expect(warnings).toEqual([
      `${path}: unknown key "max.fetch.erors" (did you mean "max.fetch.errors"?); it is ignored`,
    ]);
    expect(config['max.fetch.errors']).toBe(3);
    expect(config['opensearch.status.index.name']).toBe('st');
  });

  it('a wrong type in a file is an error naming the file, the key, the value and the expected type', () => {
    const path = confFile('max.fetch.errors: three\n');
    expect(() => loadConfig({ files: [path], env: {} })).toThrowError(
      new ConfigError([`${path}: key "max.fetch.errors" has value "three" (string); expected an integer`]),
    );
  });

  it('reports every bad key at once', () => {
    const path = confFile(
      'max.fetch.errors: 1.5\nstatus.updater.use.cache: maybe\nopensearch.status.shards: 0\n',
    );
    try {
      loadConfig({ files: [path], env: {} });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toEqual([
        `${path}: key "max.fetch.errors" has value 1.5 (number); expected an integer`,
        `${path}: key "status.updater.use.cache" has value "maybe" (string); expected a boolean (true or false)`,
        `${path}: key "opensearch.status.shards" has value 0 (number); expected a number >= 1`,
      ]);
    }
  });

  it('an enum names its allowed values', () => {
    expect(() => buildConfig([parseSet('status.updater.unit.round.date=WEEK')])).toThrow(
      '--set: key "status.updater.unit.round.date" has value "WEEK" (string); expected one of SECOND, MINUTE, HOUR',
    );
  });

  it('topology.workers is a whole number of at least 1 or "auto"; anything else names what it expects', () => {
    const workers = (v: string) =>
      buildConfig([parseSet(`topology.workers=${v}`)]).config['topology.workers'];
    expect(buildConfig([]).config['topology.workers']).toBe(1);
    expect(workers('4')).toBe(4);
    expect(workers('auto')).toBe('auto');
    expect(workers('AUTO')).toBe('auto');
    for (const bad of ['0', '1.5', 'many']) {
      expect(() => workers(bad)).toThrow(
        `--set: key "topology.workers" has value ${JSON.stringify(bad === 'many' ? bad : Number(bad))}`,
      );
    }
    expect(() => workers('many')).toThrow('expected an integer >= 1 or "auto"');
  });

  it('a file that is not YAML names the file and line', () => {
    const path = confFile('a: b\nc: [unclosed\n');
    expect(() => loadConfig({ files: [path], env: {} })).toThrow(
      new RegExp(`^${path} line 3: not valid YAML: Flow sequence`),
    );
  });

  it('a missing file names the path', () => {
    expect(() => loadConfig({ files: ['/nonexistent/x.yaml'], env: {} })).toThrow(
      /cannot read config file \/nonexistent\/x\.yaml/,
    );
  });

  it("accepts StormCrawler's config: wrapper", () => {
    const layer = parseLayer('sc.yaml', 'config:\n  fetchInterval.default: 60\n  http.agent.name: mybot\n');
    const { config } = buildConfig([layer]);
    expect(config['fetchInterval.default']).toBe(60);
    expect(config['http.agent.name']).toBe('mybot');
  });

  it('later layers win: files in order, then environment, then --set', () => {
    const a = confFile('max.fetch.errors: 4\nopensearch.addresses: http://a:9200\n');
    const b = confFile('max.fetch.errors: 5\n');
    const { config } = loadConfig({
      files: [a, b],
      env: { OPENSEARCH_URL: 'http://env:9200', TIKA_URL: 'http://tika:9998' },
      sets: ['max.fetch.errors=6'],
    });
    expect(config['tika.server.url']).toBe('http://tika:9998');
    expect(config['max.fetch.errors']).toBe(6);
    expect(config['opensearch.addresses']).toEqual(['http://env:9200']);
    expect(config.origin.get('max.fetch.errors')).toBe('--set');
    expect(config.origin.get('opensearch.addresses')).toBe('env');
  });

  it('--set reads values as YAML scalars and splits patterned keys at the last "="', () => {
    expect(parseSet('fetcher.threads.number=20').entries).toEqual({ 'fetcher.threads.number': 20 });
    expect(parseSet('http.agent.name=my-bot').entries).toEqual({ 'http.agent.name': 'my-bot' });
    expect(parseSet('fetchInterval.FETCHED.isFeed=true=10').entries).toEqual({
      'fetchInterval.FETCHED.isFeed=true': 10,
    });
    expect(() => parseSet('novalue')).toThrow('--set novalue: expected key=value');
  });

  it('keeps patterned keys in config order', () => {
    const { config } = buildConfig([
      parseLayer('f', 'fetchInterval.isFeed=true: 10\nfetchInterval.FETCHED.isSpam=true: -1\n'),
    ]);
    expect(config.patterned).toEqual([
      { key: 'fetchInterval.isFeed=true', value: 10 },
      { key: 'fetchInterval.FETCHED.isSpam=true', value: -1 },
    ]);
  });

  it('lists accept one comma-separated string, as StormCrawler does', () => {
    const { config } = buildConfig([parseLayer('f', 'metadata.transfer: "a, b,c"\n')]);
    expect(config['metadata.transfer']).toEqual(['a', 'b', 'c']);
  });

  it('accepts StormCrawler class names for scheduler.class', () => {
    const { config } = buildConfig([
      parseSet('scheduler.class=org.apache.stormcrawler.persistence.AdaptiveScheduler'),
    ]);
    expect(config['scheduler.class']).toBe('AdaptiveScheduler');
  });
});
