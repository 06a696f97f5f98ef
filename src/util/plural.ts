/**
 * `n` and its noun, in the plural unless n is 1: "1 URL", "3 URLs", "0 URLs". The plural is the
 * noun plus "s" unless given.
 */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
