import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../src/dedup/decide.js';
import { PageJudge } from '../../../src/dedup/judge.js';
import type { LookupRequest, LookupResult } from '../../../src/dedup/ports.js';
import { fingerprint } from '../../../src/fingerprint/fingerprint.js';
import { MD } from '../../../src/model/keys.js';
import { Metadata } from '../../../src/model/metadata.js';
import { HostProfiles } from '../../../src/soft404/host-profiles.js';
import { profileOf } from '../../../src/soft404/profile.js';
import { ManualClock } from '../../../src/util/clock.js';
import { article } from './support.js';

function pageOf(url: string, text: string) {
  const f = fingerprint(text);
  const md = Metadata.of({
    [f.kind === 'simhash' ? MD.simhash : MD.simhashExact]: f.hash,
    [MD.simhashTokens]: String(f.tokens),
    ...(f.minhash ? { [MD.minhash]: f.minhash } : {}),
  });
  return { url, metadata: md, noIndex: false };
}

function setup(index: Candidate[] = [], fail = 0) {
  const requests: LookupRequest[] = [];
  let failures = fail;
  const released: string[] = [];
  const deleted: string[] = [];
  const profiles = new HostProfiles();
  const judge = new PageJudge(
    {
      lookup: {
        async lookup(r: LookupRequest): Promise<LookupResult> {
          requests.push(r);
          if (failures-- > 0) throw new Error('down');
          return { candidates: index, profiles: new Map(r.hosts.map((h) => [h, null])) };
        },
      },
      profiles,
      contentId: (url) => `id:${url}`,
      releaseDuplicates: (url) => released.push(url),
      deleteContent: (url) => deleted.push(url),
      clock: new ManualClock(0),
      log: { warn: () => {} },
    },
    { mode: 'skip', soft404: true, validators: ['protocol.etag'], maxBatch: 100, lingerMs: 5, maxHeld: 400 },
  );
  return { judge, requests, released, deleted, profiles };
}

const text = article(1, 900);

describe('the page judge', () => {
  it('looks a group of pages up in one request, and a copy within the group is a duplicate of the first', async () => {
    const { judge, requests } = setup();
    const pages = [
      pageOf('http://h/1', text),
      pageOf('http://h/2', text),
      pageOf('http://h/3', article(2, 900)),
    ];
    const verdicts = await Promise.all(pages.map((p) => judge.judge(p).verdict));
    expect(verdicts).toEqual(['index', 'index', 'index']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.hosts).toEqual(['http://h']);
    expect(requests[0]!.ids).toEqual(['id:http://h/1', 'id:http://h/2', 'id:http://h/3']);
    expect(pages.map((p) => p.metadata.getFirstValue(MD.duplicateOf))).toEqual([
      undefined,
      'http://h/1',
      undefined,
    ]);
    // Remembered: a copy judged later finds it without the index knowing it yet.
    const later = pageOf('http://h/4', text);
    await judge.judge(later).verdict;
    expect(later.metadata.getFirstValue(MD.duplicateOf)).toBe('http://h/1');
  });

  it('a canonical whose text changed away releases its duplicates', async () => {
    const old = fingerprint(article(3, 900));
    const { judge, released } = setup([
      {
        id: 'id:http://h/c',
        url: 'http://h/c',
        kind: 'simhash',
        hash: old.hash,
        tokens: old.tokens,
        minhash: old.minhash!,
      },
    ]);
    const p = pageOf('http://h/c', text);
    await judge.judge(p).verdict;
    expect(released).toEqual(['http://h/c']);
  });

  it('a lookup that keeps failing leaves the pages to the indexer, unmarked', async () => {
    const { judge, requests } = setup([], 10);
    const p = pageOf('http://h/x', text);
    p.metadata.setValue(MD.duplicateOf, 'http://h/old');
    expect(await judge.judge(p).verdict).toBe('index');
    expect(requests).toHaveLength(4);
    expect(p.metadata.getFirstValue(MD.duplicateOf)).toBeUndefined();
  }, 20_000);

  it("judges a soft 404 at once when its host's profile is known, and gives its links only then", async () => {
    const { judge, profiles, deleted } = setup();
    const notFound = 'Sorry, this page does not exist any more. Go back home and try the search box instead.';
    const f = fingerprint(notFound);
    profiles.set(
      'http://h',
      profileOf(
        [
          {
            probe: 'http://h/zz',
            kind: 'page',
            fingerprint: { kind: f.kind, hash: f.hash, tokens: f.tokens },
          },
        ],
        0,
      ),
    );
    const p = pageOf('http://h/gone', notFound);
    p.metadata.setValue('protocol.etag', '"x"');
    const j = judge.judge({ ...p, noIndex: true });
    expect(j).toMatchObject({ linksNow: false, verdict: 'soft404' });
    expect(p.metadata.getFirstValue(MD.errorCause)).toBe('soft404');
    expect(p.metadata.getFirstValue(MD.soft404Evidence)).toMatch(
      /^answers 200 like the host's answer to http:\/\/h\/zz/,
    );
    expect(p.metadata.getFirstValue('protocol.etag')).toBeUndefined();
    expect(deleted).toEqual(['http://h/gone']);
    // The root is never one, and its links go at once.
    expect(judge.judge({ ...pageOf('http://h/', notFound), noIndex: true })).toMatchObject({
      linksNow: true,
      verdict: 'index',
    });
  });
});
