/*
 * Text a crawled page controls (its title, text, a snippet of it), made safe to print on a
 * terminal: an escape sequence in a page could otherwise move the cursor, retitle the window, hide
 * lines or fake a highlight.
 */

// C0 and C1 controls and DEL, bidirectional overrides and isolates (text that reads backwards),
// and the private-use marks content-search.ts puts around a match.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ue000\ue001]/g;

/** A page's text for a terminal, whole: its lines and tabs as they are, every other control character escaped. */
export function terminalText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

/** Page-controlled text on one line: control characters and runs of white space become one space. */
export function terminalLine(text: string): string {
  return text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A snippet whose matches lie between `pre` and `post` marks, on one line: the page's own control
 * characters (and any marks it carries) go first, then the real marks become `open` and `close`
 * (bold on a terminal, nothing when piped).
 */
export function terminalSnippet(
  snippet: string,
  marks: { pre: string; post: string },
  show: { open: string; close: string },
): string {
  const flat = (t: string) => t.replace(CONTROL, ' ').replace(/\s+/g, ' ');
  const parts = snippet.split(marks.pre).map((part, i) => {
    const end = i === 0 ? -1 : part.indexOf(marks.post);
    if (end < 0) return flat(part);
    return `${show.open}${flat(part.slice(0, end))}${show.close}${flat(part.slice(end + marks.post.length))}`;
  });
  return parts.join('').trim();
}
