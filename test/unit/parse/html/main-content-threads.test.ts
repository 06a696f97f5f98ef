import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// Threads, listings and blurbs (issue 42, point 6), each on a small page with the markup of the
// software that serves it; WCXB's dev split (scripts/bench/content-web.mjs) showed each one.
const PAGE = 'https://forum.example.org/viewtopic.php?t=112320';
const text = (html: string) => expectParsed(parse(PAGE, html)).text;

const OPENING =
  'You can download the release from the usual place. Version 7.1 is a significant new version with a new user interface.';
const REPLY_1 =
  'Same here on my updated Windows 10 host: both of my guests have the same problems after the upgrade to the new version.';
const REPLY_2 =
  'Extremely slow network performance with the new release in all our Linux machines; we had to go back to the old one.';
const REPLY_3 =
  'Please do include your logs, since the support team will want them to find and fix this quickly.';

describe('main content: a thread keeps its opening post', () => {
  it("a post titled by a link to itself (phpBB's permalink heading) is not a teaser of another page", () => {
    const post = (id: number, title: string, body: string) =>
      `<div id="p${id}" class="post has-profile"><div class="inner"><dl class="postprofile"><dt><a href="/u/1">galitsyn</a></dt><dd>Posts: 138</dd><dd>Joined: 4. Jul 2012, 16:09</dd><dd>Primary OS: Fedora other</dd></dl>
<div class="postbody"><div id="post_content${id}"><h3><a href="./viewtopic.php?p=${id}#p${id}">${title}</a></h3>
<p class="author">by galitsyn » 11. Sep 2024</p><div class="content">${body}</div></div></div></div></div>`;
    const html = `<html><body><div id="page-body" role="main"><h2><a href="./viewtopic.php?t=112320">Discuss the 7.1 release here</a></h2>
${post(1, 'Discuss the 7.1 release here', OPENING)}${post(2, 'Re: Discuss the 7.1 release here', REPLY_1)}
${post(3, 'Re: Discuss the 7.1 release here', REPLY_2)}
<div class="action-bar"><a href="./viewforum.php?f=6">Return to “Using VirtualBox”</a> <span>Jump to</span><ul class="jumpbox">
${['Howtos and Tutorials', 'Rules and FAQ', 'Generic Advice', 'Windows Hosts', 'Linux Hosts', 'Other Hosts', 'Windows Guests', 'Linux Guests', 'Other Guests', 'VirtualBox on Windows Hosts', 'VirtualBox on Mac OS X Hosts', 'VirtualBox on Linux Hosts'].map((f, i) => `<li><a href="./viewforum.php?f=${i}">${f}</a></li>`).join('')}</ul></div></div></body></html>`;
    const t = text(html);
    expect(t).toContain(OPENING);
    expect(t).toContain(REPLY_1);
    expect(t).toContain(REPLY_2);
  });

  it('posts alike, none dominant, each with its author pane (XenForo), are kept together, not only the one that scores best', () => {
    const post = (state: string, author: string, body: string) =>
      `<article class="js-post message ${state}" data-author="${author}"><div class="message-cell message-cell--user">
<a href="/members/${author}">${author}</a> <span>Member</span></div><div class="message-cell message-cell--main">
<header class="message-attribution"><a href="/posts/1">Jan 15, 2024</a></header>
<article class="message-body"><div class="bbWrapper">${body}</div></article></div></article>`;
    const long = `<ul><li>${REPLY_1}</li><li>${REPLY_2}</li><li>${REPLY_3}</li><li>${REPLY_1.replace('Windows 10', 'macOS')}</li></ul>`;
    const html = `<html><body><h1>Trends of 2024?</h1><div class="block-body">
${post('nested-level-root', 'sanmartin', `${OPENING}<br>${REPLY_2}`)}${post('nested-level-children', 'babylon', long)}
${post('nested-level-root', 'counting', `${REPLY_3}<br>${OPENING}`)}</div><footer><a href="/terms">Terms</a></footer></body></html>`;
    const t = text(html);
    expect(t).toContain(OPENING);
    expect(t).toContain(REPLY_2);
    expect(t).toContain(REPLY_3);
  });

  it("posts whose bodies are named comments inside each post's own column (Invision) are all kept", () => {
    const post = (id: number, body: string) =>
      `<article id="elComment_${id}" class="cPost ipsComment"><aside class="ipsComment_author"><a href="/u/${id}">Soapm</a></aside>
<div class="ipsColumn ipsColumn_fluid"><div id="comment-${id}_wrap" class="ipsComment_content"><p>Posted March 5, 2024</p>
<div data-role="commentContent" class="ipsType_richText"><p>${body}</p></div></div></div></article>`;
    const html = `<html><body><main id="ipsLayout_body"><h1>New UI 2024</h1><div id="comments"><form action="/multimod">
${[OPENING, REPLY_1, REPLY_2, REPLY_3, REPLY_1, REPLY_2].map((p, i) => post(i + 1, p)).join('\n')}</form></div></main></body></html>`;
    const t = text(html);
    expect(t).toContain(OPENING);
    expect(t).toContain(REPLY_3);
    expect(t.split(REPLY_2).length - 1).toBe(2);
    // The posts as the content, not the whole page's text as a fallback: the author panes stay out.
    expect(t).not.toContain('Soapm');
  });

  it('a long blog post keeps its reader comments out, each in an article of its own', () => {
    const comment = (id: number, body: string) =>
      `<li class="comment"><article id="comment-${id}" class="comment"><footer>Reader ${id}</footer><div class="comment-content"><p>${body}</p><p>${body}</p></div></article></li>`;
    const paragraphs = Array.from({ length: 40 }, (_, i) => `<p>${i % 2 ? OPENING : REPLY_3}</p>`).join('\n');
    const html = `<html><body><div class="postarea"><h1>Comfort watches, day eighteen</h1>${paragraphs}
<div id="comments"><ol class="commentlist">${Array.from({ length: 40 }, (_, i) => comment(i, i % 2 ? REPLY_1 : REPLY_2)).join('')}</ol></div></div></body></html>`;
    const t = text(html);
    expect(t).toContain(OPENING);
    expect(t).not.toContain(REPLY_1);
  });
});

describe('main content: a declared article that is only a blurb', () => {
  it('a summary card in <article> before a long transcript beside it keeps the transcript', () => {
    const transcript = Array.from(
      { length: 12 },
      (_, i) => `<p>${[OPENING, REPLY_1, REPLY_2, REPLY_3][i % 4]}</p>`,
    ).join('\n');
    const html = `<html><body><nav><a href="/">Home</a></nav><main class="main"><div class="page-header"><h1>Podcast</h1></div>
<article class="post audio"><h2>Keeping it clean</h2><div class="entry-content"><p>Everybody does it. Or should. But what is the best and healthiest way to clean?</p>
<p>This episode features audio from three videos on cleaning products. Visit the video pages for all sources and notes related to this podcast, and the doctor's notes on each of the studies it cites.</p></div></article>
<div id="podcast-info" role="tablist"><div class="card"><div class="card-header" role="tab"><a href="#collapseTranscript">Transcript</a></div>
<div id="collapseTranscript" class="collapse" role="tabpanel"><div class="card-block">${transcript}</div></div></div></div></main></body></html>`;
    const t = text(html);
    expect(t).toContain('This episode features audio from three videos on cleaning products.');
    expect(t).toContain(REPLY_3);
  });

  it('a long article beside a shorter block of prose is still the content alone', () => {
    const body = Array.from({ length: 10 }, (_, i) => `<p>${[OPENING, REPLY_1, REPLY_2][i % 3]}</p>`).join(
      '\n',
    );
    const html = `<html><body><main><article><h1>Release notes</h1>${body}</article>
<div class="about"><p>${REPLY_3}</p><p>${REPLY_3.replace('logs', 'notes')}</p></div></main></body></html>`;
    expect(text(html)).not.toContain(REPLY_3);
  });

  // A calculator page (bankrate's, WCXB dev 4649): <main> holds the title and one lead paragraph, the
  // explanation follows in sections after </main>, the calculator itself is left to a script.
  const explained = (
    lead: string,
  ) => `<html><body><header><nav><a href="/">Home</a> <a href="/retirement/">Retirement</a></nav></header>
<div id="main-content"><main class="CalculatorTemplate"><section id="calculatorHero"><h1>Retirement calculator</h1>
<p class="text-base">${lead}</p></section><section id="calculatorSection"><div id="calculator"></div></section></main></div>
<section id="calculatorContentSection"><div class="wysiwyg">${[OPENING, REPLY_1, REPLY_2, REPLY_3, OPENING.replace('7.1', '7.2'), REPLY_1, REPLY_2].map((p) => `<p>${p}</p>`).join('\n')}</div>
<div class="wysiwyg"><h3>Definitions</h3><ul><li>${REPLY_1.replace('Windows', 'Linux')}</li><li>${REPLY_2.replace('Linux', 'BSD')}</li></ul></div></section>
<footer><p>© 2025 Example. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`;

  it('a short <main> with far more prose after it keeps both (a template that closes <main> early)', () => {
    const t = text(
      explained(
        'Do you know how much you will need to save to ensure a secure retirement? Use this retirement calculator to determine whether you are on track to meet your retirement goals. View your retirement savings balance and calculate your withdrawals for each year.',
      ),
    );
    expect(t).toContain('Do you know how much you will need to save');
    expect(t).toContain(REPLY_3);
    expect(t).toContain(REPLY_2.replace('Linux', 'BSD'));
    expect(t).not.toContain('All rights reserved');
  });

  it('a short <main> after a promotion bar of prose keeps the <main> alone (what precedes it is the template)', () => {
    const terms =
      'The custom skincare set offer is valid through March 31 while supplies last. Discount applies to the products in the set only and cannot be combined with other offers, nor applied to past purchases or gift cards. Items in the set may be returned within thirty days as a whole set only, in their original packaging, with the receipt of purchase.';
    const slides = `<div class="promo-bar__slide">${[
      OPENING,
      REPLY_1,
      REPLY_2,
      REPLY_3,
      OPENING,
      REPLY_1,
      REPLY_2,
    ]
      .map((p) => `<p>${p}</p>`)
      .join('')}</div>`;
    const html = `<html><body><div id="promoBar" class="promo-bar hide"><div class="promo-bar__carousel">${slides}</div></div>
<main id="main" role="main"><section class="page"><div class="page__rte rte"><p><span>${terms}</span></p></div></section></main>
<aside id="bag" class="bag"><form><p>Your bag is empty.</p></form></aside></body></html>`;
    const t = text(html);
    expect(t).toContain(terms);
    expect(t).not.toContain(REPLY_3);
  });

  it("a short <main> followed by a sign-in dialog's panels of prose keeps the <main> alone (zdf.de's login dialog)", () => {
    const lead =
      'New York ist das Epizentrum der Corona-Pandemie in den USA. Auch der Sport ist zum Stillstand gekommen, die Anteilnahme in den Top-Ligen ist groß, wie es weitergeht, weiß niemand. Die Ligen haben ihre Spielzeiten unterbrochen, die Spieler sind zu Hause.';
    const panels = [OPENING, REPLY_1, REPLY_2, REPLY_3, OPENING, REPLY_1, REPLY_2]
      .map((p) => `<p>${p}</p>`)
      .join('');
    const html = `<html><body><div class="page"><main id="skip-main" class="main"><div class="post-page"><h1>US-Sport in der Krise</h1><p>${lead}</p></div></main></div>
<div id="aria-login-dialog" class="b-dialog x-dialog-login"><div class="b-login"><div class="panel-wrapper">${panels}</div></div></div></body></html>`;
    const t = text(html);
    expect(t).toContain(lead);
    expect(t).not.toContain(REPLY_3);
  });

  it('a <main> holding the article is kept alone, the prose beside it not joined', () => {
    const body = [OPENING, REPLY_1, REPLY_2, REPLY_3, OPENING, REPLY_1, REPLY_2, REPLY_3].join(' ');
    const t = text(explained(body));
    expect(t).toContain(body);
    expect(t).not.toContain(OPENING.replace('7.1', '7.2'));
  });
});
