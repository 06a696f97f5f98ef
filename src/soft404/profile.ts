import { closeTo, type FingerprintKind } from '../fingerprint/fingerprint.js';
import type { PageFingerprint } from '../fingerprint/page.js';

/**
 * What a host answers to URLs that cannot exist (soft-404 probes), and what that says about its
 * other pages. Bar-Yossef et al. (WWW 2004): a server that answers 200 to a random URL has a "not
 * found" page of its own, and a page of it that answers the same is a soft 404.
 */

/** A fingerprint as stored: kind, hash and token count (the URL-blind one of a probe's page). */
export interface StoredFingerprint {
  readonly kind: FingerprintKind;
  readonly hash: string;
  readonly tokens: number;
}

/** One probe's answer. */
export type ProbeAnswer =
  | { readonly probe: string; readonly kind: 'notFound'; readonly status: number }
  | { readonly probe: string; readonly kind: 'redirect'; readonly status: number; readonly target: string }
  | { readonly probe: string; readonly kind: 'page'; readonly fingerprint: StoredFingerprint }
  /** No usable answer: robots.txt forbids the probe, a 5xx, no answer, not HTML. */
  | { readonly probe: string; readonly kind: 'other'; readonly detail: string };

/**
 * - `page`: a probe got a 200 page; pages like it are soft 404s;
 * - `redirect`: the probes were redirected to one place; redirects there are soft 404s;
 * - `notFound`: the host says not found properly (404, 410, or redirects that differ);
 * - `unknown`: no probe got a usable answer; probed again sooner.
 */
export type Verdict = 'page' | 'redirect' | 'notFound' | 'unknown';

/** A host's soft-404 profile: the `soft404` object of its document in the hosts index. */
export interface HostProfile {
  /** Milliseconds since the epoch. */
  readonly probedAt: number;
  readonly verdict: Verdict;
  /** For `page`: the URL-blind fingerprints of the 200 answers. */
  readonly fingerprints: readonly StoredFingerprint[];
  /** For `redirect`: where the probes went. */
  readonly redirectTo?: string;
  readonly answers: readonly ProbeAnswer[];
}

/** The profile the answers make. */
export function profileOf(answers: readonly ProbeAnswer[], probedAt: number): HostProfile {
  const pages = answers.flatMap((a) => (a.kind === 'page' ? [a.fingerprint] : []));
  const targets = new Set(answers.flatMap((a) => (a.kind === 'redirect' ? [a.target] : [])));
  const base = { probedAt, answers, fingerprints: pages };
  if (pages.length > 0) return { ...base, verdict: 'page' };
  // Every probe sent to one place (a home page, /404.html): a redirect there means "not found".
  const redirects = answers.filter((a) => a.kind === 'redirect').length;
  if (targets.size === 1 && redirects >= 1 && redirects === answers.filter((a) => a.kind !== 'other').length)
    return { ...base, verdict: 'redirect', redirectTo: [...targets][0]! };
  if (answers.some((a) => a.kind === 'notFound' || a.kind === 'redirect'))
    return { ...base, verdict: 'notFound' };
  return { ...base, verdict: 'unknown' };
}

/** The host's root page is never a soft 404 (it is what a catch-all serves, and a site's entry). */
export function isRoot(url: string): boolean {
  try {
    const u = new URL(url);
    return u.pathname === '/' && u.search === '';
  } catch {
    return false;
  }
}

/** Why a 200 page is a soft 404, or undefined. */
export function soft404Page(
  profile: HostProfile | undefined | null,
  url: string,
  fp: PageFingerprint | undefined,
): string | undefined {
  if (profile?.verdict !== 'page' || !fp || isRoot(url)) return undefined;
  const mine = { kind: fp.kind, hash: fp.urlBlind, tokens: fp.tokens };
  for (const [i, f] of profile.fingerprints.entries()) {
    const d = closeTo(mine, f);
    if (d === undefined) continue;
    const probe = profile.answers.filter((a) => a.kind === 'page')[i]?.probe ?? '?';
    return (
      `answers 200 like the host's answer to ${probe}, a URL that cannot exist ` +
      `(distance ${d}, probed ${new Date(profile.probedAt).toISOString()})`
    );
  }
  return undefined;
}

/** Why a redirect is a soft 404, or undefined. */
export function soft404Redirect(
  profile: HostProfile | undefined | null,
  url: string,
  target: string | undefined,
): string | undefined {
  if (profile?.verdict !== 'redirect' || target === undefined || isRoot(url)) return undefined;
  if (target !== profile.redirectTo) return undefined;
  const probe = profile.answers.find((a) => a.kind === 'redirect')?.probe ?? '?';
  return (
    `redirects to ${target}, as the host does with ${probe}, a URL that cannot exist ` +
    `(probed ${new Date(profile.probedAt).toISOString()})`
  );
}

/** When a host is probed again: after the interval, or sooner (an hour at most) when nothing came of it. */
export function reprobeAt(profile: HostProfile, intervalMs: number): number {
  return profile.probedAt + (profile.verdict === 'unknown' ? Math.min(intervalMs, 3_600_000) : intervalMs);
}
