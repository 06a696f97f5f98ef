// What the bench scripts use of @mozilla/readability (content-docs-readability.mjs, content-web.mjs;
// the version in ../package.json), so the bench type-checks without its own npm install.
import type { DomNode } from 'jsdom';

export class Readability {
  constructor(doc: DomNode, options?: Record<string, unknown>);
  parse(): { content: string | null | undefined; textContent: string | null | undefined } | null;
}
