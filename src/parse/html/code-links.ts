import type { Node } from './tree.js';

/**
 * A paragraph whose links all name code (`See <a><code>GlobalAlloc::dealloc</code></a>.`): a
 * cross-reference of documentation, read as text, never pruned as a link-dense block. Read only
 * when the paragraph would be pruned (a walk of its subtree).
 */
export function linksAreCode(p: Node): boolean {
  let links = 0;
  const walk = (n: Node): boolean => {
    for (const k of n.kids) {
      if (typeof k === 'string') continue;
      if (k.tag === 'a') {
        links++;
        if (!wrapsCode(k)) return false;
      } else if (!walk(k)) return false;
    }
    return true;
  };
  return walk(p) && links > 0;
}

/** Whether the link's text is all in `<code>` (Sphinx, rustdoc and Javadoc cross-references). */
function wrapsCode(a: Node): boolean {
  let code = false;
  for (const k of a.kids) {
    if (typeof k === 'string') {
      if (k.trim() !== '') return false;
    } else if (k.tag === 'code' || k.tag === 'tt') code = true;
    else if (k.chars > 0) return false;
  }
  return code;
}
