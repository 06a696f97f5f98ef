import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bodyFingerprint } from '../../../src/fingerprint/body.js';
import { fingerprint, urlTokens } from '../../../src/fingerprint/fingerprint.js';
import { article } from '../../support/articles.js';

/**
 * Signatures are stored in content documents and compared with those of pages fetched later, so a
 * change that only makes them cheaper must leave every value as it was. The digest below is of the
 * signatures of pages made here (Latin text folded as it is read, Greek and Japanese that make the
 * text normalised whole, the URL's words left out, raw elements, comments, tags in upper case, bag
 * and set body signatures), computed with the code of December 2026 before the scans were
 * rewritten (scripts/bench/dedup-signatures.mjs checks the same on ~2,900 real pages).
 */
describe('signature values', () => {
  it('are the values documents were stored with', () => {
    const out: unknown[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const n = seed * 7;
      const other = seed % 3 === 0 ? 'Καλημέρα κόσμε 日本語のテキスト' : '';
      const text = `${article(seed, n)} Straße naïve “x²” page-${seed} ${other}`;
      const html = `<html><head><title>t</title><script>var a = "<b>no</b>";</script></head><BODY><nav>${article(seed + 100, 12)}</nav><!-- ${article(seed, 5)} --><p class="x">${text}</p><STYLE>p{}</STYLE><table><tr><td>${article(seed, 30)}</td></tr></table><noscript>gone</noscript><template><p>gone</p></template>${seed % 2 ? article(seed, n) : ''}</body></html>`;
      out.push(
        fingerprint(text, undefined, urlTokens(`https://h.test/page-${seed}/naïve?sort=x`)),
        bodyFingerprint(Buffer.from(html)),
        bodyFingerprint(html, false),
      );
    }
    const digest = createHash('sha256').update(JSON.stringify(out)).digest('hex');
    expect(digest).toBe('088bcf49a2e005930bd6a7da1e774ffca0f7d635f3b201784be9ce732154ee23');
  });

  it('do not depend on the pages read before (a page over 512 KB, whose buffers are let go after it)', () => {
    const small = `<body><p>${article(3, 400)}</p></body>`;
    const big = `<body>${`<p>${article(5, 2000)}</p>`.repeat(60)}</body>`;
    expect(big.length).toBeGreaterThan(512 * 1024);
    const before = bodyFingerprint(small);
    const first = bodyFingerprint(big);
    expect(bodyFingerprint(small)).toEqual(before);
    expect(bodyFingerprint(big)).toEqual(first);
    expect(first.tokens).toBe(60 * 2000);
  });
});
