/**
 * The selectors the streaming extractor can match on one element without a DOM: a compound of an
 * optional tag name (or `*`) followed by any number of `#id`, `.class`, `[attr]` and
 * `[attr=value]` (value quoted or not). Examples: `ARTICLE`, `DIV[id="maincontent"]`,
 * `div.post[itemprop=articleBody]`, `#main`. Combinators (` `, `>`, `+`, `~`), lists (`,`),
 * pseudo-classes and other attribute operators need a DOM and are refused at start-up.
 *
 * Matching follows JSoup: tag and attribute names ignore case, attribute values are compared
 * ignoring case (JSoup's `[attr=value]`), ids and class names are compared exactly.
 */

export interface SimpleSelector {
  /** As configured, for messages. */
  readonly source: string;
  /** Lowercased; undefined for any tag. */
  readonly tag: string | undefined;
  readonly id: string | undefined;
  readonly classes: readonly string[];
  /** Lowercased names; value lowercased, undefined when only presence is required. */
  readonly attributes: readonly { readonly name: string; readonly value: string | undefined }[];
}

const TAG_NAME = '[A-Za-z][-\\w]*';
const ATTR_NAME = '[A-Za-z_:][-\\w:.]*';
const IDENT = '-?[A-Za-z_\\u00a0-\\uffff][-\\w\\u00a0-\\uffff]*';
const TAG = new RegExp(`^(?:\\*|${TAG_NAME})`);
const ID = new RegExp(`^#(${IDENT})`);
const CLASS = new RegExp(`^\\.(${IDENT})`);
const ATTR = new RegExp(`^\\[\\s*(${ATTR_NAME})\\s*(?:=\\s*(?:"([^"]*)"|'([^']*)'|([^\\]\\s"']+))\\s*)?\\]`);

/** Parses a selector of the supported subset; throws an Error that says what is supported. */
export function compileSelector(source: string): SimpleSelector {
  const s = source.trim();
  const refuse = (why: string) =>
    new Error(
      `"${source}" ${why}; supported without a DOM: TAG, *, #id, .class, [attr], [attr="value"] and compounds such as DIV.post[itemprop="articleBody"]`,
    );
  if (s === '') throw refuse('is empty');
  let rest = s;
  let tag: string | undefined;
  let id: string | undefined;
  const classes: string[] = [];
  const attributes: { name: string; value: string | undefined }[] = [];
  const t = TAG.exec(rest);
  if (t) {
    tag = t[0] === '*' ? undefined : t[0].toLowerCase();
    rest = rest.slice(t[0].length);
  }
  while (rest.length > 0) {
    const idMatch = ID.exec(rest);
    const classMatch = idMatch ? null : CLASS.exec(rest);
    const attrMatch = idMatch || classMatch ? null : ATTR.exec(rest);
    const m = idMatch ?? classMatch ?? attrMatch;
    if (!m) throw refuse(`is not supported at "${rest}"`);
    if (idMatch) {
      if (id !== undefined && id !== idMatch[1]) throw refuse('has two ids');
      id = idMatch[1];
    } else if (classMatch) {
      classes.push(classMatch[1]!);
    } else if (attrMatch) {
      const value = attrMatch[2] ?? attrMatch[3] ?? attrMatch[4];
      attributes.push({ name: attrMatch[1]!.toLowerCase(), value: value?.trim().toLowerCase() });
    }
    rest = rest.slice(m[0].length);
  }
  return { source, tag, id, classes, attributes };
}

function hasClass(classAttr: string | undefined, name: string): boolean {
  if (!classAttr) return false;
  for (const c of classAttr.split(/[\t\n\f\r ]+/)) if (c === name) return true;
  return false;
}

/** True if the element (lowercased tag name, lowercased attribute names) matches. */
export function matches(
  sel: SimpleSelector,
  tag: string,
  attribs: Readonly<Record<string, string>>,
): boolean {
  if (sel.tag !== undefined && sel.tag !== tag) return false;
  if (sel.id !== undefined && attribs['id'] !== sel.id) return false;
  for (const c of sel.classes) if (!hasClass(attribs['class'], c)) return false;
  for (const a of sel.attributes) {
    const v = Object.hasOwn(attribs, a.name) ? attribs[a.name] : undefined;
    if (v === undefined) return false;
    if (a.value !== undefined && v.trim().toLowerCase() !== a.value) return false;
  }
  return true;
}
