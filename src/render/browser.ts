import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, chromium, type Page, type Route } from 'playwright-core';
import { type Clock, systemClock } from '../util/clock.js';
import { CrawlerError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { DOM_WATCH } from './dom-watch.js';
import { childWithArg, endedChildrenCpuMs } from './processes.js';
import { noSandboxWarning, type SandboxMode, type SandboxProbe, sandboxDecision } from './sandbox.js';

/**
 * Chromium's flags. Besides headless and the usual container flags (not --no-sandbox: added only
 * when the sandbox cannot or must not be used, see sandbox.ts), everything that would make the
 * browser reach the network by itself is off, and it is given a proxy that does not exist: every
 * request a page makes is answered by the crawler through `page.route` (the document from the bytes
 * it fetched, the rest fetched by the crawler itself), so the browser never needs a network of its
 * own, and nothing it tries without asking (a preconnect, a request the route misses) gets out.
 * `<-loopback>` makes the proxy apply to loopback addresses too. Playwright adds a fresh
 * --user-data-dir (a temporary profile) to every launch.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-features=NetworkPrediction,Translate,OptimizationHints,MediaRouter',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
];

export interface BrowserOptions {
  readonly executable: string | undefined;
  readonly cdpUrl: string;
  readonly remoteWs: string;
  readonly userAgent: string;
  readonly pagesMax: number;
  readonly pageMaxRenders: number;
  readonly browserMaxRenders: number;
  /** `playwright.sandbox` */
  readonly sandbox: SandboxMode;
  /** When a failed launch may be tried again is read on it (the system clock by default). */
  readonly clock?: Clock;
}

/** A reusable page: its context, the browser it belongs to, and the route of the render on it. */
export interface PageSlot {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly generation: number;
  renders: number;
  /** Answers the page's requests while a render runs on it; undefined between renders. */
  job: ((route: Route) => void) | undefined;
  /** Set when the page's renderer process crashed. */
  crashed: boolean;
  /** The host of the last page rendered here: its cookies are cleared before another host's. */
  lastHost?: string;
}

/** The browser could not be started or reached. */
export class BrowserUnavailable extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RENDER_BROWSER_UNAVAILABLE', message, options);
  }
}

/** After a failed launch, renders fail at once for this long before the next try. */
const LAUNCH_RETRY_MS = 30_000;
/** Opening a context and page, or closing one, takes longer than this only on a hung browser. */
const OPEN_TIMEOUT_MS = 30_000;

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

interface Generation {
  readonly browser: Browser;
  /** The launched browser's process (none for a remote one). */
  readonly pid: number | undefined;
  /** Pages of this browser out for a render. */
  busy: number;
  retired: boolean;
}

/**
 * One browser and at most `pagesMax` pages on it, handed out one render at a time: the pool is the
 * concurrency limit of rendering. Nothing starts before the first `acquire`.
 *
 * Self-healing: a page is replaced after `pageMaxRenders` renders or when its renderer crashed; the
 * browser is restarted after `browserMaxRenders` renders (the old one closes once its last page is
 * back) and, when it dies, at the next `acquire` (the renders on it fail, and the caller may try
 * again: `alive` tells). Each browser is a generation; a page of an old generation is never reused.
 *
 * Lifecycle: `acquire` a slot, set its `job`, render, `release` it (healthy or not); `close` once.
 */
export class BrowserPool {
  private current: Generation | undefined;
  private starting: Promise<Generation> | undefined;
  private generations = new Map<number, Generation>();
  private generation = 0;
  private rendersOnCurrent = 0;
  private readonly idle: PageSlot[] = [];
  private busy = 0;
  private readonly waiters: (() => void)[] = [];
  private launchFailedAt = -Infinity;
  private launchError = '';
  private closed = false;
  /** Browsers started (or connected to) and browsers that died, for the summary and tests. */
  readonly stats = { launches: 0, deaths: 0, restarts: 0, pagesOpened: 0, endedCpuMs: 0 };

  /** Why the launched browser runs without its sandbox; undefined while it has it. */
  private noSandbox: string | undefined;
  private warnedNoSandbox = false;

  constructor(
    private readonly o: BrowserOptions,
    private readonly log: Logger,
    probe?: SandboxProbe,
  ) {
    const d = sandboxDecision(o.sandbox, probe);
    if (!d.sandbox) this.noSandbox = d.why;
  }

  private now(): number {
    return (this.o.clock ?? systemClock).now();
  }

  /** A switch Chromium ignores, on this pool's browsers only: how their process is found. */
  readonly marker = `--os-crawler-browser=${process.pid}-${randomBytes(4).toString('hex')}`;

  /** The launched browser's process id (none for a remote browser), for RSS and for tests. */
  get pid(): number | undefined {
    return this.current?.pid;
  }

  /** True while the slot's browser is the current one and alive. */
  alive(slot: PageSlot): boolean {
    return slot.generation === this.generation && this.current !== undefined && !slot.crashed;
  }

  /** A page for one render; waits while `pagesMax` are out. Rejects with BrowserUnavailable. */
  async acquire(): Promise<PageSlot> {
    while (this.busy >= this.o.pagesMax) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.closed) throw new BrowserUnavailable('the browser pool is closed');
    this.busy++;
    try {
      let slot: PageSlot | undefined;
      for (let s = this.idle.pop(); s && !slot; s = slot ? undefined : this.idle.pop()) {
        if (s.generation === this.generation && !s.crashed && !s.page.isClosed()) slot = s;
        else void this.discard(s);
      }
      slot ??= await this.open();
      this.generations.get(slot.generation)!.busy++;
      this.rendersOnCurrent++;
      return slot;
    } catch (e) {
      this.busy--;
      this.waiters.shift()?.();
      throw e;
    }
  }

  /** Gives a slot back; `healthy` false (a failed or hung render) replaces its page. */
  release(slot: PageSlot, healthy: boolean): void {
    slot.job = undefined;
    slot.renders++;
    this.busy--;
    const gen = this.generations.get(slot.generation);
    if (gen) gen.busy--;
    const reuse =
      healthy &&
      !this.closed &&
      this.alive(slot) &&
      slot.renders < this.o.pageMaxRenders &&
      !slot.page.isClosed();
    if (reuse) this.idle.push(slot);
    else void this.discard(slot);
    if (this.current && this.rendersOnCurrent >= this.o.browserMaxRenders) {
      this.stats.restarts++;
      this.log.info(
        { renders: this.rendersOnCurrent },
        `browser restarted after ${this.rendersOnCurrent} renders (playwright.browser.max.renders)`,
      );
      this.retire();
    }
    if (gen?.retired && gen.busy === 0) void this.shut(gen);
    this.waiters.shift()?.();
  }

  /** Closes every page and the browser (a remote one is only disconnected from). */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w();
    const gens = [...this.generations.values()];
    this.idle.length = 0;
    this.current = undefined;
    await Promise.all(gens.map((g) => this.shut(g)));
  }

  private async open(): Promise<PageSlot> {
    const gen = await this.browser();
    const generation = this.generation;
    const context = await within(
      gen.browser.newContext({
        userAgent: this.o.userAgent,
        serviceWorkers: 'block',
        ignoreHTTPSErrors: true,
      }),
      OPEN_TIMEOUT_MS,
      'opening a browser context',
    );
    try {
      const page = await within(context.newPage(), OPEN_TIMEOUT_MS, 'opening a page');
      const slot: PageSlot = { page, context, generation, renders: 0, job: undefined, crashed: false };
      page.on('crash', () => {
        slot.crashed = true;
      });
      // When the DOM last changed: a render waits until it stops changing (page-render.ts).
      await page.addInitScript(DOM_WATCH);
      // Every request of the page goes through the render running on it; none between renders.
      await page.route('**/*', (route) =>
        slot.job ? slot.job(route) : route.abort().catch(() => undefined),
      );
      // WebSockets are not requests a route sees: they are refused here (never connected).
      await page.routeWebSocket(/.*/, (ws) => ws.close());
      this.stats.pagesOpened++;
      return slot;
    } catch (e) {
      await context.close().catch(() => undefined);
      throw e;
    }
  }

  private async browser(): Promise<Generation> {
    if (this.current) return this.current;
    if (this.now() - this.launchFailedAt < LAUNCH_RETRY_MS) throw new BrowserUnavailable(this.launchError);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<Generation> {
    const { cdpUrl, remoteWs, executable } = this.o;
    let browser: Browser;
    try {
      if (cdpUrl !== '') browser = await chromium.connectOverCDP(cdpUrl, { timeout: OPEN_TIMEOUT_MS });
      else if (remoteWs !== '') browser = await chromium.connect(remoteWs, { timeout: OPEN_TIMEOUT_MS });
      else {
        if (!executable) throw new Error('no Chromium found (playwright.executable)');
        browser = await this.launch(executable);
      }
    } catch (e) {
      this.launchFailedAt = this.now();
      const where = cdpUrl || remoteWs || executable || 'no executable';
      this.launchError = `the browser (${where}) could not be started: ${errorMessage(e).split('\n')[0]}`;
      this.log.error({ browser: where, err: errorMessage(e) }, `${this.launchError}; tried again in 30 s`);
      throw new BrowserUnavailable(this.launchError);
    }
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new BrowserUnavailable('the browser pool is closed');
    }
    this.generation++;
    const pid = cdpUrl || remoteWs ? undefined : childWithArg(this.marker);
    const gen: Generation = { browser, pid, busy: 0, retired: false };
    this.generations.set(this.generation, gen);
    this.current = gen;
    this.rendersOnCurrent = 0;
    this.stats.launches++;
    const generation = this.generation;
    browser.on('disconnected', () => this.died(generation, gen));
    this.log.info(
      { browser: cdpUrl || remoteWs || executable, version: browser.version(), pid },
      `browser ${cdpUrl || remoteWs ? 'connected' : 'started'} for rendering: ${browser.version()}`,
    );
    return gen;
  }

  /**
   * Launches Chromium, with its sandbox unless it was decided otherwise. Under `auto`, a sandboxed
   * launch that fails (a kernel or seccomp policy that allows no user namespace after all) is tried
   * once without; then, and whenever it runs without, one warning says why.
   */
  private async launch(executable: string): Promise<Browser> {
    const run = (sandbox: boolean) =>
      chromium.launch({
        executablePath: executable,
        headless: true,
        // Playwright adds --no-sandbox itself when this is false.
        chromiumSandbox: sandbox,
        args: [...CHROMIUM_FLAGS, this.marker],
        timeout: OPEN_TIMEOUT_MS,
      });
    if (this.noSandbox === undefined) {
      try {
        return await run(true);
      } catch (e) {
        // A launch that timed out says nothing about the sandbox (a busy machine): tried again later.
        if (this.o.sandbox !== 'auto' || (e as Error | undefined)?.name === 'TimeoutError') throw e;
        this.noSandbox = `it did not start with it: ${errorMessage(e).split('\n')[0]}`;
      }
    }
    const browser = await run(false);
    if (!this.warnedNoSandbox) this.log.warn({ sandbox: false }, noSandboxWarning(this.noSandbox));
    this.warnedNoSandbox = true;
    return browser;
  }

  private died(generation: number, gen: Generation): void {
    this.generations.delete(generation);
    if (gen.retired || this.closed) return;
    this.stats.deaths++;
    if (this.current === gen) {
      this.current = undefined;
      // Its pages are stale: the next acquire starts (or connects to) a new browser.
      this.generation++;
    }
    this.log.warn(
      { pagesRendering: gen.busy },
      `the browser died; its ${gen.busy} renders in progress are tried again on a new one`,
    );
  }

  /** The current browser takes no new pages; it is closed when its last page comes back. */
  private retire(): void {
    const gen = this.current;
    if (!gen) return;
    gen.retired = true;
    this.current = undefined;
    this.generation++;
    for (const slot of this.idle.splice(0)) void this.discard(slot);
    if (gen.busy === 0) void this.shut(gen);
  }

  private async shut(gen: Generation): Promise<void> {
    gen.retired = true;
    for (const [g, v] of this.generations) if (v === gen) this.generations.delete(g);
    const before = endedChildrenCpuMs();
    try {
      await within(gen.browser.close(), OPEN_TIMEOUT_MS, 'closing the browser');
      // Browsers closed before the pool (restarts) count in the summary's browser CPU.
      if (!this.closed) this.stats.endedCpuMs += endedChildrenCpuMs() - before;
    } catch {
      // A hung browser: its process goes, which closes its connection.
      if (gen.pid !== undefined) {
        try {
          process.kill(gen.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
  }

  private async discard(slot: PageSlot): Promise<void> {
    slot.job = undefined;
    try {
      await within(slot.context.close(), OPEN_TIMEOUT_MS, 'closing a page');
    } catch {
      // Its browser died or hangs: nothing left to close here (a hung browser is restarted).
      if (slot.generation === this.generation && this.current) {
        this.log.warn({}, 'a page could not be closed; the browser is restarted');
        this.retire();
      }
    }
  }
}
