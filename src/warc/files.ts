import { existsSync } from 'node:fs';
import { type FileHandle, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../util/clock.js';
import { OPEN_SUFFIX, type Writer, warcFileName } from './names.js';

export interface WarcFilesOptions {
  readonly dir: string;
  readonly prefix: string;
  /** warc.rotation.size: a file that reached this many bytes is closed before the next write. */
  readonly maxBytes: number;
  /** warc.rotation.interval in ms: a file begun this long ago is closed; 0 = never by age. */
  readonly maxAgeMs: number;
  readonly writer: Writer;
  /** The gzip member of the warcinfo record that begins the file of this name. */
  readonly warcinfo: (filename: string) => Promise<Buffer>;
  readonly clock: Clock;
  /**
   * Told when closing a file by age failed (the timer has no caller to reject to); the next append
   * tries again, and a file left `.open` is recovered at the next start.
   */
  readonly onRotationError?: (error: unknown) => void;
}

/** Where `append` wrote: the file's final name and the offset of each member. */
export interface Appended {
  readonly file: string;
  readonly offsets: readonly number[];
}

interface Current {
  readonly name: string;
  readonly path: string;
  readonly fh: FileHandle;
  readonly begunAt: number;
  size: number;
}

/**
 * The WARC files of one process, in rotation: the file being written is NAME.warc.gz.open and is
 * renamed NAME.warc.gz once closed (after an fsync), so a file without `.open` is always complete.
 * One operation runs at a time. A write that fails is undone (the file is cut back to its last
 * complete record) before the error is passed on; when even that fails, the file is closed where it
 * stands, left `.open` for recovery, and the next write begins a new file.
 *
 * Lifecycle: `append` concurrently, `close` once at the end (it waits for writes in progress).
 */
export class WarcFiles {
  private current: Current | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: WarcFilesOptions) {
    if (o.maxAgeMs > 0) {
      // A quiet crawl still closes its file on time, so that finished files can be replayed.
      this.timer = setInterval(
        () => void this.closeIfOld().catch((e: unknown) => o.onRotationError?.(e)),
        Math.min(o.maxAgeMs, 60_000),
      );
      this.timer.unref();
    }
  }

  /** The name of the file being written (with `.open`), if any; for logs and tests. */
  get openFile(): string | undefined {
    return this.current?.path;
  }

  /** Appends gzip members in one write, beginning a new file when the rotation policy says so. */
  append(members: readonly Buffer[]): Promise<Appended> {
    return this.exclusive(async () => {
      let c = this.current;
      if (c && (c.size >= this.o.maxBytes || this.old(c))) {
        await this.finish(c);
        c = undefined;
      }
      c ??= await this.begin();
      const offsets: number[] = [];
      let total = 0;
      for (const m of members) {
        offsets.push(c.size + total);
        total += m.length;
      }
      await this.write(c, members, total);
      return { file: c.name, offsets };
    });
  }

  /** Closes the file being written if it is past warc.rotation.interval. */
  closeIfOld(): Promise<void> {
    return this.exclusive(async () => {
      if (this.current && this.old(this.current)) await this.finish(this.current);
    });
  }

  /** Closes and renames the file being written; waits for writes in progress. */
  close(): Promise<void> {
    clearInterval(this.timer);
    return this.exclusive(async () => {
      if (this.current) await this.finish(this.current);
    });
  }

  private old(c: Current): boolean {
    return this.o.maxAgeMs > 0 && this.o.clock.now() - c.begunAt >= this.o.maxAgeMs;
  }

  private serial = 0;

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.chain.then(op, op);
    this.chain = run.catch(() => {});
    return run;
  }

  private async begin(): Promise<Current> {
    await mkdir(this.o.dir, { recursive: true });
    for (;;) {
      const begunAt = this.o.clock.now();
      const name = warcFileName(this.o.prefix, begunAt, this.serial++, this.o.writer);
      const path = join(this.o.dir, name + OPEN_SUFFIX);
      // A closed file of that name (an earlier output of this process begun in the same second, as
      // in the demo's rounds) is never overwritten: the next serial is taken.
      if (existsSync(join(this.o.dir, name))) continue;
      let fh: FileHandle;
      try {
        // "wx": never append to a file someone else began.
        fh = await open(path, 'wx');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw e;
      }
      const c: Current = { name, path, fh, begunAt, size: 0 };
      try {
        const info = await this.o.warcinfo(name);
        await this.write(c, [info], info.length);
      } catch (e) {
        await fh.close().catch(() => {});
        await unlink(path).catch(() => {});
        throw e;
      }
      this.current = c;
      return c;
    }
  }

  private async write(c: Current, members: readonly Buffer[], total: number): Promise<void> {
    try {
      let done = 0;
      let pending = [...members];
      while (done < total) {
        const { bytesWritten } = await c.fh.writev(pending, c.size + done);
        if (bytesWritten <= 0) throw new Error('nothing written');
        done += bytesWritten;
        pending = remaining(pending, bytesWritten);
      }
      c.size += total;
    } catch (e) {
      try {
        await c.fh.truncate(c.size);
      } catch {
        // The file cannot even be cut back: leave it .open (recovery cuts it) and begin another.
        if (this.current === c) this.current = undefined;
        await c.fh.close().catch(() => {});
      }
      throw e;
    }
  }

  private async finish(c: Current): Promise<void> {
    this.current = undefined;
    try {
      await c.fh.sync();
    } finally {
      await c.fh.close();
    }
    await rename(c.path, join(this.o.dir, c.name));
  }
}

/** The buffers left once `written` bytes of `buffers` went out. */
function remaining(buffers: readonly Buffer[], written: number): Buffer[] {
  const out: Buffer[] = [];
  let skip = written;
  for (const b of buffers) {
    if (skip >= b.length) {
      skip -= b.length;
      continue;
    }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}
