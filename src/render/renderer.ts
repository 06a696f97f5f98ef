import type { MetadataView } from '../protocol/types.js';
import { CrawlerError, errorMessage } from '../util/errors.js';
import type { BrowserPool } from './browser.js';
import { type FetchedDocument, type RenderedPage, type RenderTiming, renderOn } from './page-render.js';
import { type SubrequestCounts, type SubrequestDeps, SubrequestGate } from './subrequests.js';

/**
 * A page that could not be rendered; `cause` is a short reason for `fetch.exception`'s message. Its
 * code is the fetch.exception it becomes ("Render failed", render/protocol.ts).
 */
export class RenderFailure extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FETCH_RENDER_FAILED', message, options);
  }
}

export interface RenderResult extends RenderedPage {
  readonly subrequests: SubrequestCounts;
}

/** Counts for the crawl summary and the benchmark. */
export interface RenderStats {
  renders: number;
  timeouts: number;
  failures: number;
  /** Renders tried again because their browser died under them. */
  retried: number;
  renderMs: number;
  subrequests: number;
  refused: number;
}

/**
 * Renders pages on the pool's browser. A render whose browser died (or whose page crashed) is tried
 * once more on a new one; a second failure, a page that hangs, or a browser that cannot start
 * rejects with RenderFailure. Never leaves a page out of the pool.
 */
export class Renderer {
  readonly stats: RenderStats = {
    renders: 0,
    timeouts: 0,
    failures: 0,
    retried: 0,
    renderMs: 0,
    subrequests: 0,
    refused: 0,
  };

  constructor(
    readonly pool: BrowserPool,
    private readonly gateDeps: SubrequestDeps,
    private readonly timing: RenderTiming,
  ) {}

  async render(doc: FetchedDocument, metadata: MetadataView): Promise<RenderResult> {
    for (let attempt = 0; ; attempt++) {
      let slot: Awaited<ReturnType<BrowserPool['acquire']>>;
      try {
        slot = await this.pool.acquire();
      } catch (e) {
        this.stats.failures++;
        throw new RenderFailure(errorMessage(e), { cause: e });
      }
      const gate = new SubrequestGate(this.gateDeps, doc.url, metadata);
      try {
        const page = await renderOn(slot, doc, gate, this.timing);
        gate.close();
        this.pool.release(slot, true);
        this.stats.renders++;
        if (page.outcome === 'timeout') this.stats.timeouts++;
        this.stats.renderMs += page.ms;
        this.stats.subrequests += gate.counts.fetched;
        this.stats.refused += gate.counts.refused;
        return { ...page, subrequests: { ...gate.counts } };
      } catch (e) {
        gate.close();
        const died = !this.pool.alive(slot);
        this.pool.release(slot, false);
        if (died && attempt === 0) {
          this.stats.retried++;
          continue;
        }
        this.stats.failures++;
        const why = died
          ? 'the browser died while rendering it, twice'
          : (errorMessage(e).split('\n')[0] ?? '');
        throw new RenderFailure(why, { cause: e });
      }
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
