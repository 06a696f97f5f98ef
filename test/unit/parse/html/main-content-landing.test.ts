import { describe, expect, it } from 'vitest';
import { expectParsed, parse } from '../support.js';

// A landing page cut into sections, each in its own wrapper (src/parse/html/landing.ts), shaped on
// a project tool's home page of WCXB's dev split (freedcamp.com): `div#features_*` > `div.section_inner`
// > a heading and a list of short feature lines; the largest list is the best block.
const text = (html: string) => expectParsed(parse('https://tasks.example.com/', html)).text;

const feature = (name: string, line: string) => `<li><h3>${name}</h3><p>${line}</p></li>`;
const list = (items: string[][]) =>
  `<ul class="feature_list">${items.map(([n, l]) => feature(n!, l!)).join('')}</ul>`;
const section = (id: string, title: string, items: string[][]) =>
  `<div id="${id}" class="feature_toggle"><div class="section_inner"><h2>${title}</h2><div class="feature_wrap"><div class="col-6">` +
  `${list(items)}</div></div></div></div>`;

const TASKS = [
  ['Task List', 'Stay on top of your task lists and stay in touch with what is happening'],
  ['Kanban board', 'The modern way to manage tasks by dragging them into completion columns'],
  ['Subtasks', 'Successful task management involves splitting larger tasks into smaller subtasks'],
];
const APPS = [
  ['Discussions', 'Tired of unreadable email threads? Discuss ideas with your team from one place'],
  ['Milestones', 'Group lists of tasks and set a goal by a certain date for the whole team'],
  ['Wiki', 'Your organization has documentation and needs a place to keep each version of it'],
];
const MODULES = [
  ['Passwords', 'Sharing accounts for different services made easy, and more secure than a spreadsheet'],
  ['Invoices', 'Bill your clients easily from your time tracking records, in any currency you use'],
  ['Time tracking', 'Whether you are tracking your workday or billing clients, time is what you sell'],
  ['Issue tracker', 'Where the simplicity of tasks has limits, the issue tracker opens a world of tracking'],
];

describe('main content: a landing page of sections in wrappers of their own', () => {
  it('keeps every section, not the largest with its heading', () => {
    const html = `<html><body><div id="cookie_banner">We use cookies.</div>
${section('features_tasks', 'Get everything done', TASKS)}
${section('features_apps', 'Plan. Discuss. Achieve goals.', APPS)}
<div id="features_modules"><div class="section_inner"><h2>Our system is full of features!</h2>${list(MODULES)}</div></div>
<footer><a href="/about">About</a> <a href="/terms">Terms</a></footer></body></html>`;
    const out = text(html);
    for (const [name, line] of [...TASKS, ...APPS, ...MODULES]) {
      expect(out).toContain(name);
      expect(out).toContain(line);
    }
    expect(out).not.toContain('About');
  });

  it('an article whose prose holds most of the page keeps it without the blocks around it', () => {
    const prose = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Paragraph ${i} of the story: the council met on Tuesday to discuss the new bridge, and the members agreed that the work would start in spring after the floods.</p>`,
    ).join('');
    const html = `<html><body><div class="page"><div class="story"><h2>The bridge</h2><div class="story-body">${prose}</div></div>
<div class="promo"><div class="inner"><h3>Visit the town</h3><ul><li>The market opens every Saturday at eight in the morning.</li></ul></div></div></div></body></html>`;
    const out = text(html);
    expect(out).toContain('Paragraph 5 of the story');
    expect(out).not.toContain('The market opens every Saturday');
  });
});
