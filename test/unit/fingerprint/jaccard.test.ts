import { describe, expect, it } from 'vitest';
import { bodyFingerprint, bodyText } from '../../../src/fingerprint/body.js';
import { bodySimilarity } from '../../../src/fingerprint/body-minhash.js';
import { shingleBag, shingleHashes } from '../../../src/fingerprint/fingerprint.js';
import { similarities } from '../../../src/fingerprint/jaccard.js';
import { article } from '../../support/articles.js';

/** The set's reading: what the exact check calls the Jaccard of distinct shingles. */
const jaccard = (a: Int32Array, b: Int32Array) => similarities(a, b).set;

/** A text whose 3-shingles repeat, like a reference page's table: rows of a few fixed words. */
function table(rows: number): string {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) out.push(`| param${i % 7} | int | optional | the value of param${i % 7} |`);
  return out.join('\n');
}

/** The bag (multiset) Jaccard of two texts' word 3-shingles: sum of smaller counts over larger. */
function slowBagJaccard(a: string, b: string): number {
  const bag = (t: string) => {
    const w = t.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
    const out = new Map<string, number>();
    for (let i = 2; i < w.length; i++) {
      const s = w.slice(i - 2, i + 1).join(' ');
      out.set(s, (out.get(s) ?? 0) + 1);
    }
    return out;
  };
  const x = bag(a);
  const y = bag(b);
  let min = 0;
  let max = 0;
  for (const k of new Set([...x.keys(), ...y.keys()])) {
    min += Math.min(x.get(k) ?? 0, y.get(k) ?? 0);
    max += Math.max(x.get(k) ?? 0, y.get(k) ?? 0);
  }
  return min / max;
}

/** The exact Jaccard of two texts' word 3-shingles, written the slow and obvious way. */
function slowJaccard(a: string, b: string): number {
  const set = (t: string) => {
    const w = t.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
    const out = new Set<string>();
    for (let i = 2; i < w.length; i++) out.add(w.slice(i - 2, i + 1).join(' '));
    return out;
  };
  const x = set(a);
  const y = set(b);
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / (x.size + y.size - both);
}

describe('exact Jaccard similarity of word 3-shingles', () => {
  it('agrees with the set computed word by word', () => {
    const a = article(1, 600);
    const words = a.split(' ');
    for (const every of [50, 10, 3]) {
      const b = words.map((w, i) => (i % every === 0 ? 'changed' : w)).join(' ');
      expect(jaccard(shingleHashes(a), shingleHashes(b))).toBeCloseTo(slowJaccard(a, b), 3);
    }
    expect(jaccard(shingleHashes(a), shingleHashes(article(2, 600)))).toBeCloseTo(
      slowJaccard(a, article(2, 600)),
      3,
    );
  });

  it('every 50th word changed stays above 0.85; case and punctuation do not count', () => {
    const a = article(3, 2000);
    const b = a
      .split(' ')
      .map((w, i) => (i % 50 === 0 ? `${w}q` : w))
      .join(' ');
    expect(jaccard(shingleHashes(a), shingleHashes(b))).toBeGreaterThan(0.85);
    expect(jaccard(shingleHashes(a), shingleHashes(`${a.toUpperCase()}!`))).toBe(1);
  });

  it('counts each shingle once, and empty texts as equal', () => {
    expect(shingleHashes('a b c a b c a b c')).toHaveLength(3);
    expect(jaccard(shingleHashes(''), shingleHashes(''))).toBe(1);
    expect(jaccard(shingleHashes('one two'), shingleHashes('one two'))).toBe(1);
  });
});

describe('the bag (multiset) reading of the exact Jaccard', () => {
  it('agrees with the counts computed word by word, and its set reading with the set', () => {
    for (const [a, b] of [
      [article(1, 600), article(1, 600).replace(/ the /g, ' a ')],
      [table(60), table(55)],
      [`${table(40)} ${article(2, 200)}`, `${table(30)} ${article(2, 200)}`],
    ] as const) {
      const s = similarities(shingleBag(a), shingleBag(b));
      expect(s.bag).toBeCloseTo(slowBagJaccard(a, b), 6);
      expect(s.set).toBeCloseTo(slowJaccard(a, b), 6);
    }
    expect(similarities(shingleBag(''), shingleBag(''))).toEqual({ bag: 1, set: 1 });
    expect(shingleBag('a b c a b c a b c')).toHaveLength(7);
  });

  it('every 50th word changed gives about 0.89 in the bag reading even when shingles repeat; the set falls under 0.85', () => {
    const a = table(200);
    const words = a.split(' ');
    const b = words.map((w, i) => (i % 50 === 7 && /\w/.test(w) ? `x${i}` : w)).join(' ');
    const s = similarities(shingleBag(a), shingleBag(b));
    expect(s.bag).toBeGreaterThan(0.86);
    expect(s.bag).toBeLessThan(0.92);
    expect(s.set).toBeLessThan(0.85);
    // A text whose shingles do not repeat reads alike both ways.
    const p = article(3, 2000);
    const q = p
      .split(' ')
      .map((w, i) => (i % 50 === 0 ? `${w}q` : w))
      .join(' ');
    const t = similarities(shingleBag(p), shingleBag(q));
    expect(Math.abs(t.bag - t.set)).toBeLessThan(0.01);
  });
});

describe('the whole-body text of a short page', () => {
  it('keeps the text outside tags, without scripts, styles and comments, from the body on', () => {
    const html =
      '<html><head><title>T</title><style>p{x:1}</style></head><BODY class=a><p>Hello <b>you</b></p>' +
      '<script>var x = "<p>no</p>";</script><!-- <p>gone</p> --><nav>menu</nav></body></html>';
    expect(bodyText(html).replace(/\s+/g, ' ').trim()).toBe('Hello you menu');
  });

  it('two pages that share a short description but not the rest of their bodies are far apart', () => {
    const page = (seed: number) =>
      `<body><div class="description">Documentation for the class.</div><main>${article(seed, 300)}</main></body>`;
    const a = bodyFingerprint(Buffer.from(page(1)));
    const b = bodyFingerprint(Buffer.from(page(2)));
    const a2 = bodyFingerprint(Buffer.from(page(1).replace('</main>', ' updated today</main>')));
    expect(bodySimilarity(a.minhash!, b.minhash!)).toBeLessThan(0.3);
    expect(bodySimilarity(a.minhash!, a2.minhash!)).toBeGreaterThan(0.9);
  });

  it("reads the body's words in one pass over the bytes, as bodyText gives them (no script, style or comment)", () => {
    const html =
      '<html><head><title>T</title><style>p{x:1}</style></head><BODY class=a><p>Hello <b>you</b> there</p>' +
      '<script>var x = "<p>no</p>";</script><!-- <p>gone</p> --><nav>Menu-item</nav><noscript>x</noscript></body></html>';
    const fp = bodyFingerprint(Buffer.from(html));
    // hello you there menu item
    expect(fp.tokens).toBe(5);
    const same = bodyFingerprint(Buffer.from('<body><div>hello YOU there</div><p>menu item</p></body>'));
    expect(fp.minhash).toBe(same.minhash);
    expect(fp.minhash).toMatch(/^[0-9a-f]{1024}$/);
    expect(bodyFingerprint('<body><script>only()</script></body>')).toEqual({ tokens: 0 });
  });

  it('estimates the Jaccard similarity of two bodies within four standard errors near the threshold', () => {
    // Copies of one long page with every 25th to every 60th word changed: J from about 0.78 to 0.9.
    const words = article(7, 3000).split(' ');
    const base = `<body><main>${words.join(' ')}</main></body>`;
    for (const every of [25, 30, 40, 60]) {
      const copy = `<body><main>${words.map((w, i) => (i % every === 3 ? `changed${i}` : w)).join(' ')}</main></body>`;
      const truth = jaccard(shingleHashes(bodyText(base)), shingleHashes(bodyText(copy)));
      const est = bodySimilarity(bodyFingerprint(base).minhash!, bodyFingerprint(copy).minhash!);
      const se = Math.sqrt((truth * (1 - truth) + (1 - truth) / 16) / 1024) / (15 / 16);
      expect(Math.abs(est - truth), `every ${every}th: J ${truth}, estimated ${est}`).toBeLessThan(4 * se);
    }
  });

  it('the bag signature estimates the bag Jaccard of bodies whose shingles repeat, the set one their set', () => {
    const base = `<body><main>${table(300)} ${article(8, 600)}</main></body>`;
    const words = base.split(' ');
    const copy = words.map((w, i) => (i % 40 === 5 && /^\w+$/.test(w) ? `changed${i}` : w)).join(' ');
    const exact = similarities(shingleBag(bodyText(base)), shingleBag(bodyText(copy)));
    const bag = bodySimilarity(bodyFingerprint(base, true).minhash!, bodyFingerprint(copy, true).minhash!);
    const set = bodySimilarity(bodyFingerprint(base, false).minhash!, bodyFingerprint(copy, false).minhash!);
    const se = (j: number) => Math.sqrt((j * (1 - j) + (1 - j) / 16) / 1024) / (15 / 16);
    expect(exact.bag - exact.set).toBeGreaterThan(0.03);
    expect(Math.abs(bag - exact.bag), `bag: J ${exact.bag}, estimated ${bag}`).toBeLessThan(
      4 * se(exact.bag),
    );
    expect(Math.abs(set - exact.set), `set: J ${exact.set}, estimated ${set}`).toBeLessThan(
      4 * se(exact.set),
    );
    // Without repeated shingles the two signatures are the same string.
    const plain = `<body>${article(9, 500)}</body>`;
    expect(bodyFingerprint(plain, true).minhash).toBe(bodyFingerprint(plain, false).minhash);
  });
});
