import type { FetchProtocol } from '../fetch/ports.js';
import type { ParserThreadConfig } from '../parse/worker/protocol.js';
import type { HttpProtocol } from '../protocol/http/client.js';
import { loadURLFilters } from '../urlfilters/load.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { type DecisionStore, RenderAdvisor } from './advisor.js';
import { BrowserPool } from './browser.js';
import { pageInspector } from './inspect.js';
import { endedChildrenCpuMs } from './processes.js';
import { RenderingProtocol } from './protocol.js';
import { Renderer } from './renderer.js';
import { type RenderConfig, renderSettings } from './settings.js';

export interface Rendering {
  /** What the fetcher uses: the rendering protocol, or the HTTP protocol itself when off. */
  readonly protocol: FetchProtocol;
  /** Set when pages may be rendered. */
  readonly renderer?: Renderer;
  /** Closes the browser (waits for nothing else); once, after the crawl. */
  close(): Promise<void>;
}

/** What rendering is built from: its own keys, and the parser's and URL filters' (its samples parse pages). */
export type RenderBuildConfig = RenderConfig & ParserThreadConfig;

/**
 * The rendering of a crawl, from its configuration: checks the keys (ConfigError), looks for a
 * browser and starts none (the first page to render starts it). Without a browser, or with nothing
 * that may be rendered, the crawl fetches as without this feature and one log line says so.
 */
export function buildRendering(
  config: RenderBuildConfig,
  deps: {
    http: HttpProtocol;
    /** Where adaptive rendering keeps its per-host decisions (the hosts index, from the layer above). */
    decisions: () => DecisionStore;
    clock: Clock;
    log: Logger;
  },
): Rendering {
  const { http, clock, log } = deps;
  const s = renderSettings(config);
  const off = { protocol: http, close: async () => undefined };
  if (!s.rules.mayRender) {
    log.info({}, 'rendering off: render.adaptive is false and no protocol.delegator.config rule renders');
    return off;
  }
  const remote = s.cdpUrl || s.remoteWs;
  if (!remote && !s.executable) {
    const forced = s.rules.rules.some((r) => r.route === 'playwright');
    const line =
      'no Chromium found (install Debian\'s "chromium", or set playwright.executable, playwright.cdp.url ' +
      'or playwright.remote.ws): pages are not rendered';
    if (forced) log.warn({}, `${line}, not even those protocol.delegator.config routes to playwright`);
    else log.info({}, line);
    return off;
  }
  const pool = new BrowserPool(
    {
      executable: s.executable,
      cdpUrl: s.cdpUrl,
      remoteWs: s.remoteWs,
      userAgent: http.userAgent,
      pagesMax: s.pagesMax,
      pageMaxRenders: s.pageMaxRenders,
      browserMaxRenders: s.browserMaxRenders,
      sandbox: s.sandbox,
      clock,
    },
    log,
  );
  // Their own filter chain: drops of subrequests and sample links stay out of the crawl's counts.
  const subFilter = loadURLFilters(config, { logger: log });
  let protocol: RenderingProtocol | undefined;
  const renderer = new Renderer(
    pool,
    {
      fetch: (url, init, signal) => http.subrequest(url, init, signal),
      filter: subFilter,
      skipTypes: s.skipTypes,
      max: s.subrequestsMax,
      report: (page, url, code, retryAfter) => protocol?.report(page, url, code, retryAfter),
    },
    { timeoutMs: s.timeoutMs, loadEvent: s.loadEvent },
  );
  const adaptive = s.adaptive || s.rules.rules.some((r) => r.route === 'adaptive');
  const decisions = adaptive ? deps.decisions() : undefined;
  const advisor = decisions
    ? new RenderAdvisor(
        { samples: s.samples, scanPages: s.scanPages, recheckMs: s.recheckMs },
        decisions,
        clock,
      )
    : undefined;
  protocol = new RenderingProtocol({
    http,
    rules: s.rules,
    ...(advisor ? { advisor } : {}),
    renderer,
    inspect: pageInspector(config, loadURLFilters(config, { logger: log }), clock),
    log,
  });
  log.info(
    {
      browser: remote || s.executable,
      adaptive,
      rules: s.rules.rules.length,
      pages: s.pagesMax,
    },
    `rendering with ${remote || s.executable} where needed (${[
      ...(adaptive ? ['adaptive'] : []),
      ...(s.rules.rules.length > 0 ? [`${s.rules.rules.length} rules`] : []),
    ].join(', ')}); the browser starts with the first page to render`,
  );
  return {
    protocol,
    renderer,
    async close() {
      const before = endedChildrenCpuMs();
      await renderer.close();
      await decisions?.flush?.();
      const r = renderer.stats;
      // The browsers were waited for once closed: their CPU is the growth of the children's CPU.
      const browserCpuMs = endedChildrenCpuMs() - before + pool.stats.endedCpuMs;
      if (r.renders + r.failures > 0)
        log.info(
          {
            ...r,
            renderMs: Math.round(r.renderMs),
            browser: { ...pool.stats, cpuMs: Math.round(browserCpuMs) },
          },
          `rendering: ${r.renders} pages rendered (${r.timeouts} timed out), ${r.failures} failed, ` +
            `${r.subrequests} requests fetched for them and ${r.refused} refused; ` +
            `${pool.stats.launches} browser starts, ${pool.stats.deaths} deaths`,
        );
    },
  };
}

/**
 * Rendering as the composition root lists it (app/feature.ts): it hands the crawl loop the protocol
 * that renders where needed, wrapped around the HTTP protocol (robots.txt never goes through it),
 * and its parts as `parts`; always built (off, the protocol is the HTTP protocol itself).
 */
export const renderFeature = {
  check: renderSettings,
  build(
    config: RenderBuildConfig,
    base: {
      readonly http: HttpProtocol;
      readonly renderDecisions: () => DecisionStore;
      readonly clock: Clock;
      readonly log: Logger;
    },
  ) {
    const { http, clock, log } = base;
    const rendering = buildRendering(config, { http, decisions: base.renderDecisions, clock, log });
    return { hand: { protocol: rendering.protocol }, parts: rendering, close: () => rendering.close() };
  },
};
