import { type CheerioAPI, load } from 'cheerio/slim';
import { collapseSpace } from '../strings.js';
import { Params } from './params.js';
import type { ParseFilterFactory } from './types.js';

/**
 * A CSS selector, optionally followed by `@attribute`: `title` gives the text of the matched
 * elements, `meta[name="description"]@content` the attribute's value. The `@` that counts is the
 * last one outside brackets and quotes, so `a[href^="mailto:x@y"]@href` works.
 */
export interface ValueSelector {
  readonly source: string;
  readonly css: string;
  readonly attribute: string | undefined;
}

const probe = load('');

export function compileValueSelector(source: string, p: Params, param: string): ValueSelector {
  let depth = 0;
  let quote: string | undefined;
  let at = -1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === '@' && depth === 0) at = i;
  }
  const css = (at < 0 ? source : source.slice(0, at)).trim();
  const attribute =
    at < 0
      ? undefined
      : source
          .slice(at + 1)
          .trim()
          .toLowerCase();
  if (css === '' || attribute === '')
    throw p.error(`param "${param}": "${source}" is not "selector" or "selector@attribute"`);
  try {
    probe(css);
  } catch (e) {
    throw p.error(`param "${param}": invalid CSS selector "${css}": ${(e as Error).message}`);
  }
  return { source, css, attribute };
}

/** The non-blank values a selector gives on the document, in document order. */
export function selectValues(doc: CheerioAPI, sel: ValueSelector): string[] {
  const out: string[] = [];
  for (const el of doc(sel.css).toArray()) {
    const v =
      sel.attribute === undefined
        ? collapseSpace(doc(el).text())
        : 'attribs' in el
          ? el.attribs[sel.attribute]?.trim()
          : undefined;
    if (v) out.push(v);
  }
  return out;
}

/**
 * CSSSelectorFilter (StormCrawler's XPathFilter with CSS selectors): params map a metadata key to a
 * selector or a list of selectors; the first selector that gives values wins and its values are
 * added to the key. Example: `{"parse.author": ["meta[name=author]@content", ".byline"]}`.
 * Needs a DOM.
 */
export const cssSelectorFilter: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const rules = Object.keys(raw).map((key) => ({
    key,
    selectors: p.strings(key).map((s) => compileValueSelector(s, p, key)),
  }));
  return {
    name: ctx.name,
    needsDom: true,
    filter(_url, doc, parse) {
      if (!doc) return;
      for (const { key, selectors } of rules) {
        for (const sel of selectors) {
          const values = selectValues(doc, sel);
          if (values.length === 0) continue;
          parse.metadata.addValues(key, values);
          break;
        }
      }
    },
  };
};

/**
 * LinkParseFilter: extra outlinks from selectors (every param value is a `selector@attribute`, e.g.
 * `{"pattern": "link[rel=alternate]@href"}`), resolved against the base URL, URL-filtered and merged
 * with the links the parser found. Frames and iframes are already links, unlike in StormCrawler,
 * whose default LinkParseFilter adds `//FRAME/@src`. Needs a DOM.
 */
export const linkParseFilter: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const selectors = Object.keys(raw).flatMap((key) =>
    p.strings(key).map((s) => {
      const sel = compileValueSelector(s, p, key);
      if (sel.attribute === undefined) throw p.error(`param "${key}": "${s}" needs an @attribute`);
      return sel;
    }),
  );
  return {
    name: ctx.name,
    needsDom: true,
    filter(_url, doc, parse) {
      if (!doc) return;
      for (const sel of selectors) for (const href of selectValues(doc, sel)) parse.addOutlink(href);
    },
  };
};
