/**
 * A cheap test in front of a large case-insensitive alternation of phrases (the furniture phrases
 * of src/parse/html/furniture.ts): it says "no" for most texts without running the regular
 * expression, and never says "no" to a text the expression matches.
 *
 * Why: V8 runs an alternation of 80 phrases by trying each one at each position of the text; on a
 * page of short blocks (list items, captions, table cells) that cost 0.1 ms per page of the 1 ms
 * its parse takes (a CPU profile of the bench web's pages). Most phrases hold a run of plain
 * characters that any match must contain ("newsletter", "follow us", "lire aussi"); a block whose
 * text lacks every such run, and that the few phrases without one do not match, cannot match.
 *
 * How: the text's character 4-grams and trigrams (lower-cased) are hashed into a set of slots; a phrase
 * may match only if every 4-gram (the trigram of a run of three) of each of its plain runs is in
 * the set, and those of one branch of a group
 * it must pass through. Phrases without such runs of 3 characters
 * ("©", "[źz]r[óo]d[łl]o:") form a small expression that is run as it is. Lower-casing is sound for this: the flag `i` (without `u`) matches a
 * character to a pattern character only when their upper cases are equal (a character outside
 * ASCII never to one inside), and then, for the Latin letters the phrases are written in, their
 * lower cases are equal too (not so in Greek: final sigma).
 */

import { isSpaceCode } from '../strings.js';

const BITS = 1 << 14;
const MASK = BITS - 1;

/** A 4-gram's slot in the set. */
const slot4 = (a: number, b: number, c: number, d: number): number => extend4(a, slot(b, c, d));

/** A 4-gram's slot from its first character and its last three's slot (the scan has that one). */
const extend4 = (a: number, last3: number): number => (Math.imul(a, 0x27d4eb2f) ^ last3) & MASK;

/** A trigram's slot in the set. */
const slot = (a: number, b: number, c: number): number =>
  (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ c) & MASK;

/**
 * The runs of characters a match of `source` must contain literally, read from the expression's
 * top level: groups, classes, escapes of classes, `.` and anchors end a run, and a quantifier takes
 * back the character it applies to. Runs under `min` characters are left out (under three, they select no gram).
 */
export function requiredRuns(source: string, min = 3): string[] {
  const out: string[] = [];
  let run = '';
  const end = () => {
    if (run.length >= min) out.push(run.toLowerCase());
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const e = source[i + 1] ?? '';
      i++;
      // An escaped punctuation character is itself; \b, \s, \w, \d and the rest are classes.
      if (/[^\p{L}\p{N}]/u.test(e)) run += e;
      else end();
    } else if (c === '(' || c === '[') {
      end();
      i = skipGroup(source, i);
    } else if (c === '?' || c === '*' || c === '{') {
      // The quantified character is not required (the rest of the run before it is).
      run = run.slice(0, -1);
      end();
      if (c === '{') i = source.indexOf('}', i);
    } else if (c === '+' || c === '.' || c === '^' || c === '$' || c === '|') {
      // After "a+" the next character may follow more a's: the run ends with the a.
      end();
    } else {
      run += c;
    }
  }
  end();
  return out;
}

/** The index of the bracket that closes the group or class opened at `i` (escapes skipped). */
function skipGroup(source: string, i: number): number {
  const open = source[i];
  let depth = 0;
  for (let j = i; j < source.length; j++) {
    const c = source[j];
    if (c === '\\') j++;
    else if (open === '[') {
      if (c === ']' && j > i) return j;
    } else if (c === '[') j = skipGroup(source, j);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return source.length;
}

/** The branches of an expression's top-level alternation ("a|b(?:c|d)" is "a" and "b(?:c|d)"). */
export function branches(source: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') i = skipGroup(source, i);
    else if (c === '|') {
      out.push(source.slice(from, i));
      from = i + 1;
    }
  }
  out.push(source.slice(from));
  return out;
}

/**
 * The runs of the branches of a group a match of `source` must pass through, one per branch
 * ("(?:telegram|youtube)" holds "telegram" or "youtube"): of such groups, the one whose shortest
 * run is longest; [] when no group has a run of three or more in each branch.
 */
export function groupRuns(source: string): string[] {
  let best: string[] = [];
  let bestMin = 2;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = skipGroup(source, i);
    else if (c === '(') {
      const close = skipGroup(source, i);
      const after = source[close + 1];
      const optional = after === '?' || after === '*' || (after === '{' && source[close + 2] === '0');
      const inner = source.slice(i + 1, close);
      i = close;
      // Lookarounds and optional groups hold nothing a match must contain.
      if (optional || (inner.startsWith('?') && !inner.startsWith('?:'))) continue;
      const runs = branches(inner.replace(/^\?:/, '')).map((b) => longest(requiredRuns(b)));
      const min = Math.min(...runs.map((r) => r.length));
      if (min > bestMin) {
        best = runs;
        bestMin = min;
      }
    }
  }
  return best;
}

const longest = (runs: readonly string[]): string => runs.reduce((a, b) => (b.length > a.length ? b : a), '');

/** The test in front of the alternation of `phrases` (case-insensitive sources, top-level `|` only). */
export class PhraseFilter {
  /**
   * The phrases with runs, flat: per phrase, the runs a match holds all of, then those it holds one
   * of; each list as its count then, per run, its count of slots and the slots.
   */
  private readonly program: Int32Array;
  /**
   * Per slot, 1 + its first entry (0: none); an entry is a phrase keyed by the slot (`phraseOf`)
   * and 1 + the slot's next entry (`next`). A phrase's key is a slot every match of it marks: the
   * first slot of a run it holds all of, else one per run of its group. Only the phrases whose key
   * the text marks are checked: checking all 100 of them for each text was half the test's cost.
   */
  private readonly keyed = new Int32Array(BITS);
  /** The slots that are keys (~80), each once: looked up in the set once the text is read. */
  private readonly keys: Int32Array;
  private readonly phraseOf: Int32Array;
  private readonly next: Int32Array;
  /** Where each phrase starts in `program`. */
  private readonly starts: Int32Array;
  /**
   * The phrases without a run of three, each its own expression: one anchored at the start (`^...`)
   * is tried at the start only, which it is not inside an alternation with an unanchored one.
   */
  private readonly rest: readonly RegExp[];
  /**
   * Per character (lower-cased), 1 when a phrase of `rest` holds it literally: a text read in parts
   * (`scan`) may match one of them only if it holds one of these; `restAlways` when some such phrase
   * holds no character for sure. Bytes, so that the scan ORs one in without a test.
   */
  private readonly restChars = new Uint8Array(65536);
  private readonly restAlways: boolean;
  /** The state of a text read in parts: the last three characters, how many, a `rest` character seen. */
  private a = 0;
  private b = 0;
  private c = 0;
  private read = 0;
  private restSeen = false;
  /**
   * The set: a slot is in it when it holds the current text's stamp (1-255; cleared when they wrap).
   * Stamping instead of a bit set cleared for each text: no 2 KB to clear for each short block.
   */
  private readonly marks = new Uint8Array(BITS);
  private stamp = 0;

  constructor(phrases: readonly string[]) {
    const rest: string[] = [];
    const program: number[] = [];
    const starts: number[] = [];
    const phraseOf: number[] = [];
    const next: number[] = [];
    const keySlots = new Set<number>();
    const key = (slot: number) => {
      phraseOf.push(starts.length - 1);
      next.push(this.keyed[slot]!);
      this.keyed[slot] = next.length;
      keySlots.add(slot);
    };
    const list = (runs: readonly string[]) => {
      program.push(runs.length);
      for (const run of runs) {
        const slots = slotsOf(run);
        program.push(slots.length, ...slots);
      }
    };
    for (const p of phrases.flatMap(branches)) {
      const all = requiredRuns(p);
      const any = groupRuns(p);
      if (all.length === 0 && any.length === 0) {
        rest.push(p);
        continue;
      }
      starts.push(program.length);
      const keys = all.length > 0 ? [slotsOf(all[0]!)[0]!] : any.map((r) => slotsOf(r)[0]!);
      for (const k of new Set(keys)) key(k);
      list(all);
      list(any);
    }
    this.program = Int32Array.from(program);
    this.starts = Int32Array.from(starts);
    this.phraseOf = Int32Array.from(phraseOf);
    this.next = Int32Array.from(next);
    this.keys = Int32Array.from(keySlots);
    this.rest = rest.map((p) => new RegExp(p, 'i'));
    let always = false;
    for (const p of rest) {
      const run = longest(requiredRuns(p, 1));
      if (run === '') always = true;
      else this.restChars[run.charCodeAt(0)] = 1;
    }
    this.restAlways = always;
  }

  /** False when no phrase can match `text`; true when one may (run the expression then). */
  mayMatch(text: string): boolean {
    for (const r of this.rest) if (r.test(text)) return true;
    this.begin();
    this.scan(text);
    return this.mayHoldRead();
  }

  /**
   * Starts a text read in parts (`scan`), as a block's text is held by its elements: its string need
   * not be built for the test (most short blocks hold no phrase), only for the expression.
   */
  begin(): void {
    // A new stamp leaves every slot of the texts before out of the set (a wrap clears it).
    if (++this.stamp === 256) {
      this.marks.fill(0);
      this.stamp = 1;
    }
    this.read = 0;
    this.restSeen = false;
  }

  /**
   * Reads the next part of the text, whitespace collapsed as it is read: each run of `\s` is one
   * space. The grams of the text with its whitespace collapsed and trimmed are all among those read
   * (a space before or after it adds some): a phrase's runs hold no whitespace but single spaces
   * (see `slotsOf`), so whatever the text's whitespace, what it matches is found.
   */
  scan(part: string): void {
    const { marks, restChars } = this;
    const stamp = this.stamp;
    let a = this.a;
    let b = this.b;
    let c = this.c;
    let read = this.read;
    let rest = 0;
    // Each slot of the text is marked, no more: which of them are keys is asked once per text
    // (mayHoldRead), not twice per character (that test was a third of the loop's time on the
    // bench web). No call in the loop either (a table filled as characters were met cost a fifth).
    for (let i = 0; i < part.length; i++) {
      const d = FOLD[part.charCodeAt(i)]!;
      if (d === 32 && c === 32 && read > 0) continue;
      rest |= restChars[d]!;
      if (read >= 2) {
        const t = slot(b, c, d);
        marks[t] = stamp;
        if (read >= 3) marks[extend4(a, t)] = stamp;
      }
      a = b;
      b = c;
      c = d;
      read++;
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.read = read;
    if (rest !== 0) this.restSeen = true;
  }

  /**
   * After `begin` and `scan`: false when no phrase can match the text read, true when one may (of
   * `rest`, when the text holds a character one holds: `mayMatch` then runs them).
   */
  private mayHoldRead(): boolean {
    const { stamp, keyed, keys, marks } = this;
    for (let i = 0; i < keys.length; i++) {
      const h = keys[i]!;
      if (marks[h] !== stamp) continue;
      for (let e = keyed[h]!; e !== 0; e = this.next[e - 1]!)
        if (this.holds(this.phraseOf[e - 1]!, stamp)) return true;
    }
    return false;
  }

  /** After `begin` and `scan`: whether the text read may match a phrase, those of `rest` included. */
  mayMatchRead(): boolean {
    return this.restAlways || this.restSeen || this.mayHoldRead();
  }

  /** Whether the set holds the runs of phrase `p`: all of the first list, one of the second. */
  private holds(p: number, stamp: number): boolean {
    const prog = this.program;
    let at = this.starts[p]!;
    for (let n = prog[at++]!; n > 0; n--) {
      const len = prog[at++]!;
      if (!this.allSet(stamp, at, len)) return false;
      at += len;
    }
    const any = prog[at++]!;
    if (any === 0) return true;
    for (let n = any; n > 0; n--) {
      const len = prog[at++]!;
      if (this.allSet(stamp, at, len)) return true;
      at += len;
    }
    return false;
  }

  /** Whether the set (the slots marked `stamp`) holds the `len` slots of the program from `at`. */
  private allSet(stamp: number, at: number, len: number): boolean {
    const marks = this.marks;
    const prog = this.program;
    for (let i = at; i < at + len; i++) if (marks[prog[i]!] !== stamp) return false;
    return true;
  }
}

/**
 * Per code unit, what the scan reads for it: its lower case (its first code unit, when lower-casing
 * makes more), a space for any whitespace. One lookup instead of three tests a character (upper
 * case, whitespace, beyond ASCII).
 */
export const FOLD = foldTable();

/**
 * FOLD, 3 ms once per process: a block of 1,024 code units lower-cased at once, each one alone
 * only in a block whose lower case changes its length (U+0130's). In a block, a code unit has the
 * lower case it has alone: the one rule that looks at neighbours (a final sigma) needs a letter
 * before it, and U+03A3's neighbour U+03A2 is none; blocks split no surrogate pair.
 */
function foldTable(): Uint16Array {
  const fold = new Uint16Array(65536);
  const codes: number[] = new Array(1024);
  for (let from = 0; from < 65536; from += 1024) {
    for (let i = 0; i < 1024; i++) codes[i] = from + i;
    const lower = String.fromCharCode(...codes).toLowerCase();
    for (let i = 0; i < 1024; i++) {
      const c = from + i;
      if (isSpaceCode(c)) fold[c] = 32;
      else if (lower.length === 1024) fold[c] = lower.charCodeAt(i);
      else fold[c] = String.fromCharCode(c).toLowerCase().charCodeAt(0);
    }
  }
  return fold;
}

/** The slots of a run: its 4-grams (trigrams of words join too easily), or its trigram when it has three characters. */
function slotsOf(run: string): number[] {
  // A run holding other whitespace than single spaces is read as the runs between (the text is read collapsed).
  if (/[^\S ]| {2}/.test(run))
    return run
      .split(/[^\S ]| {2,}/)
      .filter((r) => r.length >= 3)
      .flatMap(slotsOf);
  const at = (i: number) => run.charCodeAt(i);
  if (run.length === 3) return [slot(at(0), at(1), at(2))];
  const slots: number[] = [];
  for (let i = 0; i + 3 < run.length; i++) slots.push(slot4(at(i), at(i + 1), at(i + 2), at(i + 3)));
  return slots;
}
