import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load.js';
import { Metadata } from '../../../src/model/metadata.js';
import { compare } from '../../../src/render/compare.js';
import { pageInspector } from '../../../src/render/inspect.js';
import { BasicURLNormalizer } from '../../../src/urlfilters/basic-normalizer.js';
import { URLFilterChain } from '../../../src/urlfilters/chain.js';
import { systemClock } from '../../../src/util/clock.js';

const URL_ = 'https://app.example/page';
const view = (text: number, links: string[]) => ({ text, links });

describe('comparing a page as fetched and as rendered', () => {
  it('is a gain when rendering adds text the HTML lacked', () => {
    expect(compare(URL_, view(20, []), view(900, []))).toMatchObject({
      gain: true,
      textPlain: 20,
      textRendered: 900,
    });
    // A little more text on a long page (a cookie banner) is no gain.
    expect(compare(URL_, view(5000, []), view(5300, [])).gain).toBe(false);
  });

  it('counts only new links to the same host', () => {
    const plain = view(500, ['https://app.example/a']);
    const rendered = view(500, [
      'https://app.example/a',
      'https://app.example/b',
      'https://app.example/c',
      'https://app.example/d',
      'https://other.example/x',
      'https://other.example/y',
    ]);
    expect(compare(URL_, plain, rendered)).toMatchObject({ newLinks: 3, gain: true });
    expect(compare(URL_, plain, view(500, ['https://app.example/a', 'https://other.example/1'])).gain).toBe(
      false,
    );
  });

  it('does not count links that differ by a tracking parameter the normalisers remove', () => {
    const filter = new URLFilterChain([new BasicURLNormalizer({ queryElementsToRemove: ['utm_source'] })]);
    const config = buildConfig([{ source: 'test', entries: { 'http.agent.name': 'bot' } }]).config;
    const inspect = pageInspector(config, filter, systemClock);
    const headers = { 'content-type': ['text/html'] };
    const text = 'some words here '.repeat(20);
    const links = (q: string) => ['/a', '/b', '/c', '/d'].map((p) => `<a href="${p}${q}">${p}</a>`).join(' ');
    const plain = inspect(
      URL_,
      new Metadata(),
      headers,
      Buffer.from(`<body><p>${text}</p>${links('')}</body>`),
    );
    const rendered = inspect(
      URL_,
      new Metadata(),
      headers,
      Buffer.from(`<body><p>${text}</p>${links('?utm_source=app')}</body>`),
    );
    expect(plain.links).toHaveLength(4);
    expect(compare(URL_, plain, rendered)).toMatchObject({ newLinks: 0, gain: false });
  });
});
