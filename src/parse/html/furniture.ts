import { PhraseFilter } from './phrase-filter.js';
import { FLAG, type Node } from './tree.js';

/**
 * The phrases of furniture lines (src/parse/html/trim.ts reads them on short blocks): "Read also",
 * "Subscribe...", "Follow us", "Photo: ...", "(c) ...", "3 comments", in English, German, French,
 * Spanish and Polish. A phrase counts only as words of the text, never inside a name written in
 * code: `subscri` is not "ast.Subscript", `log ?in` not `FTP.login(...)`, `copyright` not
 * `Py_GetCopyright` (documentation is made of such names).
 */
const PHRASES = [
  // Read more, related content.
  'lesen sie (?:auch|hier|mehr)',
  'auch interessant',
  'k[öo]nnte (?:sie|dich) (?:auch )?interessieren',
  'mehr zum thema',
  '^mehr (?:aus|zum|themen|dazu)',
  '^weitere (?:informationen|infos|beitr[äa]ge|artikel|themen|nachrichten)',
  'zum weiterlesen',
  'schon gelesen',
  '[äa]hnliche (?:beitr[äa]ge|artikel)',
  'read (?:more|also)',
  'related (?:articles?|posts?|stories|content)',
  'you (?:may|might) also like',
  'more on this',
  '^recommended\\b',
  'recommended for you',
  '(?:le|te) puede interesar',
  '^puedes ver\\b',
  'lee tambi[ée]n',
  'lire aussi',
  'les plus lus',
  'most read',
  'czytaj (?:te[żz]|tak[żz]e|r[óo]wnie[żz])',
  'zobacz (?:te[żz]|tak[żz]e)',
  // Subscribe, follow, donate, apps, accounts.
  'newsletter',
  // Not "subscript", "subscriber" (prose and names of documentation).
  '\\bsubscrib(?:e|ing)\\b',
  'abonnier',
  'abonnez',
  'suscr[ií]b',
  '\\bdonat(?:e|ion)',
  '^(?:jetzt )?spende',
  'jede (?:kleine )?spende',
  'folg(?:en sie|e) uns',
  'follow us',
  'follow (?:the )?[\\w ]{1,30} on (?:twitter|facebook|instagram)',
  's[íi]gu?[ei]nos',
  '(?:canal|channel|kanal)\\b.{0,20}\\b(?:telegram|youtube|whatsapp)',
  '(?:telegram|youtube|whatsapp)[- ]?(?:kanal|channel)',
  'eingeloggt',
  '\\blog ?in\\b',
  '\\bsign(?:ing)? up\\b',
  '\\bapps?\\b.{0,40}\\b(?:ios|android|download|herunterladen)',
  '(?:download|laden sie|get)\\b.{0,40}\\bapps?\\b',
  'app store|google play',
  // Credits and sources.
  '^\\(?(?:quellen?|sources?|fuente|[źz]r[óo]d[łl]o|fotos?|photos?|bild|titelbild|beitragsbild|image|cr[ée]dits?(?: photos?)?)\\s?:',
  '©',
  'copyright',
  // Advertising labels.
  '^\\W*(?:anzeige|werbung|advertisement|publicidad|publicit[ée]|sponsored)\\b',
  // Comments, licences, contact.
  '^\\W*(?:\\d+ |no |keine )?(?:comments?|kommentare?|commentaires?|comentarios?)\\b',
  'leave a (?:comment|reply)',
  '(?:add|post|write) a comment',
  'kommentar (?:schreiben|verfassen)',
  'cc-by',
  'all rights reserved',
  'alle rechte',
  '^kontakt:?$',
  'contact us',
  // Labels over lists of sources and notes.
  '^(?:zusatzinformationen|quellenangaben|quellen|sources|references|fuentes)\\s?:?$',
  // Share buttons, embeds waiting for consent, image viewers.
  '^teilen\\b',
  '(?:artikel|beitrag|seite) (?:teilen|empfehlen)',
  '^share\\b',
  'share (?:this|on|via)',
  '^partager',
  '^compartir',
  'udost[ęe]pnij',
  'externer inhalt',
  'external content',
  'inhalt (?:von .{1,60} )?(?:zu )?laden',
  'load (?:the )?content',
  'bild anzeigen',
  'vergr[öo]ßern',
  'enlarge',
  'permalink',
  'permalien',
  // Calls for support, update lines, categories, disclaimers.
  '^unterst[üu]tze\\b',
  'unterst[üu]tzen sie uns',
  'support us',
  'your support',
  'your help',
  '^(?:zuletzt )?(?:aktualisiert|updated|last modified|ge[äa]ndert)',
  '^(?:kategorie|category|categor[íi]a|cat[ée]gorie)\\s?:',
  'ohne gew[äa]hr',
];
const FURNITURE = new RegExp(PHRASES.join('|'), 'gi');
/** Most short blocks hold no phrase: this says so without running the 80 of them (phrase-filter.ts). */
const MAY_HOLD = new PhraseFilter(PHRASES);

/** Characters that join the parts of a name in code (`a.b`, `a_b`, `a::b`, `$a`, `a-b`). */
const NAME_PART = /[\p{L}\p{N}_.:$]/u;
const CAMEL = /\p{Ll}\p{Lu}/u;

/** The name in code around text[start, end): the run of name characters holding it. */
function nameAround(text: string, start: number, end: number): string {
  let a = start;
  let b = end;
  while (a > 0 && NAME_PART.test(text[a - 1]!)) a--;
  while (b < text.length && NAME_PART.test(text[b]!)) b++;
  // A sentence's full stop or colon after a word is not part of a name.
  while (b > end && /[.:]/.test(text[b - 1]!)) b--;
  return text.slice(a, b) + (text[b] === '(' ? '(' : '');
}

/** A name in code: dotted, with underscores, `::`, `$`, camel case, or called. */
const isCodeName = (name: string): boolean => /[_$(]|\w[.:]\w/.test(name) || CAMEL.test(name);

/** Whether a short block's text names itself as furniture (a phrase as words, not inside a name). */
export const isFurniture = (text: string): boolean => MAY_HOLD.mayMatch(text) && namesFurniture(text);

/** isFurniture without the test in front: for a text `mayBeFurniture` already let through. */
function namesFurniture(text: string): boolean {
  FURNITURE.lastIndex = 0;
  for (let m = FURNITURE.exec(text); m !== null; m = FURNITURE.exec(text)) {
    if (m[0] === '') {
      FURNITURE.lastIndex++;
      continue;
    }
    if (!isCodeName(nameAround(text, m.index, m.index + m[0].length))) return true;
  }
  return false;
}

/**
 * False when a block's kept text (measures.ts's keptText, whitespace collapsed) holds no phrase, read
 * from its text nodes without building it: most short blocks hold none, and joining, collapsing and
 * trimming each one's text only to test it cost more than the test (the bench web's profile).
 */
export function mayBeFurniture(n: Node): boolean {
  if (n.flags & FLAG.PRE) return false;
  MAY_HOLD.begin();
  scanKept(n);
  return MAY_HOLD.mayMatchRead();
}

/** Reads the text of a subtree, without its dropped elements, into MAY_HOLD. */
function scanKept(n: Node): void {
  for (const k of n.kids) {
    if (typeof k === 'string') MAY_HOLD.scan(k);
    else if (!(k.flags & FLAG.DROP)) scanKept(k);
  }
}

const CODE_TAGS = new Set(['code', 'tt', 'kbd', 'samp', 'var']);

/** Visible characters of a block inside code elements (a signature, a command line). */
function codeChars(n: Node): number {
  let c = 0;
  for (const k of n.kids) {
    if (typeof k === 'string' || k.flags & FLAG.DROP) continue;
    c += CODE_TAGS.has(k.tag) ? k.chars : codeChars(k);
  }
  return c;
}

/**
 * A short block that is furniture: its text names itself so, and it is not code (an API entry's
 * signature or a command is what the page documents, whatever words it holds). Asked only of a
 * block `mayBeFurniture` let through (trim.ts), so the test in front is not run again on its text.
 */
export const isFurnitureBlock = (b: Node, text: string): boolean =>
  !(b.flags & FLAG.PRE) && namesFurniture(text) && codeChars(b) * 2 < b.chars;
