import { describe, expect, it } from 'vitest';
import { streamXml, type XmlElement } from '../../../../src/parse/xml/stream.js';

// The one streaming XML reader under feeds and sitemaps: namespaces in scope, xml:base, text only
// where a visitor keeps it, and a document cut short told apart from a whole one.

interface Seen {
  readonly local: string;
  readonly ns: string;
  readonly base: string | undefined;
  readonly depth: number;
  readonly text?: string;
  readonly implied?: boolean;
}

function read(xml: string, undeclared?: (prefix: string) => string) {
  const opened: Seen[] = [];
  const closed: Seen[] = [];
  let root: XmlElement | undefined;
  const complete = streamXml(xml, {
    root(el) {
      root = el;
    },
    open(el, depth) {
      el.text = [];
      opened.push({ local: el.local, ns: el.ns, base: el.base, depth });
    },
    close(el, depth, implied) {
      closed.push({ local: el.local, ns: el.ns, base: el.base, depth, text: el.text?.join(''), implied });
    },
    ...(undeclared ? { undeclared } : {}),
  });
  return { complete, opened, closed, root };
}

describe('streamXml', () => {
  it('resolves prefixes in scope only, the default namespace, and the visitor fallback for the rest', () => {
    const { opened, complete, root } = read(
      '<Root xmlns="urn:d" xmlns:a="urn:a"><a:X/><Y xmlns:b="urn:b"><b:Z/></Y><b:W/><dc:date/></Root>',
      (p) => (p === 'dc' ? 'urn:dc' : ''),
    );
    expect(complete).toBe(true);
    expect(root?.local).toBe('root');
    expect([...(root?.declared ?? [])]).toEqual([
      ['', 'urn:d'],
      ['a', 'urn:a'],
    ]);
    expect(opened.map((e) => [e.local, e.ns, e.depth])).toEqual([
      ['x', 'urn:a', 2],
      ['y', 'urn:d', 2],
      ['z', 'urn:b', 3],
      // b: was declared on a sibling: out of scope here.
      ['w', '', 2],
      ['date', 'urn:dc', 2],
    ]);
  });

  it('resolves xml:base against the base in scope, and keeps the parent one when unreadable', () => {
    const { opened } = read(
      '<r xml:base="http://h.example/a/"><e xml:base="b/"><f/></e><g xml:base="http://[bad"/></r>',
    );
    expect(opened.map((e) => [e.local, e.base])).toEqual([
      ['e', 'http://h.example/a/b/'],
      ['f', 'http://h.example/a/b/'],
      ['g', 'http://h.example/a/'],
    ]);
  });

  it('decodes entities, reads CDATA as text, and never expands an entity a DTD declares', () => {
    const { closed } = read(
      '<!DOCTYPE r [<!ENTITY boom "BOOM">]><r><t>a &amp; b &#233; <![CDATA[<c>]]> &boom;</t></r>',
    );
    expect(closed[0]?.text).toBe('a & b é <c> &boom;');
  });

  it('tells a document cut short: the open elements close as implied, the root never closes', () => {
    const { complete, closed } = read('<r><e><f>text</f><g>cut');
    expect(complete).toBe(false);
    expect(closed.map((e) => [e.local, e.implied])).toEqual([
      ['f', false],
      ['g', true],
      ['e', true],
    ]);
    expect(read('').complete).toBe(false);
  });

  it("passes the visitor's refusal of the root through", () => {
    expect(() =>
      streamXml('<html><body/></html>', {
        root(el) {
          throw new Error(`not this: <${el.name}>`);
        },
        open() {},
        close() {},
      }),
    ).toThrow('not this: <html>');
  });
});
