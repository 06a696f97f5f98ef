import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  type MainContent,
  mainContentTree,
  selectMainContent,
} from '../../../../src/parse/html/main-content.js';
import { render } from '../../../../src/parse/html/markdown.js';
import type { TreeBuilder } from '../../../../src/parse/html/tree.js';
import { trimFurniture } from '../../../../src/parse/html/trim.js';

// The text and the Markdown written in one walk of the light tree (src/parse/html/markdown.ts) are
// each what a walk writing that output alone writes: on pages mixing what the two read differently
// (captions, definition lists, tables with a caption row, permalinks, Markdown's special
// characters, breaks) and cut at any length.
const BASE = new URL('https://docs.example.org/guide/page.html');

function tree(html: string): TreeBuilder {
  const t = mainContentTree(new Set());
  new Parser(
    {
      onopentag: (name, attrs) => t.onOpen(name, attrs),
      onclosetag: (name) => t.onClose(name),
      ontext: (data) => t.onText(data),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  ).end(html);
  return t;
}

/** [text alone, Markdown alone, both in one walk]. */
function three(main: MainContent, maxLength: number) {
  const o = { base: BASE, maxLength };
  return [
    render(main, { ...o, text: true, markdown: false }).text,
    render(main, { ...o, text: false, markdown: true }).markdown,
    render(main, { ...o, text: true, markdown: true }),
  ] as const;
}

const WORDS = [
  'alpha',
  'beta *x*',
  'a_b',
  ' [ref] ',
  '`tick`',
  '  two\tspaces ',
  '\n',
  'x\u00a0y',
  '# not',
  '1. item',
  '|pipe|',
];
const LEAF = fc.constantFrom(...WORDS, '<br>', '<img src="/i.png" alt="pic">', '<a href="#s">¶</a>', '<hr>');
const WRAP = fc.constantFrom(
  ['<p>', '</p>'],
  ['<div>', '</div>'],
  ['<div class="caption">', '</div>'],
  ['<figure><img src="f.png">', '<figcaption>Caption words</figcaption></figure>'],
  ['<h2>', '</h2>'],
  ['<ul><li>', '</li><li><a href="/one">one link</a></li></ul>'],
  ['<ol start="3"><li>', '</li></ol>'],
  ['<dl><dt>term</dt><dd>', '</dd><div><dt>--opt</dt><dd>grouped</dd></div></dl>'],
  [
    '<table><tr class="table-caption"><td>cap</td><td>tion</td></tr><tr><th>',
    '</th><td>cell</td></tr></table>',
  ],
  ['<table><tr><td>', '</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>'],
  ['<blockquote>', '</blockquote>'],
  ['<pre><code class="language-js">', '</code></pre>'],
  ['<a href="/x">', '</a>'],
  ['<strong>', '</strong>'],
  ['<em>', '</em>'],
  ['<code>', '</code>'],
  ['<section><p>Some prose of a section that reads as text.</p>', '</section>'],
  ['<div class="credit">', '</div>'],
);
const { node } = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    LEAF,
    fc
      .tuple(WRAP, fc.array(tie('node'), { maxLength: 4 }))
      .map(([[open, close], kids]) => open + kids.join('') + close),
  ),
}));

describe('render: text and Markdown in one walk', () => {
  it('each output is what a walk writing it alone writes, cut at any length', () => {
    fc.assert(
      fc.property(
        fc.array(node, { minLength: 1, maxLength: 6 }),
        fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 300 })),
        fc.boolean(),
        (kids, maxLength, prune) => {
          const t = tree(`<html><body><article>${kids.join('')}</article></body></html>`);
          const chosen = selectMainContent(t, []);
          trimFurniture(chosen);
          for (const main of [
            chosen,
            { root: t.body(), pruneLinks: prune },
            { root: t.body(), pruneLinks: false, selected: true },
          ]) {
            const [text, markdown, both] = three(main, maxLength);
            expect(both.text).toBe(text);
            expect(both.markdown).toBe(markdown);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('a caption is in the Markdown only, and a definition list is a list there and blocks in the text', () => {
    const t = tree(
      '<html><body><main><figure><img src="/a.png" alt="A"><figcaption>The caption</figcaption></figure>' +
        '<dl><dt>--verbose</dt><dd>Says more.</dd></dl><p>After.</p></main></body></html>',
    );
    const out = render(
      { root: t.body(), pruneLinks: false },
      { base: BASE, maxLength: -1, text: true, markdown: true },
    );
    expect(out.text).toBe('--verbose Says more. After.');
    expect(out.markdown).toBe(
      '![A](https://docs.example.org/a.png)\n\nThe caption\n\n--verbose\n:   Says more.\n\nAfter.',
    );
  });
});
