import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// Service pages (issue 42, the modern web), each shaped on a page of WCXB's dev split: an online
// service's home page with a consent pop-up after its footer (7cups.com), a Webflow FAQ whose
// questions are the toggles that open their answers (waveapps.com), a testimonial coloured navy
// (fly.io, waveapps.com), cards with hashed class names (getlocal.agency), calls to action drawn as
// buttons after each section (openproject.org).
const text = (html: string) => expectParsed(parse('https://service.example.com/', html)).text;

const FEATURES = [
  'Free 24/7 chat: caring listeners are ready to talk with you at any hour of the day or night, for free.',
  'Affordable therapy online: confidential sessions with licensed therapists for a low monthly fee.',
  'Grow at your own pace: self-help guides and growth paths with proven tips on how to feel better.',
  'Support groups: scheduled group sessions on anxiety, depression, relationships and more, every day.',
  'Forums and guides: ask for help, share your own wisdom and life experience to help others along.',
  'Trained listeners: over half a million volunteers trained in active listening across the world.',
  'Therapy for any issue: from stress at work to grief, find a therapist who knows what you face.',
];
// Each feature in a wrapper of its own: no block holds the page, whose whole body is the content.
const landing = (after: string) => `<html><body><header><a href="/">Home</a></header>
<h1>Need someone to talk to?</h1>${FEATURES.map((f) => `<div class="feature"><div class="inner"><h2>${f.split(':')[0]}</h2><p>${f}</p></div></div>`).join('')}
<footer><a href="/privacy">Privacy Policy</a></footer>${after}</body></html>`;

describe('main content: a pop-up is no content however much prose it holds (popup.ts)', () => {
  // Four paragraphs (the rule that keeps prose whatever its class says), less than the page's text.
  const consent = [
    'We value your privacy. We and our partners use cookies to store and access information on your device.',
    'With your consent, we use cookies, pixels or other tracking technologies to collect personal data.',
    'Some of our partners process your personal data based on legitimate interest; you may object to it.',
    'You can withdraw your consent at any time by clicking Privacy Choices in the footer of every page.',
  ]
    .map((p) => `<p>${p}</p>`)
    .join('');

  it('a consent banner in a `div.modal` after the footer is left out', () => {
    const html = landing(
      `<div id="privacy-cmp-banner" class="modal fade"><div class="modal-dialog"><div class="modal-body"><h6>Help us keep this service free</h6>${consent}</div></div></div>`,
    );
    const out = text(html);
    for (const f of FEATURES) expect(out).toContain(f);
    expect(out).not.toContain('We value your privacy');
  });

  it('a consent banner in a `div.overlay` is left out as one in a `div.modal` is', () => {
    const html = landing(
      `<div class="overlay"><div class="overlay-body"><h6>Your choices</h6>${consent}</div></div>`,
    );
    const out = text(html);
    for (const f of FEATURES) expect(out).toContain(f);
    expect(out).not.toContain('We value your privacy');
  });

  it('a wrapper whose class only mentions a modal ("modal-enabled") still keeps its prose', () => {
    const story =
      '<p>The ferry to the island runs again from June, three times a day, after the harbour wall was rebuilt over the winter by the county.</p>'.repeat(
        5,
      );
    const html = `<html><body><div class="page modal-enabled"><h1>The ferry is back</h1>${story}</div><footer>Footer</footer></body></html>`;
    expect(text(html)).toContain('The ferry to the island runs again from June');
  });
});

describe('main content: class words read as words, not as parts of other names', () => {
  const intro =
    '<h1>Accounting software that works as hard as you do</h1><p>Track income and expenses, send invoices and run reports in one place, with bank connections that import your transactions every day.</p>';

  it('a testimonial coloured navy (`text-color-navy`) is no navigation', () => {
    const html = `<html><body><nav class="navbar"><a href="/pricing">Pricing</a> <a href="/login">Sign in</a></nav><main>${intro}
<div class="testimonial"><div class="testimonial__rich-text text-color-navy"><p>When I signed up it was a no brainer: one of the best decisions I have made for my books.</p></div></div></main></body></html>`;
    const out = text(html);
    expect(out).toContain('When I signed up it was a no brainer');
    expect(out).not.toContain('Pricing');
  });

  it('a card whose generated class name has "ad" after a digit (`jxk9ad-smkayb`) is no advert; `ad-slot` is', () => {
    const card = (t: string, p: string) => `<div class="jxk9ad-smkayb"><h3>${t}</h3><p>${p}</p></div>`;
    const html = `<html><body><div class="page">${intro}${card('Listings', 'Claim, update and fix your business listings on over 300 directories that control local search.')}${card('Reputation', 'Monitor and manage every review of your business from one place, and answer them in minutes.')}
<div class="ad-slot"><p>Buy cheap flights to the sun today, all destinations, limited offer.</p></div></div></body></html>`;
    const out = text(html);
    expect(out).toContain('Claim, update and fix your business listings');
    expect(out).toContain('Monitor and manage every review');
    expect(out).not.toContain('Buy cheap flights');
  });
});

describe('main content: an FAQ whose questions are toggles (permalink.ts)', () => {
  const qa = (q: string, a: string) =>
    `<div class="accordion-item"><a href="#" class="accordion-question"><h3>${q}</h3></a><div class="accordion-answer"><p>${a}</p></div></div>`;
  const card = (href: string, t: string, p: string) =>
    `<div class="card"><a href="${href}"><h3>${t}</h3></a><p>${p}</p></div>`;
  const page = (blocks: string) => `<html><body><main class="main-wrapper">
<section><h1>Accounting software for small businesses</h1><p>Keep track of your business health with reports that show month-to-month comparisons, so you can spot cash flow trends early and act on them.</p>
<p>Connect your bank, import your transactions and let the software sort your income and expenses into the right categories for you.</p></section>
<section><h2>Frequently asked questions</h2>${blocks}</section></main></body></html>`;

  it('keeps each answer under its question linked to the page itself (`href="#"`)', () => {
    const out = text(
      page(
        qa(
          'Do I need to install anything?',
          'The tools are web-based: you need an Internet connection and a browser, nothing more.',
        ) +
          qa(
            'Does it work with my bank?',
            'With a Pro plan you can connect your bank account and import your transactions automatically.',
          ),
      ),
    );
    expect(out).toContain('Do I need to install anything? The tools are web-based');
    expect(out).toContain('Does it work with my bank? With a Pro plan');
  });

  it('still leaves out teasers whose titles link to other pages', () => {
    const out = text(
      page(
        card(
          '/blog/bookkeeping',
          'How to do bookkeeping',
          'A guide to keeping your books in order, step by step, for the first year.',
        ) +
          card(
            '/blog/invoices',
            'Invoice templates',
            'Twelve free templates to download and send to your clients today.',
          ),
      ),
    );
    expect(out).toContain('Keep track of your business health');
    expect(out).not.toContain('A guide to keeping your books in order');
  });
});

describe('main content: a link drawn as a button is an action, not text (buttons.ts)', () => {
  const section = (title: string, body: string, action: string, attrs: string) =>
    `<section><h2>${title}</h2><p>${body}</p><a href="/signup" ${attrs}>${action}</a></section>`;

  it('leaves out "Start free trial" and "Read the case study" after each section, keeps a text link', () => {
    const html = `<html><body><main>
${section('Plan your projects', 'Create a project plan with phases and milestones, and share a timeline your whole team can follow every day.', 'Start free trial', 'class="button-op button-op-accent-primary"')}
${section('Track your time', 'Log the hours spent on every task and turn them into cost reports for your clients at the end of each month.', 'Read the case study', 'role="button"')}
${section('Keep your data', 'Install it on your own servers: your data never leaves your company, and you choose where it is kept.', 'How hosting on your own servers works, step by step', 'class="btn"')}
<p>Questions? <a href="/contact" class="link">Talk to our team</a> about your plans.</p></main></body></html>`;
    const out = text(html);
    expect(out).toContain('Create a project plan with phases and milestones');
    expect(out).toContain('Log the hours spent on every task');
    expect(out).not.toContain('Start free trial');
    expect(out).not.toContain('Read the case study');
    // Longer than a call to action: a link that says something is kept, whatever its class.
    expect(out).toContain('How hosting on your own servers works, step by step');
    expect(out).toContain('Questions? Talk to our team about your plans.');
  });

  it('keeps a link drawn as a button inside a sentence', () => {
    const story =
      '<p>The app keeps your notes in sync on every device you own, and it works offline on trains and planes too.</p>';
    const html = `<html><body><article><h1>Notes everywhere</h1>${story}
<p>Before the trip, <a class="btn" href="/maps">save the maps</a> so that they open without a signal.</p></article></body></html>`;
    expect(text(html)).toContain('Before the trip, save the maps so that they open without a signal.');
  });
});
