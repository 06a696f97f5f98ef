// @ts-check
// Sections of RESULTS.md measured by runs of their own (`npm run soak`, `npm run bench:spout`): each
// is a file in scripts/bench/sections/. report.mjs appends every one to the report the full bench
// writes, so a full run keeps them; the run that measured one splices it into the RESULTS.md there
// is now, in place of its previous version.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @param {string} name */
const begin = (name) => `<!-- section ${name}: scripts/bench/sections/${name}.md -->`;
/** @param {string} name */
const end = (name) => `<!-- end of section ${name} -->`;

/**
 * @param {string} name
 * @param {string} markdown
 */
function wrapped(name, markdown) {
  return `${begin(name)}\n${markdown.trim()}\n${end(name)}\n`;
}

/**
 * Every section file of `dir`, in name order, each between its markers.
 * @param {string} dir
 * @returns {string}
 */
export function sectionsMarkdown(dir) {
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `\n${wrapped(f.slice(0, -3), readFileSync(join(dir, f), 'utf8'))}`)
    .join('');
}

/**
 * Puts section `name` into the Markdown file `path`: in place of its previous version, or at the end.
 * @param {string} path
 * @param {string} name
 * @param {string} markdown
 */
export function spliceSection(path, name, markdown) {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const from = text.indexOf(begin(name));
  const to = text.indexOf(end(name));
  const block = wrapped(name, markdown);
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${block}${text.slice(to + end(name).length + 1)}`
      : `${text.trimEnd()}\n\n${block}`;
  writeFileSync(path, next);
}
