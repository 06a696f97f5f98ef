import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// Listings and product pages (issue 42, point 6), each on a small page with the markup of the sites
// WCXB's dev split showed losing it (scripts/bench/content-web.mjs --type listing|product).
const PAGE = 'https://shop.example.com/c/sharpening';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

const ABOUT =
  'We are an open community of writers publishing stories and expertise for curious readers every day.';
const TEASERS = [
  ['Why you know what to do and still do not do it', 'Benoit Malige · 4 min read'],
  ['Beating JavaScript performance limits with Rust', 'Teimur Gasanov · 13 min read'],
  ['Your life as an RPG: why lifespans feel true', 'Jake Watermelon · 2 min read'],
  ['Your AI designer has never disagreed with you', 'Tanya Donska · 5 min read'],
] as const;
const card = ([title, by]: readonly [string, string], i: number) =>
  `<article class="card"><div class="flex"><h2><a href="/p/${i}">${title}</a></h2><a href="/u/${i}">${by.split(' · ')[0]}</a> · ${by.split(' · ')[1]}</div></article>`;

describe('main content: listings keep their item titles and teasers', () => {
  it("a home page's cards beside a short 'about' blurb are its content (hackernoon.com's shape)", () => {
    const html = `<html><body><nav><a href="/">Home</a> <a href="/write">Write</a></nav><main>
<div class="grid">${TEASERS.map(card).join('')}</div>
<div class="about"><p>${ABOUT}</p><a href="/about">Learn more</a></div></main></body></html>`;
    const t = text(html);
    for (const [title] of TEASERS) expect(t).toContain(title);
    expect(t).toContain(ABOUT);
  });

  it('an article followed by related cards keeps the article alone', () => {
    const prose = `${ABOUT} ${ABOUT.replace('writers', 'editors')} ${ABOUT.replace('readers', 'listeners')}`;
    const html = `<html><body><main><article><h1>How we publish</h1><p>${prose}</p><p>${prose}</p><p>${prose}</p>
</article><div class="more">${TEASERS.map(card).join('')}</div></main></body></html>`;
    const t = text(html);
    expect(t).toContain('How we publish');
    for (const [title] of TEASERS) expect(t).not.toContain(title);
  });

  it("a shop's link-dense grid of product cards is kept with its intro (bestsharpeningstones.com's shape)", () => {
    const products = [
      ['Arkansas Sharpening Stones', '$7.95 - $179.95', 'The stones that built America.'],
      ['Diamond Sharpening Stones', '$17.95 - $108.95', 'Ultra sharp, fast working diamond stones.'],
      ['Shapton Sharpening Stones', '$43.95 - $359.95', 'Preferred by discerning chefs.'],
      ['Norton Water Stones', '$39.95 - $149.95', 'Water stones for every need.'],
    ];
    const intro =
      'We stock every major brand and type of sharpening stone in a variety of sizes, grits and materials.';
    const html = `<html><body><div class="container"><h1>Welcome to Best Sharpening Stones</h1><p>${intro}</p>
<div class="row">${products
      .map(
        ([name, price, line], i) =>
          `<div class="cat_box"><div class="box"><h3><a href="/c/${i}">${name}</a></h3><a href="/c/${i}"><span>${price}</span></a><span>${line}</span></div></div>`,
      )
      .join('')}</div></div><footer><a href="/terms">Terms</a></footer></body></html>`;
    const t = text(html);
    expect(t).toContain(intro);
    for (const [name, , line] of products) {
      expect(t).toContain(name);
      expect(t).toContain(line);
    }
  });

  it("a card's title styled as a caption (Etsy's h2.wt-text-caption) is its title, not a caption", () => {
    const items = [
      'Personalised leather wallet for men',
      'Handmade bifold card holder',
      'Minimalist coin purse',
    ];
    const html = `<html><body><main id="content"><h1>Handmade Wallet</h1><ul id="search-results">${items
      .map(
        (name, i) =>
          `<li><a class="listing-link" href="/l/${i}"><div class="card__info"><h2 class="wt-text-caption card__title">${name}</h2><p>Sale Price USD ${50 + i}.00</p></div></a></li>`,
      )
      .join('')}</ul></main></body></html>`;
    const t = text(html);
    for (const name of items) expect(t).toContain(name);
  });
});

const SUMMARY =
  'Standing or lying, the KALLAX series adapts to taste, space and budget: add inserts to suit your needs.';
const DETAILS =
  'The simple design with clean lines makes KALLAX flexible and easy to use at home, as a shelf or a sideboard.';
const CARE = 'Wipe clean using a damp cloth and a mild cleaner, then wipe dry with a clean cloth.';
const COOKIES =
  'We use cookies and similar technologies to improve your experience and to show you relevant advertising.';

describe("main content: a product's description in panels a click opens", () => {
  it('a details modal inside the product block is kept; a cookie modal beside it is not (ikea.com)', () => {
    const html = `<html><body><main id="content"><div class="product-summary"><h1>KALLAX</h1><p>${SUMMARY}</p>
<span>$79.99</span></div><div class="pipf-product-details-modal"><div class="pipf-product-details-modal__container">
<h2>Product details</h2><p>${DETAILS}</p><p>${CARE}</p></div></div>
<div class="cookie-modal"><p>${COOKIES}</p><p>${COOKIES}</p></div></main></body></html>`;
    const t = text(html);
    expect(t).toContain(SUMMARY);
    expect(t).toContain(DETAILS);
    expect(t).toContain(CARE);
    expect(t).not.toContain(COOKIES);
  });

  it("an <aside> or role=dialog panel named for the product's description is kept; a plain one is not", () => {
    const html = `<html><body><main><h1>KALLAX</h1><p>${SUMMARY}</p>
<aside class="product-description accordion"><h2>Details</h2><p>${DETAILS}</p></aside>
<div role="dialog" class="drawer product-specs"><h2>Care</h2><p>${CARE}</p></div>
<aside class="promo"><p>${COOKIES}</p></aside><div role="dialog" class="sheet"><p>${COOKIES}</p></div></main></body></html>`;
    const t = text(html);
    expect(t).toBe(`KALLAX ${SUMMARY} Details ${DETAILS} Care ${CARE}`);
  });

  it('a panel named for the product and for boilerplate (related products, a sign-in) stays out', () => {
    const html = `<html><body><main><h1>KALLAX</h1><p>${SUMMARY}</p><p>${DETAILS}</p>
<div class="related-products-modal"><p>${COOKIES}</p></div><aside class="login-product-drawer"><p>${COOKIES}</p></aside>
</main></body></html>`;
    expect(text(html)).toBe(`KALLAX ${SUMMARY} ${DETAILS}`);
  });

  it("Shopify's metafields (a product's text) are not metadata", () => {
    const html = `<html><body><main><h1>Beard oil</h1><p>${SUMMARY}</p>
<div class="metafield-rich_text_field"><p>${DETAILS}</p></div><div class="entry-meta"><p>${COOKIES}</p></div></main></body></html>`;
    expect(text(html)).toBe(`Beard oil ${SUMMARY} ${DETAILS}`);
  });
});
