import type { Node } from './tree.js';

/**
 * The language of a code block for its Markdown fence, as documentation generators name it on the
 * `<pre>`, its `<code>` or the wrappers just above (Sphinx puts `highlight-python3` two levels up):
 * `language-X` / `lang-X` (Prism, highlight.js, mdBook, CommonMark writers), `highlight-X` (Sphinx),
 * `sourceCode X` (Pandoc), `brush: X` (SyntaxHighlighter). Names that say "no language" give none.
 */
const NAMED = /(?:^|\s)(?:language|lang|highlight)-([\w+#.-]+)/i;
const SOURCE_CODE = /(?:^|\s)sourceCode\s+([\w+#.-]+)/;
const BRUSH = /(?:^|[\s;])brush:\s*([\w+#.-]+)/i;
/** How far above the `<pre>` a wrapper may name it. */
const UP = 2;
/** Not languages: Sphinx's defaults and plain-text markers. */
const NONE = new Set(['default', 'none', 'text', 'plain', 'plaintext', 'nohighlight', 'guess']);
/** Versioned names readers and highlighters know without the version. */
const ALIAS: Record<string, string> = { python3: 'python', py3: 'python', ipython3: 'ipython' };

function fromClass(cls: string | undefined): string | undefined {
  if (cls === undefined || cls === '') return undefined;
  const m = NAMED.exec(cls) ?? SOURCE_CODE.exec(cls) ?? BRUSH.exec(cls);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** The fence's language of a `<pre>` ('' when the markup names none). */
export function codeLanguage(pre: Node): string {
  let name = fromClass(pre.attrs.class);
  for (const k of pre.kids) {
    if (name !== undefined) break;
    if (typeof k !== 'string' && k.tag === 'code') name = fromClass(k.attrs.class);
  }
  let up = pre.parent;
  for (let i = 0; name === undefined && up && i < UP; i++, up = up.parent) name = fromClass(up.attrs.class);
  if (name === undefined || NONE.has(name)) return '';
  return ALIAS[name] ?? name;
}
