import { type FileHandle, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { OPEN_SUFFIX, safeHostname, type Writer, writerOf } from './names.js';

const FIRST_WINDOW = 1 << 20;
const CRLF2 = Buffer.from('\r\n\r\n');

type Member = { readonly length: number; readonly data: Buffer } | 'more' | 'bad';

/** One gzip member at the start of `bytes` (RFC 1952), checked against its CRC-32 and size. */
function gzipMember(bytes: Buffer): Member {
  if (bytes.length < 10) return 'more';
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) return 'bad';
  const flags = bytes[3]!;
  let p = 10;
  if (flags & 4) {
    if (bytes.length < p + 2) return 'more';
    p += 2 + bytes.readUInt16LE(p);
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    const end = bytes.indexOf(0, p);
    if (end < 0) return 'more';
    p = end + 1;
  }
  if (flags & 2) p += 2;
  if (bytes.length < p) return 'more';
  let inflated: { buffer: Buffer; engine: zlib.InflateRaw };
  try {
    inflated = zlib.inflateRawSync(bytes.subarray(p), { info: true }) as unknown as typeof inflated;
  } catch (e) {
    return (e as { code?: string }).code === 'Z_BUF_ERROR' ? 'more' : 'bad';
  }
  const end = p + inflated.engine.bytesWritten;
  if (bytes.length < end + 8) return 'more';
  const data = inflated.buffer;
  if (bytes.readUInt32LE(end) !== zlib.crc32(data) || bytes.readUInt32LE(end + 4) !== data.length % 2 ** 32)
    return 'bad';
  return { length: end + 8, data };
}

/** The WARC-Type of a whole record (head, Content-Length bytes of block, CRLF CRLF), else undefined. */
function completeRecordType(data: Buffer): string | undefined {
  if (data.subarray(0, 5).toString('latin1') !== 'WARC/') return undefined;
  const headEnd = data.indexOf(CRLF2);
  if (headEnd < 0) return undefined;
  const head = data.subarray(0, headEnd).toString('latin1');
  const length = /\r\nContent-Length:[ \t]*(\d+)/i.exec(head);
  if (!length || data.length !== headEnd + 4 + Number(length[1]) + 4) return undefined;
  if (!data.subarray(data.length - 4).equals(CRLF2)) return undefined;
  return /\r\nWARC-Type:[ \t]*([^\r]+)/i.exec(head)?.[1]?.trim() ?? '';
}

/**
 * How many leading bytes of a .warc.gz file are whole records: each gzip member must be complete
 * (CRC and size checked) and hold one complete WARC record. A trailing `request` record whose
 * response did not make it is not counted, so a cut file never ends with half an exchange
 * (`wholeBytes` counts it: the end of the last whole member).
 */
export async function completeLength(
  fh: FileHandle,
): Promise<{ bytes: number; records: number; wholeBytes: number; size: number }> {
  const size = (await fh.stat()).size;
  // A window of the file from `bufStart`, refilled (and grown for a large member) as `pos` moves.
  let buf = Buffer.alloc(0);
  let bufStart = 0;
  const fill = async (pos: number, min: number) => {
    const have = bufStart + buf.length - pos;
    const want = Math.min(Math.max(min, FIRST_WINDOW), size - pos);
    if (have >= want) return;
    const next = Buffer.allocUnsafe(want);
    buf.copy(next, 0, pos - bufStart);
    const { bytesRead } = await fh.read(next, have, want - have, pos + have);
    buf = next.subarray(0, have + bytesRead);
    bufStart = pos;
  };
  let pos = 0;
  let keep = 0;
  let kept = 0;
  let records = 0;
  let need = FIRST_WINDOW;
  while (pos < size) {
    await fill(pos, need);
    const available = bufStart + buf.length - pos;
    const member = gzipMember(buf.subarray(pos - bufStart));
    if (member === 'more' && pos + available < size) {
      need = available * 2;
      continue;
    }
    if (member === 'more' || member === 'bad') break;
    const type = completeRecordType(member.data);
    if (type === undefined) break;
    pos += member.length;
    records++;
    need = FIRST_WINDOW;
    if (type !== 'request') {
      keep = pos;
      kept = records;
    }
  }
  return { bytes: keep, records: kept, wholeBytes: pos, size };
}

export interface Recovered {
  /** The .open file found. */
  readonly from: string;
  /** The closed file it became, or undefined when nothing complete was left (it was removed). */
  readonly to?: string;
  readonly records: number;
  /** Bytes cut off its end. */
  readonly cutBytes: number;
}

/**
 * Closes a .open file a writer left behind: cuts it after its last complete record, syncs it and
 * renames it without `.open`. A file with no complete record is removed.
 */
export async function recoverFile(path: string): Promise<Recovered> {
  const fh = await open(path, 'r+');
  let kept: { bytes: number; records: number; size: number };
  try {
    kept = await completeLength(fh);
    if (kept.records > 0) {
      if (kept.bytes < kept.size) await fh.truncate(kept.bytes);
      await fh.sync();
    }
  } finally {
    await fh.close();
  }
  if (kept.records === 0) {
    await unlink(path);
    return { from: path, records: 0, cutBytes: kept.size };
  }
  const to = path.slice(0, -OPEN_SUFFIX.length);
  await rename(path, to);
  return { from: path, to, records: kept.records, cutBytes: kept.size - kept.bytes };
}

/** True when a process with this id runs on this machine. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface RecoverOptions {
  readonly prefix: string;
  /** This process: its host's files whose process is gone (or is this one, restarted) are recovered. */
  readonly self: Writer;
  /** Also recover files of other hosts and of running processes (the operator knows none writes). */
  readonly all?: boolean;
  readonly alive?: (pid: number) => boolean;
}

/**
 * Recovers the .open files in `dir` that no running writer owns: those of this host whose process
 * is gone. A file of another host, or of a process still running, is left alone (unless `all`):
 * several crawler processes may share the folder. A missing folder has nothing to recover.
 */
export async function recoverDir(dir: string, o: RecoverOptions): Promise<Recovered[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const alive = o.alive ?? processAlive;
  const out: Recovered[] = [];
  for (const name of names.sort()) {
    const w = writerOf(name, o.prefix);
    if (!w?.open) continue;
    const mine = w.hostname === safeHostname(o.self.hostname);
    const orphan = mine && (w.pid === o.self.pid || !alive(w.pid));
    if (!o.all && !orphan) continue;
    try {
      out.push(await recoverFile(join(dir, name)));
    } catch (e) {
      // Gone under us: another process sharing the folder (a worker of the same run) recovered it.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return out;
}
