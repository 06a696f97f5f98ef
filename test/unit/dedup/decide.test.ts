import { describe, expect, it } from 'vitest';
import { CandidateSet, RecentCanonicals } from '../../../src/dedup/candidates.js';
import { BODY_TOLERANCE, bodyBound, type Candidate, decide, SET_MARGIN } from '../../../src/dedup/decide.js';
import { memoryKeys } from '../../../src/dedup/keys.js';
import { bodySimilarity } from '../../../src/fingerprint/body-minhash.js';
import { shingleBag } from '../../../src/fingerprint/fingerprint.js';
import { similarities } from '../../../src/fingerprint/jaccard.js';
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
/** Whole-body signatures (1,024 bins of 4 bits): BODY_NEAR agrees with BODY_H in 1,014 bins. */
const BODY_H = Array.from({ length: 1024 }, (_, i) => ((i * 7919) & 15).toString(16)).join('');
const BODY_FAR = Array.from({ length: 1024 }, (_, i) => ((i * 104729 + 1) & 15).toString(16)).join('');
const fp = (hash: string, tokens = 1000): PageFingerprint => ({
  kind: 'simhash',
  hash,
  tokens,
  urlBlind: hash,
  minhash: SIG[hash]!,
  body: { minhash: BODY_H, tokens: 2000 },
});
const cand = (url: string, hash: string, more: Partial<Candidate> = {}): Candidate => ({
  id: `id:${url}`,
  url,
  kind: 'simhash',
  hash,
  tokens: 1000,
  minhash: SIG[hash]!,
  bodyMinhash: BODY_H,
  bodyTokens: 2000,
  ...more,
});

/**
 * The exact similarity each candidate's text would have (by URL), the bag's reading, the set's
 * equal unless told; 0.95 unless told.
 */
const exactly =
  (sims: Record<string, number | undefined | { bag: number; set: number }> = {}) =>
  (c: Candidate) => {
    const s = c.url in sims ? sims[c.url] : 0.95;
    return typeof s === 'number' ? { bag: s, set: s } : s;
  };

describe('decide', () => {
  it('a page whose text shares 85% or more of its shingles with an indexed one is its duplicate, with the exact similarity', () => {
    expect(
      decide(
        { url: 'http://h/b', selfId: 'id:http://h/b', fp: fp(H) },
        [cand('http://h/a', NEAR)],
        exactly(),
      ),
    ).toEqual({
      kind: 'duplicate',
      of: 'http://h/a',
      distance: 1,
      similarity: 0.95,
    });
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, [cand('http://h/a', FAR)], exactly()).kind,
    ).toBe('canonical');
  });

  it('a page the estimates call near but whose texts share 60-85% is similar, never a duplicate', () => {
    const d = decide(
      { url: 'http://h/b', selfId: 'x', fp: fp(H) },
      [cand('http://h/a', NEAR)],
      exactly({ 'http://h/a': 0.7 }),
    );
    expect(d).toEqual({ kind: 'similar', of: 'http://h/a', similarity: 0.7 });
    // The most similar of several is named.
    const two = [cand('http://h/a', NEAR), cand('http://h/c', H)];
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        two,
        exactly({ 'http://h/a': 0.62, 'http://h/c': 0.8 }),
      ),
    ).toEqual({
      kind: 'similar',
      of: 'http://h/c',
      similarity: 0.8,
    });
  });

  it('no estimate decides alone: under 0.6, or without the candidate text, the page is a canonical', () => {
    const c = [cand('http://h/a', H)];
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, c, exactly({ 'http://h/a': 0.59 })).kind,
    ).toBe('canonical');
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, c, exactly({ 'http://h/a': undefined })).kind,
    ).toBe('canonical');
  });

  it("the bag's reading decides, the set's no more than SET_MARGIN under the threshold", () => {
    const c = [cand('http://h/a', H)];
    // A copy of a table with 2% of its words changed: the bag at 0.88, the set at 0.83.
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        c,
        exactly({ 'http://h/a': { bag: 0.88, set: 0.83 } }),
      ),
    ).toEqual({
      kind: 'duplicate',
      of: 'http://h/a',
      distance: 0,
      similarity: 0.88,
    });
    expect(SET_MARGIN).toBe(0.03);
    // Pages that share a repeated block, different around it: the set at 0.81, similar.
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        c,
        exactly({ 'http://h/a': { bag: 0.9, set: 0.81 } }),
      ),
    ).toEqual({
      kind: 'similar',
      of: 'http://h/a',
      similarity: 0.9,
    });
    // The set's reading alone reaching the threshold does not make a duplicate.
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        c,
        exactly({ 'http://h/a': { bag: 0.84, set: 0.86 } }),
      ).kind,
    ).toBe('similar');
  });

  it('the duplicate threshold is a setting, and texts 10% apart in length are only similar', () => {
    const c = [cand('http://h/a', H)];
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, c, exactly({ 'http://h/a': 0.88 }), 0.9).kind,
    ).toBe('similar');
    expect(decide({ url: 'http://h/b', selfId: 'x', fp: fp(H, 850) }, c, exactly()).kind).toBe('similar');
    expect(decide({ url: 'http://h/b', selfId: 'x', fp: fp(H, 920) }, c, exactly()).kind).toBe('duplicate');
  });

  it('main texts that match on pages whose whole texts differ are similar, not duplicates', () => {
    // The extraction kept the same part of two different pages (a table's caption, not the table).
    const other = { bodyMinhash: BODY_FAR };
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, [cand('http://h/a', H, other)], exactly()),
    ).toEqual({
      kind: 'similar',
      of: 'http://h/a',
      similarity: 0.95,
    });
    // Whole texts 10% apart in length, or a document without a body signature: not a duplicate either.
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        [cand('http://h/a', H, { bodyTokens: 2400 })],
        exactly(),
      ).kind,
    ).toBe('similar');
    const { bodyMinhash: _, ...old } = cand('http://h/a', H);
    expect(decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, [old], exactly()).kind).toBe('similar');
  });

  it('ignores texts of very different length, other kinds, duplicates of others and itself', () => {
    const v = exactly();
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H, 1000) }, [cand('http://h/a', H, { tokens: 600 })], v)
        .kind,
    ).toBe('canonical');
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, [cand('http://h/a', H, { kind: 'exact' })], v)
        .kind,
    ).toBe('canonical');
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        [cand('http://h/a', H, { duplicateOf: 'http://h/z' })],
        v,
      ).kind,
    ).toBe('canonical');
    expect(
      decide({ url: 'http://h/b', selfId: 'id:http://h/b', fp: fp(H) }, [cand('http://h/b', H)], v).kind,
    ).toBe('canonical');
  });

  it('two indexed canonicals that duplicate each other: the shorter URL stays canonical, from either side', () => {
    const short = cand('http://h/a', H);
    const long = cand('http://h/a?print=1', NEAR);
    const v = exactly();
    expect(decide({ url: short.url, selfId: short.id, fp: fp(H) }, [short, long], v).kind).toBe('canonical');
    expect(decide({ url: long.url, selfId: long.id, fp: fp(NEAR) }, [short, long], v)).toMatchObject({
      kind: 'duplicate',
      of: short.url,
    });
    // A page not indexed yet defers to an indexed canonical, whatever its URL.
    expect(decide({ url: 'http://h/', selfId: 'id:new', fp: fp(H) }, [long], v)).toMatchObject({
      kind: 'duplicate',
      of: long.url,
    });
  });

  it('the estimates filter: candidates whose MinHash or simhash disagree are not even compared', () => {
    let compared = 0;
    const v = () => {
      compared++;
      return { bag: 1, set: 1 };
    };
    // Same simhash, different texts (the simhash alone once dropped real pages).
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        [cand('http://h/a', H, { minhash: SIG[FAR]! })],
        v,
      ).kind,
    ).toBe('canonical');
    // Same signature but simhashes far apart.
    expect(
      decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, [cand('http://h/a', FAR, { minhash: SIG_H })], v)
        .kind,
    ).toBe('canonical');
    // A document from before signatures: never a canonical of anything.
    const { minhash: _, ...old } = cand('http://h/a', H);
    expect(decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, [old], v).kind).toBe('canonical');
    expect(compared).toBe(0);
  });

  it('a short text is a duplicate only when its text is equal and the whole bodies are alike', () => {
    const body = { minhash: BODY_H, tokens: 400 };
    const short = { kind: 'exact', hash: H, tokens: 30, urlBlind: H, body } as const;
    const same = { kind: 'exact', tokens: 30, bodyMinhash: BODY_H, bodyTokens: 410 } as const;
    const v = exactly();
    expect(decide({ url: 'u', selfId: 'x', fp: short }, [cand('v', H, same)], v)).toMatchObject({
      kind: 'duplicate',
      distance: 0,
    });
    expect(decide({ url: 'u', selfId: 'x', fp: short }, [cand('v', NEAR, same)], v).kind).toBe('canonical');
    // The same extracted text (a shared description) on pages whose bodies differ: kept.
    const otherBody = { ...same, bodyMinhash: BODY_FAR };
    expect(decide({ url: 'u', selfId: 'x', fp: short }, [cand('v', H, otherBody)], v).kind).toBe('canonical');
    expect(
      decide({ url: 'u', selfId: 'x', fp: short }, [cand('v', H, { ...same, bodyTokens: 600 })], v).kind,
    ).toBe('canonical');
    // A candidate without a body signature (a document from before them) decides nothing.
    expect(
      decide({ url: 'u', selfId: 'x', fp: short }, [cand('v', H, { kind: 'exact', tokens: 30 })], v).kind,
    ).toBe('canonical');
  });

  it("a long text's whole-body estimate may fall BODY_TOLERANCE under the threshold; a short text's may not", () => {
    // 149 of 1,024 bins differ: an estimate of 0.845, under 0.85 and over 0.85 - 0.01.
    const near = BODY_H.split('')
      .map((d, i) => (i < 149 ? ((Number.parseInt(d, 16) + 1) & 15).toString(16) : d))
      .join('');
    expect(bodySimilarity(BODY_H, near)).toBeCloseTo(0.845, 3);
    expect(BODY_TOLERANCE).toBe(0.01);
    const c = [cand('http://h/a', H, { bodyMinhash: near })];
    expect(decide({ url: 'http://h/b', selfId: 'x', fp: fp(H) }, c, exactly()).kind).toBe('duplicate');
    // 0.01 lower (an estimate of 0.834): similar.
    const lower = BODY_H.split('')
      .map((d, i) => (i < 159 ? ((Number.parseInt(d, 16) + 1) & 15).toString(16) : d))
      .join('');
    expect(bodySimilarity(BODY_H, lower)).toBeLessThan(0.84);
    expect(
      decide(
        { url: 'http://h/b', selfId: 'x', fp: fp(H) },
        [cand('http://h/a', H, { bodyMinhash: lower })],
        exactly(),
      ).kind,
    ).toBe('similar');
    const short = {
      kind: 'exact',
      hash: H,
      tokens: 30,
      urlBlind: H,
      body: { minhash: BODY_H, tokens: 400 },
    } as const;
    const same = { kind: 'exact', tokens: 30, bodyTokens: 400 } as const;
    expect(
      decide(
        { url: 'u', selfId: 'x', fp: short },
        [cand('v', H, { ...same, bodyMinhash: BODY_H })],
        exactly(),
      ).kind,
    ).toBe('duplicate');
    expect(
      decide({ url: 'u', selfId: 'x', fp: short }, [cand('v', H, { ...same, bodyMinhash: near })], exactly())
        .kind,
    ).toBe('canonical');
  });

  it('settles the whole-body check from the exact main-text figure when the main text is the whole body', () => {
    // 300 distinct words and a copy with every 50th changed (bag Jaccard about 0.886).
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const a = words.join(' ');
    const b = words.map((w, i) => (i % 50 === 25 ? `x${i}` : w)).join(' ');
    const main = similarities(shingleBag(a), shingleBag(b)).bag;
    expect(main).toBeCloseTo(280 / 316, 6);
    // Bodies that are the texts: the bound is the exact body Jaccard.
    expect(bodyBound(main, [300, 300], [300, 300])).toBeCloseTo(main, 6);
    // One token of chrome each (a heading): never above the exact figure, here under the bar.
    const bodyJ = similarities(shingleBag(`Intro ${a}`), shingleBag(`Intro ${b}`)).bag;
    expect(bodyBound(main, [300, 300], [301, 301])).toBeLessThanOrEqual(bodyJ);
    expect(bodyBound(main, [300, 300], [301, 301])).toBeLessThan(0.85);
    // A main text longer than its body is not inside it: no bound.
    expect(bodyBound(main, [300, 300], [290, 300])).toBe(0);
    // In decide: a body estimate under the bar (0.834) is overruled by the bound, only while it holds.
    const lower = BODY_H.split('')
      .map((d, i) => (i < 159 ? ((Number.parseInt(d, 16) + 1) & 15).toString(16) : d))
      .join('');
    const page = (bodyTokens: number) => ({
      url: 'http://h/b',
      selfId: 'x',
      fp: { ...fp(H), tokens: 300, body: { minhash: BODY_H, tokens: bodyTokens } },
    });
    const c = (bodyTokens: number) => [
      cand('http://h/a', H, { tokens: 300, bodyTokens, bodyMinhash: lower }),
    ];
    expect(decide(page(300), c(300), exactly({ 'http://h/a': main })).kind).toBe('duplicate');
    expect(decide(page(310), c(310), exactly({ 'http://h/a': main })).kind).toBe('similar');
  });

  it('reads the fingerprint SimhashParseFilter left in the metadata', () => {
    // A whole-body signature of another kind (the 512 digits of 256 bins it had first) is none.
    const withBody = (sig: string) =>
      readFingerprint(
        Metadata.of({ simhash: H, 'simhash.tokens': '120', 'minhash.body': sig, 'body.tokens': '300' }),
      );
    expect(withBody(BODY_H)?.body).toEqual({ minhash: BODY_H, tokens: 300 });
    expect(withBody(SIG_H)?.body).toBeUndefined();
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
