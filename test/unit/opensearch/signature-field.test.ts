import { describe, expect, it } from 'vitest';
import { signatureField, signatureOf } from '../../../src/opensearch/signature-field.js';

const hexOf = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => ((i * 7 + seed) * 2654435761).toString(16).slice(-1)).join('');

describe('signatures in content documents', () => {
  it('are written as base64 of their bytes and read back as the same hex digits, with or without padding', () => {
    for (const digits of [512, 1024]) {
      for (let seed = 0; seed < 20; seed++) {
        const hex = hexOf(digits, seed);
        const field = signatureField(hex);
        expect(field).toMatch(/^[A-Za-z0-9+/]+=*$/);
        expect(field.length).toBeLessThan(digits);
        expect(signatureOf(field, digits)).toBe(hex);
        // Doc values give base64 without its padding.
        expect(signatureOf(field.replace(/=+$/, ''), digits)).toBe(hex);
      }
    }
  });

  it('reads the hex digits of documents written before as they are, and nothing else', () => {
    const hex = hexOf(512, 3);
    expect(signatureOf(hex, 512)).toBe(hex);
    expect(signatureOf(signatureField(hex), 1024)).toBeUndefined();
    expect(signatureOf('abc', 512)).toBeUndefined();
    expect(signatureOf(42, 512)).toBeUndefined();
    expect(signatureOf(undefined, 512)).toBeUndefined();
  });
});
