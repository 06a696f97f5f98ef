import { describe, expect, it } from 'vitest';
import { scriptSignal, thinCounts } from '../../../src/render/detect.js';

const html = (s: string) => Buffer.from(s);
const prose = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('signs that a page is built by scripts (scriptSignal)', () => {
  it('finds framework markers first', () => {
    expect(scriptSignal(html(`<html><body><p>${prose(100)}</p><script id="__NEXT_DATA__">{}</script>`))).toBe(
      'fingerprint:__NEXT_DATA__',
    );
    expect(scriptSignal(html('<app-root ng-version="17.0.0"></app-root>'))).toBe('fingerprint:ng-version=');
  });

  it('finds a noscript notice asking for JavaScript, in any case', () => {
    expect(
      scriptSignal(
        html(`<body><p>${prose(80)}</p><NOSCRIPT>You need to Enable JavaScript to run this app.</NOSCRIPT>`),
      ),
    ).toBe('noscript-js-required');
    // A noscript that asks nothing (a tracking pixel) is no sign.
    expect(
      scriptSignal(html(`<body><p>${prose(80)}</p><noscript><img src="/pixel"></noscript></body>`)),
    ).toBe(undefined);
  });

  it('finds an empty app root, with either quote and whitespace inside', () => {
    expect(scriptSignal(html(`<body><div id="root"></div><p>${prose(80)}</p></body>`))).toBe(
      'empty-root:root',
    );
    expect(scriptSignal(html("<body><main class='x' id='app'>\n  </main></body>"))).toBe('empty-root:app');
    expect(scriptSignal(html(`<body><div id="root"><p>${prose(80)}</p></div></body>`))).toBe(undefined);
    // An id on an element that is no root (a span) does not count.
    expect(scriptSignal(html(`<body><span id="app"></span><p>${prose(80)}</p></body>`))).toBe(undefined);
  });

  it('finds thin text on a page with scripts, and only with scripts', () => {
    expect(
      scriptSignal(html('<html><head><script src="/bundle.js"></script></head><body>Loading</body></html>')),
    ).toBe('thin-content');
    expect(scriptSignal(html('<html><body>Short page, no script.</body></html>'))).toBe(undefined);
    // Text of scripts and styles is not text; links and real text are.
    expect(
      scriptSignal(
        html(
          `<html><script>var x = "${prose(100)}";</script><style>${prose(50)}</style><body>hi</body></html>`,
        ),
      ),
    ).toBe('thin-content');
    expect(
      scriptSignal(
        html('<html><script src="/a.js"></script><body><a href="/1">1</a> <a href="/2">2</a></body></html>'),
      ),
    ).toBe(undefined);
    expect(
      scriptSignal(html(`<html><script src="/a.js"></script><body><p>${prose(60)}</p></body></html>`)),
    ).toBe(undefined);
  });

  it('counts visible text and links roughly as a parser would', () => {
    // "one two three 4", a tag counting as the space between words; a link needs an href.
    expect(
      thinCounts(html('<p>one  two</p><!-- a comment --><a href="/x">three</a><a name="n">4</a>')),
    ).toEqual({
      text: 16,
      links: 1,
    });
  });
});
