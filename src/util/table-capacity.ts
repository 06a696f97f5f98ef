/** The smallest open-addressing table a hash table starts with. */
export const MIN_TABLE_CAPACITY = 64;

/**
 * The size of an open-addressing table for `expected` entries at most half full: a power of two
 * (a key's low bits choose its slot), at least MIN_TABLE_CAPACITY. The tables grow past it at half load.
 */
export function tableCapacity(expected: number): number {
  let capacity = MIN_TABLE_CAPACITY;
  while (capacity < 2 * expected) capacity *= 2;
  return capacity;
}
