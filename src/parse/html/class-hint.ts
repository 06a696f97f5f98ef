import { detach } from '../strings.js';

/*
 * An element's class and id as the boilerplate rules read them: lower case, with the names that say
 * what a block lacks taken out.
 */

// A name that says what the block lacks ("no-sidebars", "without-comments") names no boilerplate.
const NEGATED = /(?:^|[^a-z0-9])(?:no|without)[-_][a-z]+/g;

export const hintOf = (attrs: Readonly<Record<string, string>>): string => {
  const c = attrs.class;
  const i = attrs.id;
  if (i === undefined && c !== undefined) return classHint(c);
  return hintFrom(c === undefined ? (i ?? '') : `${c} ${i}`);
};

const hintFrom = (hint: string): string => {
  const lower = hint.toLowerCase();
  return lower.includes('no') ? lower.replace(NEGATED, ' ') : lower;
};

// The hints of classes without an id, remembered (bounded; keys and hints copied from the page): a
// page repeats a few class values, each read as its element closes (2% of a page's parse, profiled).
const CLASS_HINTS = new Map<string, string>();
function classHint(c: string): string {
  const known = CLASS_HINTS.get(c);
  if (known !== undefined) return known;
  if (CLASS_HINTS.size >= 2048) CLASS_HINTS.clear();
  const hint = detach(hintFrom(c));
  CLASS_HINTS.set(detach(c), hint);
  return hint;
}

/**
 * Which of a few expressions a hint matches, remembered per hint (bounded, keys copied): the rules
 * try them on the hint of every element with a class or id as it closes, and a page repeats a few
 * hints (the expressions were 1% of a bench page's parse, profiled). Bit i: `tests[i]` matches.
 */
export class HintTests {
  private readonly known = new Map<string, number>();

  constructor(private readonly tests: readonly RegExp[]) {}

  bits(hint: string): number {
    const known = this.known.get(hint);
    if (known !== undefined) return known;
    let bits = 0;
    for (let i = 0; i < this.tests.length; i++) if (this.tests[i]!.test(hint)) bits |= 1 << i;
    if (this.known.size >= 2048) this.known.clear();
    this.known.set(detach(hint), bits);
    return bits;
  }
}
