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

/** How many names a NameMemo keeps before it starts again (a page repeats a few class values). */
const MEMO_SIZE = 2048;

/**
 * What a function says of a class or id value, remembered per value (bounded; keys copied from the
 * page, so a kept key holds no page in memory). The rules read every element's names as it closes,
 * and a page repeats a few values: lower-casing, splitting and matching each again was 1-2% of a
 * page's parse (profiled). `compute` must be pure: what it says of a value never changes.
 */
export class NameMemo<V> {
  private readonly known = new Map<string, V>();

  constructor(private readonly compute: (name: string) => V) {}

  of(name: string): V {
    const known = this.known.get(name);
    if (known !== undefined) return known;
    const v = this.compute(name);
    if (this.known.size >= MEMO_SIZE) this.known.clear();
    this.known.set(detach(name), v);
    return v;
  }
}

// The hints of classes without an id (the hint copied from the page too).
const CLASS_HINTS = new NameMemo((c) => detach(hintFrom(c)));
const classHint = (c: string): string => CLASS_HINTS.of(c);

/** Which of a few expressions a hint matches, remembered per hint. Bit i: `tests[i]` matches. */
export class HintTests {
  private readonly memo: NameMemo<number>;

  constructor(tests: readonly RegExp[]) {
    this.memo = new NameMemo((hint) => {
      let bits = 0;
      for (let i = 0; i < tests.length; i++) if (tests[i]!.test(hint)) bits |= 1 << i;
      return bits;
    });
  }

  bits(hint: string): number {
    return this.memo.of(hint);
  }
}
