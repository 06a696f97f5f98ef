/**
 * Rule files written for StormCrawler hold Java regular expressions. Most are valid JavaScript as
 * they are; the differences that matter in practice are handled here and everything else is
 * reported at start-up rather than silently matching something else.
 */

const LEADING_FLAGS = /^\(\?([a-zA-Z]+)\)/;
const INLINE_FLAGS = /\(\?(?:[a-zA-Z]+(?:-[a-zA-Z]*)?|-[a-zA-Z]+)[):]/;
const JAVA_ESCAPE = /\\[QEAZzGhHpPRX]/;
const JAVA_CONSTRUCT = /\(\?>|[*+?}]\+/;
const CHAR_CLASS = /\[(?:\\.|[^\]\\])*\]/g;

/**
 * Compiles a Java-style pattern as a JavaScript RegExp. Java's leading inline flags (`(?i)`, `(?s)`,
 * `(?m)`; `(?u)` is ignored) become RegExp flags. Inline flags elsewhere, `\Q...\E`, `\A`, `\Z`,
 * atomic groups and possessive quantifiers have no JavaScript equivalent and throw, as does any
 * invalid pattern (a `SyntaxError` with the reason). Escapes that JavaScript would silently read as a
 * plain letter (`\p{...}`, `\h`, `\R`...) throw too.
 *
 * Never compiled with the `g` flag unless `global`, so that `test()` keeps no state between calls.
 */
export function compileJavaRegex(source: string, global = false): RegExp {
  let flags = global ? 'g' : '';
  let body = source;
  const lead = LEADING_FLAGS.exec(source);
  if (lead) {
    for (const f of lead[1]!) {
      if (f === 'i' || f === 's' || f === 'm') {
        if (!flags.includes(f)) flags += f;
      } else if (f !== 'u' && f !== 'd') {
        throw new SyntaxError(`the inline flag (?${f}) has no JavaScript equivalent`);
      }
    }
    body = source.slice(lead[0].length);
  }
  if (INLINE_FLAGS.test(body.replace(/\\./g, ''))) {
    throw new SyntaxError('inline flags such as (?i) are only supported at the very start of a pattern');
  }
  const javaOnly =
    JAVA_ESCAPE.exec(body.replace(/\\\\/g, '')) ??
    JAVA_CONSTRUCT.exec(body.replace(CHAR_CLASS, 'x').replace(/\\./g, 'x'));
  if (javaOnly) throw new SyntaxError(`"${javaOnly[0]}" is Java-only regex syntax`);
  return new RegExp(body, flags);
}

/**
 * Translates a Java `Matcher.replaceAll` replacement (`$1`, `${name}`, `\` escapes) into the
 * JavaScript `String.replace` syntax (`$1`, `$<name>`, `$$` for a literal dollar).
 */
export function javaReplacement(java: string): string {
  let out = '';
  for (let i = 0; i < java.length; i++) {
    const c = java[i]!;
    if (c === '\\') {
      if (i + 1 >= java.length) throw new SyntaxError('the replacement ends with a lone "\\"');
      const next = java[++i]!;
      out += next === '$' ? '$$' : next;
    } else if (c === '$') {
      const named = /^\{([A-Za-z][A-Za-z0-9]*)\}/.exec(java.slice(i + 1));
      const digits = /^\d+/.exec(java.slice(i + 1));
      if (named) {
        out += `$<${named[1]}>`;
        i += named[0].length;
      } else if (digits) {
        out += `$${digits[0]}`;
        i += digits[0].length;
      } else {
        throw new SyntaxError(
          'a "$" in a replacement must be followed by a group number or {name}, or be escaped as "\\$"',
        );
      }
    } else {
      out += c;
    }
  }
  return out;
}
