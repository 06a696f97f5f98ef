/**
 * Signs in a page's raw HTML that its text and links are built by scripts: what makes a host a
 * candidate for rendering. After StormCrawler's JsRenderingDetector (external/playwright), on the
 * bytes and without decoding the page, since it runs on every scanned page of every new host:
 * native `indexOf` for the markers, a byte loop for the thin-text check, only when a script is there.
 *
 * Signs, the first found wins (its name is kept as the host's `render.signal`):
 * 1. a framework marker (`fingerprint:__NEXT_DATA__`...);
 * 2. a `<noscript>` asking for JavaScript (`noscript-js-required`);
 * 3. an empty app root: `<div id="root"></div>` and the like (`empty-root:root`);
 * 4. thin text with scripts: fewer than MIN_TEXT characters of text and fewer than MIN_LINKS links
 *    on a page that has a `<script>` (`thin-content`).
 */

/** SC's JsRenderingDetector defaults. */
export const MIN_TEXT = 200;
export const MIN_LINKS = 2;
/** Only the first bytes are scanned: markers and roots sit near the top, and a long page is not thin. */
const SCAN_LIMIT = 256 * 1024;

const FINGERPRINTS = [
  '__NEXT_DATA__',
  'window.__NUXT__',
  'ng-version=',
  'data-reactroot',
  'data-svelte-h=',
  'data-vue-app',
  'data-astro-cid',
  '<router-outlet',
].map((f) => [f, Buffer.from(f, 'latin1')] as const);

const ROOT_IDS = ['root', 'app', '__next', '__nuxt'];
const ROOTS = ROOT_IDS.flatMap((id) =>
  [`id="${id}"`, `id='${id}'`, `id=${id}>`, `id=${id} `].map((needle) => [id, Buffer.from(needle)] as const),
);
const ROOT_TAGS = /^<(div|main|section|app-root)\b/i;

const NOSCRIPT_ASKS =
  /enable\s+javascript|requires?\s+javascript|javascript\s+is\s+(disabled|required)|turn\s+on\s+javascript|javascript\s+enabled/i;

const LT = 0x3c;
const GT = 0x3e;

function isSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

function lowerAt(buf: Buffer, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const b = buf[at + i];
    if (b === undefined || (b | 0x20) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** Where `word` (lowercase) starts at or after `from`, any case; -1 when absent. */
function indexOfAnyCase(buf: Buffer, word: string, from: number, end: number): number {
  const lower = buf.indexOf(word, from, 'latin1');
  const upper = buf.indexOf(word.toUpperCase(), from, 'latin1');
  const hit = lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
  return hit >= end ? -1 : hit;
}

function noscriptAsks(html: Buffer, end: number): boolean {
  for (let at = indexOfAnyCase(html, '<noscript', 0, end); at >= 0; ) {
    const close = indexOfAnyCase(html, '</noscript', at, end);
    const stop = close < 0 ? Math.min(end, at + 4096) : close;
    if (NOSCRIPT_ASKS.test(html.toString('latin1', at, stop))) return true;
    if (close < 0) return false;
    at = indexOfAnyCase(html, '<noscript', close, end);
  }
  return false;
}

function emptyRoot(html: Buffer, end: number): string | undefined {
  for (const [id, needle] of ROOTS) {
    for (let at = html.indexOf(needle); at >= 0 && at < end; at = html.indexOf(needle, at + 1)) {
      const open = html.lastIndexOf(LT, at);
      if (open < 0 || !ROOT_TAGS.test(html.toString('latin1', open, Math.min(at, open + 16)))) continue;
      let i = html.indexOf(GT, at);
      if (i < 0) continue;
      i++;
      while (i < end && isSpace(html[i]!)) i++;
      if (html[i] === LT && html[i + 1] === 0x2f) return id;
    }
  }
  return undefined;
}

const SKIPPED = ['script', 'style', 'template', 'noscript', 'svg'];

/**
 * Characters of visible text (whitespace runs count one) and `<a href` links, roughly as a parser
 * would count them: markup, comments and the content of script, style, template, noscript and svg
 * elements are skipped. Stops counting once both thresholds are passed.
 */
export function thinCounts(html: Buffer, end = Math.min(html.length, SCAN_LIMIT)) {
  let text = 0;
  let links = 0;
  let space = true;
  let i = 0;
  while (i < end && (text < MIN_TEXT || links < MIN_LINKS)) {
    const b = html[i]!;
    if (b !== LT) {
      if (isSpace(b)) {
        if (!space) text++;
        space = true;
      } else {
        text++;
        space = false;
      }
      i++;
      continue;
    }
    if (html[i + 1] === 0x21 && html[i + 2] === 0x2d && html[i + 3] === 0x2d) {
      const close = html.indexOf('-->', i + 4, 'latin1');
      i = close < 0 ? end : close + 3;
      continue;
    }
    const skipped = SKIPPED.find(
      (t) => lowerAt(html, i + 1, t) && !/[\w-]/.test(String.fromCharCode(html[i + 1 + t.length] ?? 0x20)),
    );
    if (skipped) {
      const close = indexOfAnyCase(html, `</${skipped}`, i + 1, end);
      i = close < 0 ? end : close + 2;
      continue;
    }
    if ((html[i + 1]! | 0x20) === 0x61 && isSpace(html[i + 2] ?? 0)) {
      const gt = html.indexOf(GT, i);
      if (gt > 0 && indexOfAnyCase(html, 'href', i, gt) >= 0) links++;
    }
    const gt = html.indexOf(GT, i);
    i = gt < 0 ? end : gt + 1;
    if (!space) {
      // A tag between two words separates them as a space would (block elements do in a browser).
      space = true;
      text++;
    }
  }
  return { text, links };
}

/** The first sign that `html` is built by scripts, or undefined. */
export function scriptSignal(html: Buffer): string | undefined {
  const end = Math.min(html.length, SCAN_LIMIT);
  if (end === 0) return undefined;
  for (const [name, needle] of FINGERPRINTS) {
    const at = html.indexOf(needle);
    if (at >= 0 && at < end) return `fingerprint:${name}`;
  }
  if (noscriptAsks(html, end)) return 'noscript-js-required';
  const root = emptyRoot(html, end);
  if (root) return `empty-root:${root}`;
  if (indexOfAnyCase(html, '<script', 0, end) < 0) return undefined;
  const { text, links } = thinCounts(html, end);
  return text < MIN_TEXT && links < MIN_LINKS ? 'thin-content' : undefined;
}
