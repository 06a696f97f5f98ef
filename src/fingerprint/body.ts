import { signature } from './fingerprint.js';

/**
 * The whole body's text of an HTML page, read straight from its bytes, for the whole-page signature
 * every fingerprinted page carries (`minhash.body`). A page is a duplicate only when its main text
 * is (nearly) the other's *and* so is its whole page (src/dedup/decide.ts): two pages that the
 * main-content extraction shrank to one shared text (a description, a table's caption without the
 * table) differ in the rest of their bodies, and this is where that shows. A scan of the bytes, no
 * second HTML parse (the parser collects no whole-body text when it extracts the main content).
 *
 * What it keeps: the characters outside tags, comments, `<script>`, `<style>`, `<template>` and
 * `<noscript>`, from `<body` on (the whole document when there is none). Entities are left as
 * written and bytes read as Latin-1: both pages compared are read the same way, which is all a
 * similarity needs.
 */
export function bodyText(html: Buffer | string): string {
  const s = typeof html === 'string' ? html : html.toString('latin1');
  let i = s.indexOf('<body');
  if (i < 0) i = s.indexOf('<BODY');
  if (i < 0) i = 0;
  const parts: string[] = [];
  let from = i;
  for (;;) {
    const lt = s.indexOf('<', i);
    if (lt < 0) break;
    // Adjacent tags give no text: one separator between two runs of text is enough.
    if (lt > from) parts.push(s.slice(from, lt), ' ');
    let end: number;
    if (s.charCodeAt(lt + 1) === BANG && s.startsWith('--', lt + 2)) end = after(s, '-->', lt + 4);
    else {
      end = after(s, '>', lt + 1);
      // Only a name starting with s, t or n can be a raw element (most tags are not looked at twice).
      const c = s.charCodeAt(lt + 1) | 0x20;
      const raw =
        c === 0x73 || c === 0x74 || c === 0x6e ? RAW.find((name) => nameAt(s, lt + 1, name)) : undefined;
      if (raw !== undefined) end = closeOf(s, raw, end);
    }
    i = from = end;
  }
  if (from < s.length) parts.push(s.slice(from));
  return parts.join('');
}

/** Elements whose content is no text. */
const RAW = ['script', 'style', 'template', 'noscript'];
const BANG = 0x21;

/** Whether the tag name at `at` is `name` (lower case), in any case, and ends there. */
function nameAt(s: string, at: number, name: string): boolean {
  for (let j = 0; j < name.length; j++)
    if ((s.charCodeAt(at + j) | 0x20) !== name.charCodeAt(j)) return false;
  const next = s.charCodeAt(at + name.length) | 0x20;
  return !((next >= 0x61 && next <= 0x7a) || (next >= 0x30 && next <= 0x39) || next === 0x2d);
}

/** Just past the first `close` at or after `from`, or the end of `s`. */
function after(s: string, close: string, from: number): number {
  const k = s.indexOf(close, from);
  return k < 0 ? s.length : k + close.length;
}

/** Just past the end tag of raw element `name` whose content starts at `from`. */
function closeOf(s: string, name: string, from: number): number {
  for (let k = s.indexOf('</', from); k >= 0; k = s.indexOf('</', k + 2))
    if (nameAt(s, k + 2, name)) return after(s, '>', k + 2);
  return s.length;
}

/** The whole body's MinHash signature and token count (fingerprint.ts's `signature`). */
export function bodyFingerprint(html: Buffer | string): { tokens: number; minhash?: string } {
  return signature(bodyText(html));
}
