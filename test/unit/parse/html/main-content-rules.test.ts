import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// One test per rule of the main-content extractor (src/parse/html/main-content.ts), each on a small
// page with the markup of the sites the rule was written for.
const PAGE = 'https://www.example.com/news/item.html';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

describe('main content: page structure', () => {
  it('a page without </head> nor <body> keeps its text: the first element not of a head ends the head', () => {
    const html =
      '<!DOCTYPE html><html><head><meta charset="UTF-8"><title>Wages</title>' +
      '<script>var a = 1;</script><noscript><div><img src="/pixel.gif"></div></noscript><br>' +
      '<div class="article"><h1>Good wages are not enough</h1>' +
      '<p>The business centre invited employers to talk about finding staff while skilled workers are scarce.</p>' +
      '<p>The head of personnel of the best-liked employer in the country took part in the round.</p></div></html>';
    expect(text(html)).toBe(
      'Good wages are not enough The business centre invited employers to talk about finding staff while ' +
        'skilled workers are scarce. The head of personnel of the best-liked employer in the country took part in the round.',
    );
  });
});
