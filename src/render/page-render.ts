import type { Route } from 'playwright-core';
import { CrawlerError } from '../util/errors.js';
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
export class RenderHung extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RENDER_HUNG', message, options);
  }
}

/**
 * A page whose body was still empty at the render's deadline while some of its requests were in
 * flight: its content had not arrived, so it is a failed render (FETCH_ERROR, fetched again), never
 * an empty document.
 */
export class RenderTimeout extends CrawlerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RENDER_TIMEOUT', message, options);
  }
}

/** After the load event, the page's requests must have settled for this long... */
const QUIET_MS = 100;
/** ...and its DOM must not have changed for this long, before the DOM is taken (or the deadline). */
const DOM_QUIET_MS = 100;
/**
 * [ms since the DOM last changed, the page's fetch/XHR calls unanswered], after letting the page's
 * queued tasks run (an answer that arrived is handled by its script first: two turns of its loop).
 */
const PAGE_STATE = `new Promise((r) => setTimeout(r, 0)).then(() => new Promise((r) => setTimeout(r, 0)))
  .then(() => (typeof __oscSettle === 'function' ? __oscSettle() : [1e9, 0]))`;

/** [the length of the text the body shows, the page's fetch/XHR calls unanswered]. */
const BODY_STATE = `[document.body ? document.body.innerText.trim().length : 0,
  typeof __oscSettle === 'function' ? __oscSettle()[1] : 0]`;
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
 * Waits, until `deadline`, for the page's requests to have settled (none in flight for QUIET_MS) and
 * its DOM to have stopped changing (DOM_QUIET_MS). False when the deadline came first. Throws
 * RenderHung when the page does not answer.
 */
async function settle(page: PageSlot['page'], gate: SubrequestGate, deadline: number): Promise<boolean> {
  for (let now = performance.now(); now < deadline; now = performance.now()) {
    const quiet = gate.quietFor(now);
    if (gate.pending > 0 || quiet < QUIET_MS) {
      await gate.changed(Math.min(gate.pending > 0 ? QUIET_MS : QUIET_MS - quiet, deadline - now));
      continue;
    }
    // A page that cannot say (its context replaced) is taken as it is: page.content() tells the rest.
    const asked = (page.evaluate(PAGE_STATE) as Promise<[number, number]>).catch((): [number, number] => [
      DOM_QUIET_MS,
      0,
    ]);
    const state = await timeout(asked, deadline - now + CONTENT_GRACE_MS);
    if (state === 'timeout') throw new RenderHung('the page stopped answering while it settled');
    const [dom, own] = state;
    if (dom >= DOM_QUIET_MS && own === 0 && gate.pending === 0) return true;
    const left = deadline - performance.now();
    const wait = own > 0 ? QUIET_MS : Math.max(DOM_QUIET_MS - dom, 1);
    if (left > 0) await gate.changed(Math.min(wait, left));
  }
  return false;
}

/**
 * Renders one page on a slot: the document is served from the bytes we fetched (the server is not
 * asked again), every other request goes through the gate, a navigation away from the page is
 * refused. Waits for the load event, then for the page's requests to settle and its DOM to stop
 * changing, all within `timeoutMs`, then takes the DOM. A page that misses the deadline keeps the
 * DOM it had (`timeout`), unless its body is still empty with requests in flight: then its content
 * never came, and it rejects with RenderTimeout. Rejects when the page could not be rendered at all
 * (the browser died, the page hung).
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
  // Data a script asked for after the load event (fetch, XHR) is usually what the page shows.
  if (outcome === 'rendered' && !(await settle(page, gate, deadline))) outcome = 'timeout';
  const grace = Math.min(CONTENT_GRACE_MS, timing.timeoutMs);
  const html = await timeout(page.content(), Math.max(deadline - performance.now(), 0) + grace);
  if (html === 'timeout') throw new RenderHung(`${doc.url}: the page stopped answering while rendered`);
  if (outcome === 'timeout') {
    const asked = (page.evaluate(BODY_STATE) as Promise<[number, number]>).catch((): [number, number] => [
      1, 0,
    ]);
    const state = await timeout(asked, grace);
    const [text, own] = state === 'timeout' ? [1, 0] : state;
    const inFlight = Math.max(gate.pending, own);
    if (text === 0 && inFlight > 0) {
      throw new RenderTimeout(
        `render timeout: the body was still empty after ${timing.timeoutMs} ms (http.timeout), ` +
          `${inFlight} of the page's requests in flight`,
      );
    }
  }
  return { html, outcome, ms: performance.now() - started };
}
