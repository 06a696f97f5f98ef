import { type Fingerprint, fingerprint } from './fingerprint.js';

/**
 * The whole body's text of an HTML page, read straight from its bytes, for the whole-body signature
 * of a page whose main text is short (under 80 tokens). Such a page is a duplicate only when its
 * main text equals the other's *and* their bodies are alike (src/dedup/decide.ts): two pages that
 * the main-content extraction shrank to one shared description ("Documentation for X", a cookie
 * notice) differ in the rest of their bodies, and this is where that shows. Only short pages pay
 * for it, and they are small: a scan of the bytes, no second HTML parse (the parser collects no
 * whole-body text when it extracts the main content).
 *
 * What it keeps: the characters outside tags, comments, `<script>`, `<style>`, `<template>` and
 * `<noscript>`, from `<body` on (the whole document when there is none). Entities are left as
 * written and bytes read as Latin-1: both pages compared are read the same way, which is all a
 * similarity needs.
 */
export function bodyText(html: Buffer | string): string {
  const s = typeof html === 'string' ? html : html.toString('latin1');
  const lower = (i: number, word: string) => s.slice(i, i + word.length).toLowerCase() === word;
  let i = indexOfTag(s, 'body');
  if (i < 0) i = 0;
  const parts: string[] = [];
  let from = i;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt < 0) break;
    if (lt > from) parts.push(s.slice(from, lt));
    let end: number;
    if (s.startsWith('<!--', lt)) end = closeAfter(s, '-->', lt + 4);
    else {
      const raw = RAW.find((t) => lower(lt + 1, t) && !/[a-z0-9-]/i.test(s[lt + 1 + t.length] ?? ''));
      end = raw ? closeAfter(s, `</${raw}`, lt + 1, true) : closeAfter(s, '>', lt + 1);
      if (raw) end = closeAfter(s, '>', end);
    }
    parts.push(' ');
    i = from = end;
  }
  if (from < s.length) parts.push(s.slice(from));
  return parts.join('');
}

/** Elements whose content is no text. */
const RAW = ['script', 'style', 'template', 'noscript'];

function indexOfTag(s: string, tag: string): number {
  const m = new RegExp(`<${tag}[\\s>/]`, 'i').exec(s);
  return m ? m.index : -1;
}

/** The index just past `close` at or after `from`, or the end of `s`. */
function closeAfter(s: string, close: string, from: number, ignoreCase = false): number {
  if (!ignoreCase) {
    const k = s.indexOf(close, from);
    return k < 0 ? s.length : k + close.length;
  }
  const m = new RegExp(close.replace('/', '\\/'), 'i');
  const k = s.slice(from).search(m);
  return k < 0 ? s.length : from + k + close.length;
}

/** The whole body's MinHash signature and token count (fingerprint.ts, word 3-shingles). */
export function bodyFingerprint(html: Buffer | string): Pick<Fingerprint, 'tokens' | 'minhash'> {
  const f = fingerprint(bodyText(html), { shingle: 3, shortTokens: 0 });
  return { tokens: f.tokens, ...(f.minhash ? { minhash: f.minhash } : {}) };
}
