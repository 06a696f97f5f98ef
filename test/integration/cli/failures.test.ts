import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler } from '../../support/child.js';
import { crawler, initIndices } from '../../support/crawl.js';
import { deleteIndices } from '../../support/opensearch.js';

let names: { status: string; content: string };
let conf: string;

beforeAll(async () => {
  buildCli();
  ({ names, conf } = await initIndices('failures'));
}, 120_000);

afterAll(() => deleteIndices(names.status, names.content));

const missing = 'test-failures-nonexistent';

/** One line on stderr, no stack trace. */
function oneLine(err: readonly string[]): string {
  expect(err).toHaveLength(1);
  expect(err[0]).not.toMatch(/\n|\bat .*\(.*:\d+:\d+\)|unexpected failure/);
  return err[0]!;
}

describe('expected failures are one line, with what to do, and exit 3', () => {
  it.each([['stats'], ['url', 'http://example.com/'], ['reset-errors', '--dry-run'], ['reset-errors']])(
    'crawler %s on a missing status index names it and says to run crawler init',
    async (...args) => {
      const r = await crawler(...args, '--conf', conf, '--set', `opensearch.status.index.name=${missing}`);
      expect(r.code).toBe(3);
      const line = oneLine(r.err);
      expect(line).toContain(`the index "${missing}" does not exist`);
      expect(line).toContain('crawler init');
    },
  );

  it.each([[[]], [['--dry-run']]])(
    'reset-errors --query with a query OpenSearch cannot parse quotes its reason (%s)',
    async (extra) => {
      const r = await crawler('reset-errors', '--query', 'status:(', ...extra, '--conf', conf);
      expect(r.code).toBe(3);
      const line = oneLine(r.err);
      expect(line).toMatch(/^crawler reset-errors: OpenSearch refused the request \(HTTP 400/);
      expect(line).toContain('Failed to parse query [status:(]');
      expect(line).toContain('Encountered "<EOF>" at line 1, column 8.');
    },
  );

  it('a cluster that cannot be reached is one line naming it', async () => {
    const r = await crawler('stats', '--conf', conf, '--set', 'opensearch.addresses=http://127.0.0.1:1');
    expect(r.code).toBe(3);
    expect(oneLine(r.err)).toMatch(/cannot reach OpenSearch at http:\/\/127\.0\.0\.1:1/);
  });
});

describe('messages that say what is wrong', () => {
  it.each(['yesterday', '2026-13-45'])(
    'reset-errors --since %s is refused, not read as 0 URLs',
    async (since) => {
      const r = await crawler('reset-errors', '--since', since, '--dry-run', '--conf', conf);
      expect(r.code).toBe(3);
      expect(oneLine(r.err)).toBe(
        `crawler reset-errors: --since "${since}" is not a time: give an ISO-8601 date or date-time ` +
          '(2026-01-31, 2026-01-31T08:00:00Z), a time ago (30m, 2h, 1d, 1w), now, or a time ahead (+1h)',
      );
    },
  );

  it('reset-errors --since 2h is accepted', async () => {
    const r = await crawler('reset-errors', '--since', '2h', '--dry-run', '--conf', conf);
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('0 URLs would be reset');
  });

  it('crawler url not-a-url says it is not a URL, not that the status index lacks it', async () => {
    const r = await crawler('url', 'not-a-url', '--conf', conf);
    expect(r.code).toBe(3);
    expect(oneLine(r.err)).toMatch(/^crawler url: "not-a-url" is not a URL: give the absolute URL/);
  });

  it('run --instance without --instances says what is missing', async () => {
    const r = await crawler('run', '--conf', conf, '--set', 'http.agent.name=bot', '--instance', '1');
    expect(r.code).toBe(3);
    expect(oneLine(r.err)).toBe(
      'crawler run: --instance 1 needs --instances M (or CRAWLER_INSTANCES): how many instances share the status index',
    );
  });

  it('run --seed and inject say the same of a seed that is not a URL, and cut and escape what they quote', async () => {
    const seeds = conf.replace('crawl.yaml', 'hostile-seeds.txt');
    const long = `http://example.com/${'x'.repeat(10_000)}`;
    writeFileSync(
      seeds,
      Buffer.concat([Buffer.from(`${long}\n`), Buffer.from([0x00, 0x1b, 0x5b, 0xff, 0x0a])]),
    );
    const inject = spawnCrawler(['inject', seeds, '--conf', conf]);
    expect(await inject.exited).toBe(0);
    const problems = inject.stderr
      .filter((l) => l.includes('"line"'))
      .map((l) => JSON.parse(l) as { msg: string });
    expect(problems.map((p) => p.msg)).toEqual([
      `${seeds}:1: "${long.slice(0, 200)}... (10019 characters)" is rejected by the URL filters (urlfilters.config.file); skipped`,
      `${seeds}:2: "\\x00\\x1b[\\ufffd" is not a URL; skipped`,
    ]);
    for (const l of inject.stderr) expect(l.length).toBeLessThan(1000);

    const run = spawnCrawler([
      'run',
      '--once',
      '--conf',
      conf,
      '--set',
      'http.agent.name=bot',
      '--seed',
      'not a url',
    ]);
    // A seed that cannot be crawled is a usage error (exit 2), not a skipped line of a crawl that
    // then does nothing.
    expect(await run.exited).toBe(2);
    expect(run.stderr.join('\n')).toContain(
      '--seed "not a url" is not a URL: write it with http:// or https://',
    );
  }, 60_000);
});
