import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CrawlerError } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import type { PageParser, ParseInput, ParseResult } from '../types.js';
import { fromWire, type ParserThreadConfig, type WorkerMessage } from './protocol.js';

interface Pending {
  resolve: (r: ParseResult) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * The worker script. Under the TypeScript sources (tests) there is no .js beside this file, so the
 * compiled one in dist/ is used: `npm run build` first.
 */
function workerUrl(): URL {
  const local = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(local))) return local;
  const built = new URL('../../../dist/parse/worker/worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new CrawlerError(
    'PARSER_THREADS_UNAVAILABLE',
    'parser.threads > 0 needs the compiled parser thread (dist/parse/worker/worker.js): run npm run build, or set parser.threads: 0',
  );
}

/**
 * Parses pages on `parser.threads` worker threads, so that parsing (the largest CPU cost of a page)
 * runs beside the event loop that fetches and writes statuses. Each thread builds its own URL
 * filters and parser from the same configuration, so outcomes are those of the main-thread parser.
 *
 * Lifecycle: `start` resolves once every thread has loaded its parse filters (a bad configuration
 * rejects it); `parse` never rejects for a page's content (the parser turns that into an ERROR
 * outcome) but does when a thread dies, and the thread is replaced; `close` terminates the threads.
 */
export class ParserPool implements PageParser {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private closed = false;

  private constructor(
    private readonly config: ParserThreadConfig,
    private readonly log: Logger,
  ) {}

  static async start(config: ParserThreadConfig, threads: number, log: Logger): Promise<ParserPool> {
    const pool = new ParserPool(config, log);
    await Promise.all(Array.from({ length: threads }, () => pool.spawn()));
    log.info({ threads }, `parsing on ${threads} worker thread${threads === 1 ? '' : 's'}`);
    return pool;
  }

  private spawn(): Promise<void> {
    const worker = new Worker(workerUrl(), {
      workerData: { config: this.config, logLevel: this.log.level },
    });
    const thread: Thread = { worker, pending: new Map() };
    this.threads.push(thread);
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          ready = true;
          resolve();
          return;
        }
        const p = thread.pending.get(m.id);
        if (!p) return;
        thread.pending.delete(m.id);
        if (m.type === 'result') p.resolve(fromWire(m.result));
        else p.reject(new Error(m.error));
      });
      let dead = false;
      // A crash fires 'error' and then 'exit': act on the first only.
      const died = (err: Error) => {
        if (dead) return;
        dead = true;
        const i = this.threads.indexOf(thread);
        if (i >= 0) this.threads.splice(i, 1);
        for (const p of thread.pending.values()) p.reject(err);
        thread.pending.clear();
        if (!ready) {
          reject(err);
          return;
        }
        if (this.closed) return;
        this.log.error({ err: err.message }, 'a parser thread died; starting a new one');
        this.spawn().catch((e: unknown) =>
          this.log.error({ err: String(e) }, 'parser thread restart failed'),
        );
      };
      worker.on('error', died);
      worker.on('exit', (code) => {
        if (!this.closed || !ready) died(new Error(`parser thread exited with code ${code}`));
      });
    });
  }

  /** Parses on the least busy thread. */
  parse(page: ParseInput): Promise<ParseResult> {
    let thread = this.threads[0];
    for (const t of this.threads) if (thread && t.pending.size < thread.pending.size) thread = t;
    if (!thread) return Promise.reject(new Error('no parser thread is running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      // A copy: the fetched Buffer may be a view of a larger pooled ArrayBuffer.
      const content = new Uint8Array(page.content);
      thread.worker.postMessage({ id, url: page.url, metadata: page.metadata.toJSON(), content }, [
        content.buffer,
      ]);
    });
  }

  /** Pages waiting in or for a thread. */
  get busy(): number {
    return this.threads.reduce((n, t) => n + t.pending.size, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
