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
