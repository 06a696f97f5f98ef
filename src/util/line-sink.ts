import { write } from 'node:fs';

/**
 * A pino line (or a worker's, tagged first) of level warn (40), error (50) or fatal (60), or a
 * notice: an info line with `notice: true`, which a person watching needs (nothing is due).
 */
const WARNING = /"level":[456]0[,}]|"notice":true[,}]/;

export interface LineSinkOptions {
  /** Where lines go: a file descriptor (2 = stderr), written asynchronously. */
  readonly fd: number;
  /**
   * Bytes buffered at most for lines written with `droppable`; beyond it such lines are dropped
   * and counted. Other lines are always kept (they are few: warnings, progress, the summary).
   */
  readonly maxBufferBytes: number;
  /**
   * Turns each line into what is written (the terminal format, given the sink's `width`); identity
   * by default.
   */
  readonly format?: (line: string, width: number | undefined) => string | undefined;
}

/**
 * The log's one writer to stderr: lines are buffered and written by `fs.write` on libuv's thread
 * pool, so a slow reader of the pipe (a full pipe, a slow terminal) never puts the event loop to
 * sleep, as a synchronous destination does. Memory stays bounded: lines marked droppable (the
 * transition log, one or two lines per page) are dropped and counted once the buffer is full.
 * Pending writes keep the process alive until they are done, so a normal exit loses nothing.
 */
export class LineSink {
  private chunks: string[] = [];
  private bytes = 0;
  private writing = false;
  /** Droppable lines refused because the buffer was full. */
  dropped = 0;
  /** Sees every notice and line of level warn and above (before formatting); the console's "latest warnings". */
  tap: ((line: string) => void) | undefined;
  /** Lines for which it returns true are not written (a live status line stands for them). */
  hide: ((line: string) => boolean) | undefined;
  /**
   * Columns of a terminal with a live status line, passed to the format: a line's fields that do not
   * fit go on a continuation line. No line is cut (a person may have to act on it); only the live
   * status line is fitted, by its maker.
   */
  width: number | undefined;
  /** A terminal's live status line: kept below the other lines, rewritten in place. */
  private status: string | undefined;
  private redraw = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: LineSinkOptions) {}

  /** For pino: one serialised line (with its newline). */
  write(line: string): void {
    this.push(line, false);
  }

  /** Like `write`, but dropped (and counted) while the buffer is full. */
  writeDroppable(line: string): void {
    this.push(line, true);
  }

  /**
   * Shows `text` as the live status line (a terminal only: written after `\r` and an erase, below
   * every other line, which are written above it); undefined erases it and ends the live line.
   */
  setStatus(text: string | undefined): void {
    if (text === this.status) return;
    this.status = text;
    this.redraw = true;
    if (!this.writing) this.next();
  }

  /** Resolves once everything written so far has reached the file descriptor. */
  idle(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private push(line: string, droppable: boolean): void {
    if (droppable && this.bytes >= this.options.maxBufferBytes) {
      this.dropped++;
      return;
    }
    if (this.tap && !droppable && WARNING.test(line)) this.tap(line);
    if (this.hide?.(line)) return;
    const out = this.options.format ? this.options.format(line, this.width) : line;
    if (out === undefined || out === '') return;
    this.chunks.push(out);
    // Characters, not bytes: close enough for a bound, and free.
    this.bytes += out.length;
    if (!this.writing) this.next();
  }

  private next(): void {
    if (this.chunks.length === 0 && !this.redraw) {
      this.writing = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.writing = true;
    const lines = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
    this.chunks = [];
    const length = lines.length;
    // With a live status line: erase it, write the lines, draw it again below them.
    const live = this.status !== undefined || this.redraw;
    const data = live ? `\r\x1b[K${lines}${this.status ?? ''}` : lines;
    this.redraw = false;
    const attempt = (buffer: Buffer, retries: number) => {
      write(this.options.fd, buffer, 0, buffer.length, null, (err, written) => {
        if (err) {
          // A non-blocking pipe that is full says EAGAIN: try again shortly. Anything else (the
          // reader went away) ends logging quietly; the crawl goes on.
          if ((err.code === 'EAGAIN' || err.code === 'EBUSY') && retries < 10_000) {
            setTimeout(() => attempt(buffer, retries + 1), 5);
            return;
          }
          this.bytes = 0;
          this.chunks = [];
          this.writing = false;
          for (const resolve of this.idleWaiters.splice(0)) resolve();
          return;
        }
        if (written < buffer.length) {
          attempt(buffer.subarray(written), retries);
          return;
        }
        this.bytes -= length;
        this.next();
      });
    };
    attempt(Buffer.from(data, 'utf8'), 0);
  }
}
