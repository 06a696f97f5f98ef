/**
 * A document's JSON, the same text as `JSON.stringify(doc)`, written faster for its long strings
 * (a page's text and Markdown): V8's stringifier reads those at ~3 ns a character on the bench
 * machine, while finding the few characters JSON escapes in them with the strings' own searches and
 * replacing them costs ~0.8 ns (scripts/bench/json-line.mjs). A long string holding another character
 * to escape (a control character other than a line break, or a lone surrogate) goes through
 * `JSON.stringify` as before, so the output never differs.
 */

/** Strings shorter than this go through `JSON.stringify`: the searches cost more on them. */
const LONG = 256;

/**
 * What the fast path leaves to `JSON.stringify`: control characters but the line feed, and
 * surrogates (a pair would be written as it is, but one alone is escaped: told apart there).
 */
const RARE = /[\u0000-\u0009\u000b-\u001f\ud800-\udfff]/;

/** `JSON.stringify(s)` for a string. */
export function jsonString(s: string): string {
  if (s.length < LONG || RARE.test(s)) return JSON.stringify(s);
  let t = s;
  if (t.includes('\\')) t = t.replaceAll('\\', '\\\\');
  if (t.includes('"')) t = t.replaceAll('"', '\\"');
  if (t.includes('\n')) t = t.replaceAll('\n', '\\n');
  return `"${t}"`;
}

/**
 * `JSON.stringify(doc)` for a plain object (a content or status document): its own keys in order,
 * what JSON leaves out (undefined, functions, symbols) left out, values other than strings written by
 * `JSON.stringify`.
 */
export function documentJson(doc: object): string {
  // Not a plain object's own fields (an array, a value with toJSON): as JSON.stringify writes it.
  if (Array.isArray(doc) || typeof (doc as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(doc);
  const fields = doc as Readonly<Record<string, unknown>>;
  let out = '{';
  for (const key of Object.keys(fields)) {
    const v = fields[key];
    const json = typeof v === 'string' ? jsonString(v) : JSON.stringify(v);
    if (json === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${json}`;
  }
  return `${out}}`;
}
