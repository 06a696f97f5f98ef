/** murmur3's 32-bit finaliser, as a signed 32-bit integer, which V8 keeps unboxed on hot paths. */
export function fmixInt(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The same bits unsigned: every input bit affects every output bit. */
export const fmix = (h: number): number => fmixInt(h) >>> 0;
