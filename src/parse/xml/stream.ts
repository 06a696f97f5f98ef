import { Parser } from 'htmlparser2';

/*
 * The one streaming XML reader of the parse stage: feeds (RSS, Atom) and sitemaps are read through
 * it, each by a small visitor that keeps only the fields it wants, so a document costs one
 * tokenizer pass and no DOM.
 */

/** One element of the document, open from its start tag to its end tag. */
export interface XmlElement {
  /** The qualified name as written. */
  readonly name: string;
  /** The local name, lower case. */
  readonly local: string;
  /** The prefix as written ("" for none). */
  readonly prefix: string;
  /** The namespace URI of its prefix in scope ("" for none; see `XmlVisitor.undeclared`). */
  readonly ns: string;
  /** The namespaces it declares itself (xmlns, xmlns:p), by prefix ("" the default), in order. */
  readonly declared: ReadonlyMap<string, string> | undefined;
  readonly attribs: Readonly<Record<string, string>>;
  /** xml:base in scope, resolved against its parent's (an unreadable one keeps the parent's). */
  readonly base: string | undefined;
  readonly parent: XmlElement | undefined;
  /** Where its text goes; undefined: not kept. A visitor sets it in `open` (or shares its parent's). */
  text: string[] | undefined;
}

/** What a reader of one kind of document does with its elements. */
export interface XmlVisitor {
  /** The root element: throws to refuse the document. */
  root(el: XmlElement): void;
  /** An element below the root, at `depth` (the root's children are at 2). */
  open(el: XmlElement, depth: number): void;
  /** Its end; `implied` when the document ended first (the element is cut). */
  close(el: XmlElement, depth: number, implied: boolean): void;
  /** The namespace of a prefix no element in scope declares; "" when absent. */
  undeclared?(prefix: string): string;
}

const localOf = (qname: string) => qname.slice(qname.indexOf(':') + 1).toLowerCase();
const prefixOf = (qname: string) => {
  const i = qname.indexOf(':');
  return i < 0 ? '' : qname.slice(0, i);
};

function resolveBase(href: string, parent: string | undefined): string | undefined {
  try {
    return new URL(href.trim(), parent).href;
  } catch {
    return parent;
  }
}

function namespaceOf(prefix: string, el: XmlElement | undefined, visitor: XmlVisitor): string {
  for (let e = el; e; e = e.parent) {
    const ns = e.declared?.get(prefix);
    if (ns !== undefined) return ns;
  }
  return visitor.undeclared?.(prefix) ?? '';
}

/**
 * Streams `xml` (htmlparser2 in XML mode, entities decoded, no DTD read) through `visitor`.
 * Returns whether the root element closed before the document ended (false: no root, or a document
 * truncated or cut by the fetcher); what the visitor throws comes out as is.
 */
export function streamXml(xml: string, visitor: XmlVisitor): boolean {
  let rootClosed = false;
  let truncated = false;
  let top: XmlElement | undefined;
  let depth = 0;
  const handler = {
    onopentag(name: string, attribs: Record<string, string>) {
      let declared: Map<string, string> | undefined;
      for (const a in attribs) {
        if (a !== 'xmlns' && !a.startsWith('xmlns:')) continue;
        declared ??= new Map();
        declared.set(a === 'xmlns' ? '' : a.slice(6), attribs[a]!.trim());
      }
      const xmlBase = attribs['xml:base'];
      const prefix = prefixOf(name);
      const el: XmlElement = {
        name,
        local: localOf(name),
        prefix,
        ns: declared?.get(prefix) ?? namespaceOf(prefix, top, visitor),
        declared,
        attribs,
        base: xmlBase === undefined ? top?.base : resolveBase(xmlBase, top?.base),
        parent: top,
        text: undefined,
      };
      top = el;
      depth++;
      if (depth === 1) visitor.root(el);
      else visitor.open(el, depth);
    },
    ontext(data: string) {
      top?.text?.push(data);
    },
    onclosetag(_name: string, isImplied: boolean) {
      const el = top;
      if (!el) return;
      top = el.parent;
      if (depth === 1) {
        rootClosed = true;
        truncated = isImplied;
      } else visitor.close(el, depth, isImplied);
      depth--;
    },
  };
  new Parser(handler, { xmlMode: true, decodeEntities: true }).end(xml);
  return rootClosed && !truncated;
}
