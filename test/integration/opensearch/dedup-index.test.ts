import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupKeys } from '../../../src/dedup/keys.js';
import type { LookupRequest } from '../../../src/dedup/ports.js';
import { createClient } from '../../../src/opensearch/client.js';
import { DedupIndex } from '../../../src/opensearch/dedup-index.js';
import { readMapping } from '../../../src/opensearch/indices.js';
import { signatureField } from '../../../src/opensearch/signature-field.js';
import { documentId } from '../../../src/opensearch/status-doc.js';
import { deleteIndices, testConfig, uniqueIndexNames } from '../../support/opensearch.js';

// Two content indices with the same pages: one made from mappings/content.json (signatures as
// binary doc values, written in base64), one as a content index made before that (signatures
// keyword fields in _source, as hex digits).
const current = uniqueIndexNames('dedup-index');
const legacy = uniqueIndexNames('dedup-index-legacy');
const { client } = createClient(testConfig(current));

const hex = (seed: number, n: number): string => {
  let s = '';
  let x = seed;
  while (s.length < n) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += x.toString(16).padStart(8, '0');
  }
  return s.slice(0, n);
};

const minhash = hex(7, 512);
const page = { kind: 'simhash' as const, hash: '0123456789abcdef', minhash };
const docs: Record<string, Record<string, unknown>> = {
  canonical: {
    url: 'http://a.test/one',
    content: 'the text of the page '.repeat(200),
    markdown: '# The page\n\nthe text of the page '.repeat(200),
    simhash: page.hash,
    simhashTokens: 1000,
    minhash,
    minhashKeys: lookupKeys(page),
    bodyMinhash: hex(9, 1024),
    bodyTokens: 1100,
  },
  // Indexed under its canonical's id (content-doc.ts), flagged as a duplicate of another page.
  duplicate: {
    url: 'http://a.test/one?copy',
    canonical: 'http://a.test/one-copy',
    content: 'the text of the page '.repeat(200),
    simhash: page.hash,
    simhashTokens: 1000,
    minhash,
    duplicateOf: 'http://a.test/one',
  },
  short: {
    url: 'http://a.test/short',
    content: 'Short.',
    simhashExact: 'feedface',
    simhashTokens: 1,
    bodyMinhash: hex(11, 1024),
    bodyTokens: 12,
  },
};
const idOf = (name: string) => documentId(String(docs[name]?.canonical ?? docs[name]?.url));

/** The document as written to the index: signatures in base64 (signature-field.ts) or as hex. */
function written(doc: Record<string, unknown>, base64: boolean): Record<string, unknown> {
  const out = { ...doc };
  for (const f of ['minhash', 'bodyMinhash'])
    if (base64 && typeof out[f] === 'string') out[f] = signatureField(out[f] as string);
  return out;
}

async function create(index: string, made: 'now' | 'before'): Promise<void> {
  const body = readMapping('content');
  const props = body.mappings.properties as Record<string, unknown>;
  if (made === 'before')
    for (const f of ['minhash', 'bodyMinhash'])
      props[f] = { type: 'keyword', index: false, doc_values: false };
  await client.indices.create({ index, body: body as never });
  for (const name of Object.keys(docs)) {
    // In each index one page written the other way: hex digits in the new index as `_reindex`
    // copies an older document (valid base64 that reads back as the same digits), base64 in the old.
    const base64 = made === 'now' ? name !== 'duplicate' : name === 'short';
    await client.index({ index, id: idOf(name), body: written(docs[name]!, base64) });
  }
  await client.indices.refresh({ index });
}

beforeAll(async () => {
  await create(current.content, 'now');
  await create(legacy.content, 'before');
});

afterAll(async () => {
  await deleteIndices(current.content, legacy.content);
  await client.close();
});

const request: LookupRequest = {
  keys: lookupKeys(page),
  exact: ['feedface'],
  ids: [idOf('duplicate')],
  hosts: [],
};

/** Two lookups by one DedupIndex: the candidates by id, the searches sent, what it reported. */
async function lookup(content: string) {
  const reported: string[] = [];
  const sent: Record<string, unknown>[] = [];
  // The real client; the searches it sends are kept.
  const spied = Object.assign(Object.create(client), {
    msearch: (params: { body: Record<string, unknown>[] }) => {
      sent.push(params.body[1]!);
      return client.msearch(params as never);
    },
  });
  const index = new DedupIndex(spied, { content, hosts: `${content}-hosts` }, (i) => reported.push(i));
  const result = await index.lookup(request);
  await index.lookup(request);
  const byId = Object.fromEntries(result.candidates.map((x) => [x.id, x]));
  return { byId, reported, search: sent[0]! };
}

const expected = {
  [idOf('canonical')]: {
    id: idOf('canonical'),
    url: 'http://a.test/one',
    kind: 'simhash',
    hash: page.hash,
    tokens: 1000,
    minhash,
    bodyMinhash: docs.canonical?.bodyMinhash,
    bodyTokens: 1100,
  },
  [idOf('duplicate')]: {
    id: idOf('duplicate'),
    url: 'http://a.test/one?copy',
    kind: 'simhash',
    hash: page.hash,
    tokens: 1000,
    minhash,
    duplicateOf: 'http://a.test/one',
  },
  [idOf('short')]: {
    id: idOf('short'),
    url: 'http://a.test/short',
    kind: 'exact',
    hash: 'feedface',
    tokens: 1,
    bodyMinhash: docs.short?.bodyMinhash,
    bodyTokens: 12,
  },
};

describe('near-duplicate lookups on a real node', () => {
  it('reads the candidates of an index made from mappings/content.json from doc values alone: no _source, no stored field, ids from the URLs', async () => {
    const { byId, reported, search } = await lookup(current.content);
    expect(byId).toEqual(expected);
    expect(reported).toEqual([]);
    expect(search.stored_fields).toBe('_none_');
    expect(search._source).toBeUndefined();
  });

  it('reads an index made before the signatures had doc values from _source, hex or base64, the same candidates, and says so once', async () => {
    const before = await lookup(legacy.content);
    expect(before.byId).toEqual(expected);
    expect(before.reported).toEqual([legacy.content]);
    expect(before.search._source).toEqual(expect.arrayContaining(['minhash', 'bodyMinhash', 'url']));
  });
});
