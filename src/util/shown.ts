/**
 * Text from outside (a seed line, a URL, a header) as it may appear in a message or a log line: at
 * most `max` characters, with control characters, lone surrogates and the replacement character of
 * undecodable bytes escaped, so that a 10 KB URL or a binary line cannot flood or garble a terminal.
 * A cut value ends with "... (N characters)".
 */
export function shown(value: string, max = 200): string {
  const cut = value.length > max;
  // Cut before escaping, on a code point boundary, so that escapes are never split.
  let head = cut ? value.slice(0, max) : value;
  if (cut && /[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const escaped = head.replace(
    // C0 and C1 controls, DEL, lone surrogates and U+FFFD (what invalid UTF-8 decodes to).
    /[\u0000-\u001f\u007f-\u009f\uFFFD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => {
      const code = c.charCodeAt(0);
      if (c === '\t') return '\\t';
      if (c === '\n') return '\\n';
      if (c === '\r') return '\\r';
      return code <= 0xff
        ? `\\x${code.toString(16).padStart(2, '0')}`
        : `\\u${code.toString(16).padStart(4, '0')}`;
    },
  );
  return cut ? `${escaped}... (${value.length} characters)` : escaped;
}
