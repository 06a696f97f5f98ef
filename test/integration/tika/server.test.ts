import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTika } from '../../support/tika.js';

// The embedded server (scripts/tika-server) answers as Apache Tika server 3.2.2 does, for the part
// of its API the crawler uses, so the official server can replace it.

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/documents/${name}`, import.meta.url));
let tika: string;

beforeAll(async () => {
  tika = await sharedTika();
});

function put(path: string, body: Buffer, headers: Record<string, string> = {}) {
  return fetch(`${tika}${path}`, { method: 'PUT', body, headers });
}

async function rmeta(path: string, body: Buffer, headers: Record<string, string> = {}) {
  const res = await put(path, body, headers);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return (await res.json()) as Record<string, string | string[]>[];
}

describe("the embedded Tika server speaks Tika server 3.2.2's REST API", () => {
  it('GET /tika greets, GET /version names the version', async () => {
    expect(await (await fetch(`${tika}/tika`)).text()).toBe(
      'This is Tika Server (Apache Tika 3.2.2). Please PUT\n',
    );
    expect(await (await fetch(`${tika}/version`)).text()).toBe('Apache Tika 3.2.2');
  });

  it('PUT /tika with Accept: text/html gives the XHTML: title, both pages, the link annotation', async () => {
    const res = await put('/tika', fixture('report.pdf'), { accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html');
    const html = await res.text();
    expect(html).toContain('<title>Annual Report on Crawling</title>');
    expect(html.match(/<div class="page">/g)).toHaveLength(2);
    expect(html).toContain('<a href="linked-from-pdf.html">');
    expect(html).toContain('Second page: every page of a PDF reaches the content index.');
  });

  it('PUT /tika with Accept: text/plain (or none) gives the text of a DOCX', async () => {
    for (const accept of ['text/plain', undefined]) {
      const res = await put('/tika', fixture('letter.docx'), accept ? { accept } : {});
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(await res.text()).toContain('Dear crawler, Word files are documents too.');
    }
  });

  it('PUT /tika answers 422 without a body for an encrypted or unreadable document', async () => {
    for (const name of ['encrypted.pdf', 'broken.pdf']) {
      const res = await put('/tika', fixture(name), { accept: 'text/html' });
      expect(res.status, name).toBe(422);
      expect(await res.text()).toBe('');
    }
  });

  it('PUT /rmeta/html: a JSON list, the document first, several values as an array, X-TIKA:content the XHTML', async () => {
    const [doc, ...embedded] = await rmeta('/rmeta/html', fixture('report.pdf'), {
      'content-disposition': 'attachment; filename="report.pdf"',
      maxEmbeddedResources: '0',
    });
    expect(embedded).toEqual([]);
    expect(doc!['dc:title']).toBe('Annual Report on Crawling');
    expect(doc!['dc:creator']).toBe('Ada Lovelace');
    expect(doc!['xmpTPg:NPages']).toBe('2');
    expect(doc!.resourceName).toBe('report.pdf');
    expect(doc!['pdf:charsPerPage']).toHaveLength(2);
    expect(doc!['X-TIKA:Parsed-By']).toEqual([
      'org.apache.tika.parser.DefaultParser',
      'org.apache.tika.parser.pdf.PDFParser',
    ]);
    expect(doc!['X-TIKA:content']).toMatch(
      /^<html xmlns="http:\/\/www\.w3\.org\/1999\/xhtml">[\s\S]*<title>Annual Report on Crawling<\/title>/,
    );
    // The default handler is XML; /rmeta/text gives the text alone.
    const [xml] = await rmeta('/rmeta', fixture('report.pdf'));
    expect(xml!['X-TIKA:content_handler']).toBe('ToXMLContentHandler');
    const [text] = await rmeta('/rmeta/text', fixture('report.pdf'));
    expect(text!['X-TIKA:content']).toContain('First page: the crawler reads documents through Apache Tika.');
    expect(text!['X-TIKA:content']).not.toContain('<');
  });

  it('PUT /rmeta answers 200 for a document it cannot parse and records why in the container', async () => {
    const [enc] = await rmeta('/rmeta/html', fixture('encrypted.pdf'));
    expect(enc!['X-TIKA:encrypted']).toBe('true');
    expect(enc!['X-TIKA:EXCEPTION:container_exception']).toMatch(
      /^org\.apache\.tika\.exception\.EncryptedDocumentException/,
    );
    const [broken] = await rmeta('/rmeta/html', fixture('broken.pdf'));
    expect(broken!['X-TIKA:EXCEPTION:container_exception']).toMatch(/Exception/);
  });

  it('/rmeta/ignore records no content; writeLimit cuts the text and says so', async () => {
    const [ignored] = await rmeta('/rmeta/ignore', fixture('report.pdf'));
    expect(ignored).not.toHaveProperty('X-TIKA:content');
    const [cut] = await rmeta('/rmeta/html', fixture('report.pdf'), {
      writeLimit: '20',
      throwOnWriteLimitReached: 'false',
    });
    expect(cut!['X-TIKA:EXCEPTION:write_limit_reached']).toBe('true');
    expect(cut!['X-TIKA:content']).not.toContain('Second page');
  });

  it('a Content-Type header overrides detection; application/octet-stream leaves it to Tika', async () => {
    const [forced] = await rmeta('/rmeta/text', fixture('letter.docx'), {
      'content-type': 'application/pdf',
    });
    expect(forced!['X-TIKA:EXCEPTION:container_exception']).toBeDefined();
    const [detected] = await rmeta('/rmeta/text', fixture('letter.docx'), {
      'content-type': 'application/octet-stream',
    });
    expect(detected!['Content-Type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(detected!['X-TIKA:content']).toContain('Please follow this hyperlink when you index me.');
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    expect((await fetch(`${tika}/unpack`, { method: 'PUT', body: 'x' })).status).toBe(404);
    expect((await fetch(`${tika}/rmeta`, { method: 'POST', body: 'x' })).status).toBe(405);
    expect((await fetch(`${tika}/version`, { method: 'PUT', body: 'x' })).status).toBe(405);
  });
});

describe('the embedded Tika server is safe to run', () => {
  let spy: Server;
  let hits = 0;
  beforeAll(async () => {
    spy = createServer((_req, res) => {
      hits++;
      res.end('<!ENTITY x "leaked">');
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => spy.close(() => resolve())));

  it('listens on 127.0.0.1 only', async () => {
    const port = Number(new URL(tika).port);
    const refused = await new Promise<string>((resolve) => {
      const s = connect(port, '127.0.0.2');
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('fetches nothing a document names: external entities and DTDs stay unread', async () => {
    const url = `http://127.0.0.1:${(spy.address() as AddressInfo).port}`;
    const xml = Buffer.from(
      `<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "${url}/dtd" [<!ENTITY e SYSTEM "${url}/entity">]>\n<r>before &e; after</r>`,
    );
    for (const path of ['/rmeta/text', '/tika'])
      await (await put(path, xml, { 'content-disposition': 'attachment; filename="x.xml"' })).text();
    expect(hits).toBe(0);
  });
});
