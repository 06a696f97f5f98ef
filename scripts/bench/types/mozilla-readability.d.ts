// What scripts/bench/content-web.mjs uses of @mozilla/readability (the version in ../package.json),
// so the bench type-checks without its own npm install. Checked against the real package by running it.

export class Readability {
  constructor(document: Document);
  parse(): { textContent: string | null } | null;
}
