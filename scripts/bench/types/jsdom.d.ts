// What the bench scripts use of jsdom (content-docs-readability.mjs, content-web.mjs; the version in
// ../package.json), so the bench type-checks without its own npm install (and without the DOM
// library in the crawler's tsconfig). Checked against the real package by running it.

/** The little of the DOM that the bench reads: a node, an element, a document or a fragment. */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeValue: string | null;
  readonly localName: string;
  readonly childNodes: ArrayLike<DomNode>;
  cloneNode(deep: boolean): DomNode;
  contains(other: DomNode): boolean;
  remove(): void;
  querySelectorAll(selectors: string): ArrayLike<DomNode>;
}

/** A console that reports nothing (jsdom's default prints the page's CSS and script errors). */
export class VirtualConsole {}

export class JSDOM {
  constructor(html?: string, options?: { url?: string; virtualConsole?: VirtualConsole });
  readonly window: { readonly document: DomNode; close(): void };
  static fragment(html: string): DomNode;
}
