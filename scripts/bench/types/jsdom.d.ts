// What scripts/bench/content-web.mjs uses of jsdom (the version in ../package.json), so the bench
// type-checks without its own npm install. Checked against the real package by running it.

export class VirtualConsole {}

export class JSDOM {
  constructor(html: string, options?: { url?: string; virtualConsole?: VirtualConsole });
  readonly window: { readonly document: Document; close(): void };
}
