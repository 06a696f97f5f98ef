import { describe, expect, it } from 'vitest';
import { CandidateSet, RecentCanonicals } from '../../../src/dedup/candidates.js';
import { type Candidate, decide } from '../../../src/dedup/decide.js';
import { memoryKeys } from '../../../src/dedup/keys.js';
import { type PageFingerprint, readFingerprint } from '../../../src/fingerprint/page.js';
import { Metadata } from '../../../src/model/metadata.js';

const H = '0123456789abcdef';
const NEAR = '0123456789abcdee'; // 1 bit away
const FAR = 'fedcba9876543210';
/** MinHash signatures that go with the simhashes: NEAR's agrees with H's in 240 of 256 bins. */
const SIG_H = Array.from({ length: 256 }, (_, i) => (i * 7919).toString(16).padStart(2, '0').slice(-2)).join(
  '',
);
const SIG: Record<string, string> = {
  [H]: SIG_H,
  [NEAR]: `${'ff'.repeat(16)}${SIG_H.slice(32)}`,
  [FAR]: Array.from({ length: 256 }, (_, i) => (i * 104729 + 1).toString(16).slice(-2).padStart(2, '0')).join(
    '',
  ),
};
const fp = (hash: string, tokens = 1000): PageFingerprint => ({
  kind: 'simhash',
  hash,
  tokens,
  urlBlind: hash,
  minhash: SIG[hash]!,
});
const cand = (url: string, hash: string, more: Partial<Candidate> = {}): Candidate => ({
  id: `id:${url}`,
  url,
  kind: 'simhash',
  hash,
  tokens: 1000,
  minhash: SIG[hash]!,
  ...more,
});

describe('decide', () => {
  it('a page near an indexed one is its duplicate; one near nothing is a canonical', () => {
    expect(decide('http://h/b', 'id:http://h/b', fp(H), [cand('http://h/a', NEAR)])).toEqual({
      kind: 'duplicate',
      of: 'http://h/a',
      distance: 1,
      // 240 of 256 bins agree, less the 1 in 256 that agree by chance.
      similarity: (240 / 256 - 1 / 256) / (1 - 1 / 256),
    });
    expect(decide('http://h/b', 'id:http://h/b', fp(H), [cand('http://h/a', FAR)])).toEqual({
      kind: 'canonical',
    });
  });

  it('ignores texts of very different length, other kinds, duplicates of others and itself', () => {
    expect(decide('http://h/b', 'x', fp(H, 1000), [cand('http://h/a', H, { tokens: 600 })]).kind).toBe(
      'canonical',
    );
    expect(decide('http://h/b', 'x', fp(H), [cand('http://h/a', H, { kind: 'exact' })]).kind).toBe(
      'canonical',
    );
    expect(
      decide('http://h/b', 'x', fp(H), [cand('http://h/a', H, { duplicateOf: 'http://h/z' })]).kind,
    ).toBe('canonical');
    expect(decide('http://h/b', 'id:http://h/b', fp(H), [cand('http://h/b', H)]).kind).toBe('canonical');
  });

  it('two indexed canonicals within distance: the shorter URL stays canonical, from either side', () => {
    const short = cand('http://h/a', H);
    const long = cand('http://h/a?print=1', NEAR);
    expect(decide(short.url, short.id, fp(H), [short, long]).kind).toBe('canonical');
    expect(decide(long.url, long.id, fp(NEAR), [short, long])).toMatchObject({
      kind: 'duplicate',
      of: short.url,
    });
    // A page not indexed yet defers to an indexed canonical, whatever its URL.
    expect(decide('http://h/', 'id:new', fp(H), [long])).toMatchObject({ kind: 'duplicate', of: long.url });
  });

  it('verifies a candidate: the MinHash estimate and the simhash must both agree', () => {
    // Same simhash, different texts (the simhash alone once dropped real pages): not a duplicate.
    const other = { minhash: SIG[FAR]! };
    expect(decide('http://h/b', 'x', fp(H), [cand('http://h/a', H, other)]).kind).toBe('canonical');
    // Same signature but simhashes far apart: the two estimates disagree, so no verdict.
    expect(decide('http://h/b', 'x', fp(H), [cand('http://h/a', FAR, { minhash: SIG_H })]).kind).toBe(
      'canonical',
    );
    // A document from before signatures: never a canonical of anything.
    const { minhash: _, ...old } = cand('http://h/a', H);
    expect(decide('http://h/b', 'x', fp(H), [old]).kind).toBe('canonical');
  });

  it('short texts match by exact signature only', () => {
    const short = { kind: 'exact', hash: H, tokens: 30, urlBlind: H } as const;
    expect(decide('u', 'x', short, [cand('v', H, { kind: 'exact', tokens: 30 })])).toMatchObject({
      distance: 0,
    });
    expect(decide('u', 'x', short, [cand('v', NEAR, { kind: 'exact', tokens: 30 })]).kind).toBe('canonical');
  });

  it('reads the fingerprint SimhashParseFilter left in the metadata', () => {
    const md = Metadata.of({ simhash: H, 'simhash.tokens': '120', minhash: SIG_H });
    expect(readFingerprint(md)).toEqual({
      kind: 'simhash',
      hash: H,
      tokens: 120,
      urlBlind: H,
      minhash: SIG_H,
    });
    expect(readFingerprint(Metadata.of({ simhash: H, minhash: 'torn' }))?.minhash).toBeUndefined();
    expect(readFingerprint(Metadata.of({ 'simhash.exact': H, 'simhash.urlblind': FAR }))).toMatchObject({
      kind: 'exact',
      urlBlind: FAR,
    });
    expect(readFingerprint(new Metadata())).toBeUndefined();
  });
});

describe('candidate sets', () => {
  it('find a candidate by any shared key, and forget it when removed', () => {
    const set = new CandidateSet();
    set.add(cand('http://h/a', H));
    expect(set.find(memoryKeys(fp(NEAR))).map((c) => c.url)).toEqual(['http://h/a']);
    expect(set.find(memoryKeys(fp(FAR)))).toEqual([]);
    set.remove('id:http://h/a');
    expect(set.find(memoryKeys(fp(H)))).toEqual([]);
  });

  it('keep every candidate of a shared key, each found once, until each is removed', () => {
    const set = new CandidateSet();
    for (const u of ['http://h/a', 'http://h/b', 'http://h/c']) set.add(cand(u, H));
    const urls = () => set.find(memoryKeys(fp(H))).map((c) => c.url);
    expect(urls()).toEqual(['http://h/a', 'http://h/b', 'http://h/c']);
    set.remove('id:http://h/b');
    expect(urls()).toEqual(['http://h/a', 'http://h/c']);
    set.remove('id:http://h/a');
    expect(urls()).toEqual(['http://h/c']);
    // Added again under the same id: replaced, not twice.
    set.add(cand('http://h/c', H));
    set.add(cand('http://h/a', H));
    expect(urls()).toEqual(['http://h/c', 'http://h/a']);
    set.remove('id:http://h/c');
    set.remove('id:http://h/a');
    expect(urls()).toEqual([]);
    expect(set.size).toBe(0);
  });

  it('recent canonicals expire after their time and beyond their number', () => {
    const recent = new RecentCanonicals(1000, 2);
    recent.add(cand('http://h/a', H), 0);
    expect(recent.find(memoryKeys(fp(H)), 500)).toHaveLength(1);
    expect(recent.find(memoryKeys(fp(H)), 1500)).toHaveLength(0);
    recent.add(cand('http://h/1', H), 2000);
    recent.add(cand('http://h/2', H), 2001);
    recent.add(cand('http://h/3', H), 2002);
    expect(recent.find(memoryKeys(fp(H)), 2003).map((c) => c.url)).toEqual(['http://h/2', 'http://h/3']);
    // Added again: the older entry no longer removes it.
    recent.add(cand('http://h/2', H), 2500);
    expect(recent.find(memoryKeys(fp(H)), 3200).map((c) => c.url)).toEqual(['http://h/2']);
  });
});
