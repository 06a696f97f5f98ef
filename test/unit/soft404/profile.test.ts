import { describe, expect, it } from 'vitest';
import { originOf } from '../../../src/soft404/host-profiles.js';
import { chooseProbes, probeUrl } from '../../../src/soft404/probe-urls.js';
import { isRoot, profileOf, reprobeAt, soft404Page, soft404Redirect } from '../../../src/soft404/profile.js';

const H = '0123456789abcdef';
const page = { kind: 'simhash', hash: H, tokens: 200, urlBlind: H } as const;

describe('probe URLs', () => {
  it("are the parent path of a real URL plus a random name with the URL's extension", () => {
    expect(probeUrl('http://h/news/2024/fire.html?x=1#top', 'q7')).toBe('http://h/news/2024/q7.html');
    expect(probeUrl('http://h/news/2024/', 'q7')).toBe('http://h/news/q7/');
    expect(probeUrl('http://h/about', 'q7')).toBe('http://h/q7');
    expect(probeUrl('http://h/', 'q7')).toBe('http://h/q7');
    expect(probeUrl('not a url', 'q7')).toBeUndefined();
  });

  it('stand for the deepest folder and another one, never for the root when there is more', () => {
    let n = 0;
    const name = () => `r${n++}`;
    expect(
      chooseProbes(['http://h/', 'http://h/a/x.html', 'http://h/a/b/y.php', 'http://h/z.html'], name),
    ).toEqual(['http://h/a/b/r0.php', 'http://h/a/r1.html']);
    expect(chooseProbes(['http://h/', 'http://h/a/x.html'], name)).toEqual([
      'http://h/a/r2.html',
      'http://h/a/r3.html',
    ]);
    expect(chooseProbes(['http://h/'], name)).toEqual(['http://h/r4', 'http://h/r5']);
  });
});

describe('host profiles', () => {
  const t = Date.UTC(2026, 0, 1);
  it('a 200 to a probe makes a page profile; pages like its answer are soft 404s, the root never', () => {
    const p = profileOf(
      [
        { probe: 'http://h/a/q.html', kind: 'page', fingerprint: { kind: 'simhash', hash: H, tokens: 210 } },
        { probe: 'http://h/q.html', kind: 'notFound', status: 404 },
      ],
      t,
    );
    expect(p.verdict).toBe('page');
    expect(soft404Page(p, 'http://h/a/gone.html', page)).toMatch(
      /^answers 200 like the host's answer to http:\/\/h\/a\/q\.html/,
    );
    expect(soft404Page(p, 'http://h/', page)).toBeUndefined();
    expect(soft404Page(p, 'http://h/a/real.html', { ...page, urlBlind: 'fedcba9876543210' })).toBeUndefined();
    expect(isRoot('http://h/?q=1')).toBe(false);
  });

  it('probes redirected to one place make a redirect profile; elsewhere, or differing, no', () => {
    const p = profileOf(
      [
        { probe: 'http://h/a/q', kind: 'redirect', status: 302, target: 'http://h/' },
        { probe: 'http://h/q', kind: 'redirect', status: 301, target: 'http://h/' },
      ],
      t,
    );
    expect(p).toMatchObject({ verdict: 'redirect', redirectTo: 'http://h/' });
    expect(soft404Redirect(p, 'http://h/old', 'http://h/')).toMatch(
      /^redirects to http:\/\/h\/, as the host does/,
    );
    expect(soft404Redirect(p, 'http://h/old', 'http://h/new')).toBeUndefined();
    const differ = profileOf(
      [
        { probe: 'http://h/a/q', kind: 'redirect', status: 301, target: 'https://h/a/q' },
        { probe: 'http://h/q', kind: 'redirect', status: 301, target: 'https://h/q' },
      ],
      t,
    );
    expect(differ.verdict).toBe('notFound');
  });

  it('real 404s say nothing is a soft 404; no usable answer is probed again within the hour', () => {
    const nf = profileOf([{ probe: 'p', kind: 'notFound', status: 404 }], t);
    expect(nf.verdict).toBe('notFound');
    expect(soft404Page(nf, 'http://h/x', page)).toBeUndefined();
    const unknown = profileOf([{ probe: 'p', kind: 'other', detail: 'robots.txt' }], t);
    expect(unknown.verdict).toBe('unknown');
    expect(reprobeAt(unknown, 7 * 86_400_000)).toBe(t + 3_600_000);
    expect(reprobeAt(nf, 7 * 86_400_000)).toBe(t + 7 * 86_400_000);
  });
});

describe('the key of a profile', () => {
  it('is the origin: two servers on one address are two profiles', () => {
    expect(originOf('http://127.0.0.1:8080/a/b.html?x=1')).toBe('http://127.0.0.1:8080');
    expect(originOf('http://127.0.0.1:8081/a')).toBe('http://127.0.0.1:8081');
    expect(originOf('https://Example.COM/a')).toBe('https://example.com');
    expect(originOf('http://example.com:80/')).toBe('http://example.com');
    expect(originOf('mailto:x@example.com')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
  });
});
