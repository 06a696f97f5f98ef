import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ERROR_CAUSE } from '../model/keys.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import {
  type TikaAnswer,
  type TikaCall,
  TikaClient,
  type TikaClientOptions,
  type TikaFailure,
} from './client.js';

export const TIKA_SCRIPT = fileURLToPath(new URL('../../scripts/tika', import.meta.url));

/** The embedded server: scripts/tika on 127.0.0.1:port. */
export interface EmbeddedTika {
  readonly port: number;
  readonly heap: string;
  /** The server's own watchdog: a parse running longer ends its process. */
  readonly taskTimeoutMs: number;
}

export interface TikaServiceOptions {
  /** tika.server.url: a server someone else runs. Without one, the embedded server is used. */
  readonly external?: string;
  readonly embedded: EmbeddedTika;
  readonly client: Omit<TikaClientOptions, 'server'>;
  /** After a failed start, documents fail at once for this long before a start is tried again. */
  readonly retryStartAfterMs?: number;
}

/** Starts the embedded server and resolves once it answers; rejects with a message that says why. */
export type TikaStarter = (embedded: EmbeddedTika) => Promise<void>;

const run = promisify(execFile);

/** `scripts/tika start` (idempotent; the first start downloads the jars with Maven). */
export const scriptStarter: TikaStarter = async (e) => {
  try {
    await run(TIKA_SCRIPT, ['start'], {
      env: {
        ...process.env,
        TIKA_PORT: String(e.port),
        TIKA_HEAP: e.heap,
        TIKA_TASK_TIMEOUT_MS: String(e.taskTimeoutMs),
      },
      timeout: 600_000,
    });
  } catch (err) {
    const out = (err as { stderr?: string }).stderr || (err as { stdout?: string }).stdout || '';
    throw new Error(
      `${TIKA_SCRIPT} start failed: ${out.trim().split('\n').slice(-4).join(' | ') || errorMessage(err)}; ` +
        'it needs Java 17 and Maven (for the first download), or set tika.server.url to a running Tika server',
    );
  }
};

/**
 * Apache Tika for the crawl: a server at tika.server.url, or the embedded one (scripts/tika), started
 * on first need and started again when it dies. Nothing happens until the first document: a crawl
 * without documents never starts a process or opens a connection.
 *
 * A document ends in a `TikaAnswer`, never an exception. One the server never received (nothing
 * listened) is sent again once the embedded server is back; one it held when it died, or that ran
 * past parser.tika.timeout, fails (FETCH_ERROR) and the next document finds the server restarted.
 */
export class TikaService {
  private readonly client: TikaClient;
  private state: 'unknown' | 'up' | 'down' = 'unknown';
  private starting: Promise<void> | undefined;
  private failure = '';
  private failedAt = Number.NEGATIVE_INFINITY;
  private starts = 0;
  private announced = false;

  constructor(
    private readonly o: TikaServiceOptions,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly starter: TikaStarter = scriptStarter,
  ) {
    const server = o.external?.replace(/\/+$/, '') ?? `http://127.0.0.1:${o.embedded.port}`;
    this.client = new TikaClient({ ...o.client, server });
  }

  get server(): string {
    return this.client.server;
  }

  /** Times the crawl started the embedded server (0 when it found one running, or uses an external one). */
  get started(): number {
    return this.starts;
  }

  async parse(call: TikaCall): Promise<TikaAnswer> {
    const down = await this.ready();
    if (down) return down;
    let answer = await this.client.parse(call);
    if (answer.kind === 'refused') {
      this.state = 'down';
      if (this.o.external !== undefined) return unavailable(`${answer.message} (tika.server.url)`);
      // Nothing listened, so Tika never saw the document: send it again once the server is back.
      const still = await this.ready();
      if (still) return still;
      answer = await this.client.parse(call);
      if (answer.kind === 'refused') return unavailable(answer.message);
    }
    if (
      answer.kind === 'failed' &&
      (answer.connectionLost || answer.failure.cause === ERROR_CAUSE.tikaTimeout)
    ) {
      // Dead, or stuck on a document (the embedded server's watchdog then ends it): look again first.
      if (this.state === 'up') this.state = 'unknown';
    }
    return answer;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** Undefined once the server answers; else the failure every document gets for now. */
  private async ready(): Promise<TikaAnswer | undefined> {
    if (this.state !== 'up') {
      this.starting ??= this.bringUp().finally(() => {
        this.starting = undefined;
      });
      await this.starting;
    }
    return this.state === 'up' ? undefined : unavailable(this.failure);
  }

  private async bringUp(): Promise<void> {
    const { o, log, client } = this;
    const wasUp = this.announced;
    const version = await client.version();
    if (version) {
      this.state = 'up';
      if (!this.announced) {
        this.announced = true;
        log.info(
          { tika: client.server, version },
          o.external !== undefined
            ? `documents go to the Tika server at ${client.server} (${version})`
            : `documents go to the embedded Tika already running at ${client.server} (${version})`,
        );
      }
      return;
    }
    this.state = 'down';
    if (o.external !== undefined) {
      this.failure = `the Tika server at ${client.server} (tika.server.url) does not answer`;
      return;
    }
    if (this.clock.now() - this.failedAt < (o.retryStartAfterMs ?? 30_000)) return;
    const { port, heap } = o.embedded;
    if (wasUp) {
      log.warn(
        { tika: client.server },
        `the embedded Tika at ${client.server} stopped answering; starting it again (documents it held end FETCH_ERROR)`,
      );
    } else {
      log.info(
        { tika: client.server, heap },
        `no tika.server.url: starting the embedded Tika (scripts/tika start, port ${port}, heap ${heap}; it keeps running after the crawl, scripts/tika stop ends it)`,
      );
    }
    try {
      await this.starter(o.embedded);
    } catch (e) {
      this.failedAt = this.clock.now();
      this.failure = `the embedded Tika could not be started: ${errorMessage(e)}`;
      log.error({ tika: client.server }, this.failure);
      return;
    }
    if ((await client.version()) === undefined) {
      this.failedAt = this.clock.now();
      this.failure = `the embedded Tika was started but does not answer at ${client.server}`;
      log.error({ tika: client.server }, this.failure);
      return;
    }
    this.starts++;
    this.announced = true;
    this.state = 'up';
  }
}

function unavailable(message: string): TikaAnswer {
  const failure: TikaFailure = { status: 'FETCH_ERROR', cause: ERROR_CAUSE.tikaUnavailable, message };
  return { kind: 'failed', failure };
}
