import type { Route } from 'playwright-core';
import type { PageSlot } from './browser.js';
import type { SubrequestGate } from './subrequests.js';

/** The answer we fetched for the page, served to the browser as its document. */
export interface FetchedDocument {
  readonly url: string;
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, readonly string[]>>;
  readonly body: Buffer;
}

/** `rendered`: the load event came; `timeout`: it did not within the time, the DOM so far is kept. */
export type RenderOutcome = 'rendered' | 'timeout';

export interface RenderedPage {
  /** The DOM after rendering, serialised (page.content()). */
  readonly html: string;
  readonly outcome: RenderOutcome;
  readonly ms: number;
}

export interface RenderTiming {
  /** http.timeout: the hard limit of one render, from navigation to the DOM. */
  readonly timeoutMs: number;
  readonly loadEvent: 'load' | 'domcontentloaded' | 'networkidle';
}

/** A render whose page stopped answering (a script that never yields): its page is replaced. */
export class RenderHung extends Error {
  readonly code = 'ERR_RENDER_HUNG';
}

/** After the load event, requests of the page still in flight are waited for until this quiet... */
const QUIET_MS = 100;
/** ...for at most this long: a page that polls forever is taken as it is then. */
const SETTLE_MAX_MS = 2_000;
/**
 * Serialising the DOM of a page whose scripts still run takes longer than this (or than the render's
 * own time limit, when shorter) only when it hangs.
 */
const CONTENT_GRACE_MS = 5_000;

/** Fields that described the answer as sent, not the decoded bytes handed to the browser. */
const NOT_PASSED = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

function documentHeaders(headers: FetchedDocument['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, values] of Object.entries(headers)) {
    if (NOT_PASSED.has(k) || k.startsWith('_')) continue;
    out[k] = values.join(k === 'set-cookie' ? '\n' : ', ');
  }
  return out;
}

function timeout<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, ms));
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

const isTimeout = (e: unknown) => (e as Error | undefined)?.name === 'TimeoutError';

/**
 * Renders one page on a slot: the document is served from the bytes we fetched (the server is not
 * asked again), every other request goes through the gate, a navigation away from the page is
 * refused. Waits for the load event (at most `timeoutMs`), then for the page's requests still in
 * flight to settle, then takes the DOM. A page that misses the deadline keeps the DOM it had
 * (`timeout`). Rejects when the page could not be rendered at all (the browser died, the page hung).
 */
export async function renderOn(
  slot: PageSlot,
  doc: FetchedDocument,
  gate: SubrequestGate,
  timing: RenderTiming,
): Promise<RenderedPage> {
  const started = performance.now();
  const deadline = started + timing.timeoutMs;
  const { page } = slot;
  let served = false;
  slot.job = (route: Route) => {
    const request = route.request();
    let main = false;
    try {
      main = request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      // A request of a service worker has no frame; it is not the page's document.
    }
    if (main && !served) {
      served = true;
      route
        .fulfill({ status: doc.statusCode, headers: documentHeaders(doc.headers), body: doc.body })
        .catch(() => undefined);
      return;
    }
    // The page navigating elsewhere (a script redirect, a form) is not followed: its DOM is kept.
    if (main) {
      route.abort('aborted').catch(() => undefined);
      return;
    }
    void gate.handle(route);
  };
  const host = new URL(doc.url).host;
  if (slot.lastHost !== undefined && slot.lastHost !== host) await slot.context.clearCookies();
  slot.lastHost = host;
  let outcome: RenderOutcome = 'rendered';
  try {
    await page.goto(doc.url, { waitUntil: timing.loadEvent, timeout: timing.timeoutMs });
  } catch (e) {
    if (!isTimeout(e)) throw e;
    outcome = 'timeout';
  }
  if (outcome === 'rendered') {
    // Data a script asked for after the load event (fetch, XHR) is usually what the page shows.
    const settleUntil = Math.min(deadline, performance.now() + SETTLE_MAX_MS);
    for (let now = performance.now(); now < settleUntil; now = performance.now()) {
      if (gate.pending === 0 && gate.quietFor(now) >= QUIET_MS) break;
      await gate.changed(Math.min(QUIET_MS, settleUntil - now));
    }
  }
  const grace = Math.min(CONTENT_GRACE_MS, timing.timeoutMs);
  const html = await timeout(page.content(), Math.max(deadline - performance.now(), 0) + grace);
  if (html === 'timeout') throw new RenderHung(`${doc.url}: the page stopped answering while rendered`);
  return { html, outcome, ms: performance.now() - started };
}
