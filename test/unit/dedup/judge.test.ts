import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../src/dedup/decide.js';
import { PageJudge } from '../../../src/dedup/judge.js';
import type { LookupRequest, LookupResult } from '../../../src/dedup/ports.js';
import { bodyFingerprint } from '../../../src/fingerprint/body.js';
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
    ...wholeBody(text),
  });
  return { url, metadata: md, noIndex: false, text };
}

/** The whole-body signature SimhashParseFilter adds, of the text in a page. */
function wholeBody(text: string) {
  const b = bodyFingerprint(`<body><p>${text}</p></body>`);
  return { [MD.bodyMinhash]: b.minhash!, [MD.bodyTokens]: String(b.tokens) };
}

/** An indexed page's document as the lookup returns it. */
function storedDoc(url: string, t: string): Candidate {
  const f = fingerprint(t);
  const b = bodyFingerprint(`<body><p>${t}</p></body>`);
  return {
    id: `id:${url}`,
    url,
    kind: 'simhash',
    hash: f.hash,
    tokens: f.tokens,
    minhash: f.minhash!,
    bodyMinhash: b.minhash!,
    bodyTokens: b.tokens,
  };
}

function setup(index: Candidate[] = [], fail = 0, texts: Record<string, string> = {}) {
  const requests: LookupRequest[] = [];
  const textRequests: string[][] = [];
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
        async texts(ids: readonly string[]) {
          textRequests.push([...ids]);
          return new Map(ids.filter((id) => id in texts).map((id) => [id, texts[id]!]));
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
  return { judge, requests, textRequests, released, deleted, profiles };
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

  it('settles an indexed candidate on its stored text: the same text is a duplicate, a reworded third is similar', async () => {
    const words = text.split(' ');
    // Every 4th word changed: a third of the shingles differ, the estimates may still pass.
    const reworded = words.map((w, i) => (i % 4 === 0 ? `${w}x` : w)).join(' ');
    const { judge, textRequests } = setup([storedDoc('http://h/a', text)], 0, { 'id:http://h/a': text });
    const copy = pageOf('http://h/a?sort=asc', text);
    await judge.judge(copy).verdict;
    expect(copy.metadata.getFirstValue(MD.duplicateOf)).toBe('http://h/a');
    expect(copy.metadata.getFirstValue(MD.duplicateSimilarity)).toBe('1.000');
    // One read of the candidate's text for the group, only because it passed the estimates.
    expect(textRequests).toEqual([['id:http://h/a']]);
    expect(judge.stats).toMatchObject({ duplicates: 1, textLookups: 1, textsRead: 1 });
    const near = pageOf('http://h/b', reworded);
    await judge.judge(near).verdict;
    expect(near.metadata.getFirstValue(MD.duplicateOf)).toBeUndefined();
  });

  it('a candidate whose text the index cannot give is not a duplicate: the page is indexed', async () => {
    const f = fingerprint(text);
    const { judge } = setup([
      {
        id: 'id:http://h/a',
        url: 'http://h/a',
        kind: 'simhash',
        hash: f.hash,
        tokens: f.tokens,
        minhash: f.minhash!,
      },
    ]);
    const p = pageOf('http://h/a?print=1', text);
    expect(await judge.judge(p).verdict).toBe('index');
    expect(p.metadata.getFirstValue(MD.duplicateOf)).toBeUndefined();
    expect(p.metadata.getFirstValue(MD.similarTo)).toBeUndefined();
  });

  it('pages whose candidates fail the estimates cost no text read', async () => {
    const f = fingerprint(article(7, 900));
    const { judge, textRequests } = setup([
      {
        id: 'id:http://h/z',
        url: 'http://h/z',
        kind: 'simhash',
        hash: f.hash,
        tokens: f.tokens,
        minhash: f.minhash!,
      },
    ]);
    await judge.judge(pageOf('http://h/new', text)).verdict;
    expect(textRequests).toEqual([]);
    expect(judge.stats.shingled).toBe(0);
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
