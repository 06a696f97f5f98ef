import { describe, expect, it } from 'vitest';
import { type UrlReport, urlReportLines } from '../../../src/console/url-text.js';
import { Metadata } from '../../../src/model/metadata.js';

// What `crawler url` prints and the console's "explain one URL" box shows: one line per fact, and
// nothing a page wrote (metadata, title, reasons) can break a line or send a terminal a control.

const URL_ = 'https://a.test/p';

function report(over: Partial<UrlReport> = {}): UrlReport {
  return {
    report: {
      url: URL_,
      known: true,
      key: 'a.test',
      due: 'due in 30 min (2026-12-06T17:00:00.000Z)',
      transitions: [
        '2026-12-06T16:00:00.000Z  DISCOVERED -> FETCHED  (fetched; next 2026-12-06T17:00:00.000Z)',
      ],
      content: { id: 'x', title: 'Title\u001b[2J\nsecond line', characters: 120 },
    },
    doc: {
      url: URL_,
      status: 'FETCHED',
      key: 'a.test',
      nextFetchDate: 0,
      metadata: Metadata.of({ depth: '0', 'parse.title': 'a <b>bold</b>\r\nfake: line' }),
    },
    host: 'a.test',
    rendering: undefined,
    contentText: 'text',
    contentMarkdown: undefined,
    ...over,
  };
}

describe('the text of one URL (crawler url, the console)', () => {
  it('says status, metadata, transitions, content and rendering, indented as the command prints', () => {
    const lines = urlReportLines(URL_, report(), 'content');
    expect(lines[0]).toBe(URL_);
    expect(lines).toContain('  status FETCHED, key a.test, due in 30 min (2026-12-06T17:00:00.000Z)');
    expect(lines).toContain('  metadata:');
    expect(lines).toContain('    depth = 0');
    expect(lines).toContain('  transitions:');
    expect(lines).toContain('  content (index "content"):');
    expect(lines).toContain('    characters: 120');
    expect(lines.at(-1)).toMatch(/^ {2}rendering: host a\.test: no render decision/);
  });

  it('page-controlled values stay on their line, their control characters blanked (HTML is left to textContent)', () => {
    const lines = urlReportLines(URL_, report(), 'content');
    expect(lines).toContain('    parse.title = a <b>bold</b> fake: line');
    expect(lines).toContain('    title: Title [2J second line');
    for (const l of lines) expect(l).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('an unknown URL: not in the status index, and why no transitions are shown', () => {
    const lines = urlReportLines(
      URL_,
      report({
        doc: undefined,
        report: {
          url: URL_,
          known: false,
          transitions: 'not recorded: ...',
          content: 'not in the content index',
        },
      }),
      'content',
    );
    expect(lines.slice(0, 4)).toEqual([
      URL_,
      '  not in the status index',
      '  transitions: not recorded: ...',
      '  content: not in the content index "content"',
    ]);
  });
});
