import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WARCParser } from 'warcio';

/** One record of a WARC file as warcio reads it, with the bytes a reader checks the digests on. */
export interface ReadRecord {
  readonly file: string;
  readonly offset: number;
  readonly type: string;
  readonly uri: string;
  /** WARC header fields by name as written. */
  readonly warc: Readonly<Record<string, string>>;
  /** The HTTP status line and header fields (names in the case written), for request, response, revisit. */
  readonly statusline?: string;
  readonly http: readonly (readonly [string, string])[];
  /** The payload (after the HTTP head) and the whole block. */
  readonly payload: Buffer;
  readonly block: Buffer;
}

/** Every record of a .warc.gz file, read twice with warcio: HTTP parsed (payload) and not (block). */
export async function readWarc(path: string): Promise<ReadRecord[]> {
  const bytes = readFileSync(path);
  const blocks: Buffer[] = [];
  for await (const r of new WARCParser([bytes], { parseHttp: false })) {
    blocks.push(Buffer.from(await r.readFully(false)));
  }
  const out: ReadRecord[] = [];
  const parser = new WARCParser([bytes], { keepHeadersCase: true });
  for await (const r of parser) {
    const offset = parser.offset;
    const payload = Buffer.from(await r.readFully(false));
    const warc = Object.fromEntries([...r.warcHeaders.headers]);
    out.push({
      file: path,
      offset,
      type: r.warcType,
      uri: r.warcTargetURI ?? '',
      warc,
      ...(r.httpHeaders ? { statusline: r.httpHeaders.statusline } : {}),
      http: r.httpHeaders ? [...r.httpHeaders.headers] : [],
      payload,
      block: blocks[out.length]!,
    });
  }
  if (out.length !== blocks.length)
    throw new Error(`${path}: ${out.length} records but ${blocks.length} blocks`);
  return out;
}

/** The .warc.gz files in a folder (and any other entries, to check for leftovers), sorted. */
export function warcFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((n) => join(dir, n));
}

/** The value of an HTTP header field by name, case-insensitively (first one). */
export function field(r: ReadRecord, name: string): string | undefined {
  return r.http.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}
