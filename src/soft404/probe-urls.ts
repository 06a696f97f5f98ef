import { randomBytes } from 'node:crypto';

/** A name no site has: 12 random lowercase letters and digits. */
export function randomName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
}

/**
 * A URL that cannot exist beside a real one: the real URL's parent path plus a random name with the
 * same extension (`/news/2024/fire.html` -> `/news/2024/<random>.html`; a directory URL
 * `/news/2024/` -> `/news/<random>/`), without query or fragment. Undefined for a URL that cannot
 * be parsed.
 */
export function probeUrl(real: string, name: string): string | undefined {
  let u: URL;
  try {
    u = new URL(real);
  } catch {
    return undefined;
  }
  u.search = '';
  u.hash = '';
  const segments = u.pathname.split('/');
  const last = segments.length - 1;
  if (segments[last] === '') {
    if (last <= 1) segments[last] = name;
    else segments[last - 1] = name;
  } else {
    const ext = /\.[A-Za-z0-9]{1,5}$/.exec(segments[last]!)?.[0] ?? '';
    segments[last] = name + ext;
  }
  u.pathname = segments.join('/');
  return u.toString();
}

/** The parent path of a URL (its folder), to tell apart the parts of a site a probe stands for. */
function parentOf(url: string): string {
  try {
    const p = new URL(url).pathname;
    return p.slice(0, p.lastIndexOf('/', p.length - 2) + 1);
  } catch {
    return '';
  }
}

/**
 * Two probe URLs for a host from the URLs of it the crawl fetched (the root only when there is
 * nothing else): beside the deepest URL, and beside one in another folder if there is one (else a
 * second name in the same folder).
 */
export function chooseProbes(seen: readonly string[], name: () => string = randomName): string[] {
  const pages = seen.filter((u) => {
    try {
      return new URL(u).pathname !== '/';
    } catch {
      return false;
    }
  });
  const byDepth = [...(pages.length > 0 ? pages : seen)].sort(
    (a, b) => parentOf(b).length - parentOf(a).length,
  );
  const first = byDepth[0];
  if (first === undefined) return [];
  const other = byDepth.find((u) => parentOf(u) !== parentOf(first)) ?? first;
  return [probeUrl(first, name()), probeUrl(other, name())].filter((u): u is string => u !== undefined);
}
