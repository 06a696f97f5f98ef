import type { FetchProtocol, SubrequestSink } from '../fetch/ports.js';
import { MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import { detectMediaType } from '../parse/mime.js';
import { FetchException } from '../protocol/http/errors.js';
import type { Logger } from '../util/log.js';
import type { RenderAdvisor, Verdict } from './advisor.js';
import { compare } from './compare.js';
import type { Inspector } from './inspect.js';
import { type Renderer, RenderFailure, type RenderResult } from './renderer.js';
import type { RouteRules } from './rules.js';

type Response = Awaited<ReturnType<FetchProtocol['fetch']>>;

/** A UTF-8 byte order mark: the parser's charset detection lets it decide before any declaration. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface RenderingDeps {
  readonly http: FetchProtocol;
  readonly rules: RouteRules;
  /** The adaptive choice; none when render.adaptive is off and no rule says "adaptive". */
  readonly advisor?: RenderAdvisor;
  readonly renderer: Renderer;
  readonly inspect: Inspector;
  readonly log: Logger;
}

/** The host name of a URL the crawl holds (normalised already): a slice, parsed only when unusual. */
export function hostOf(url: string): string {
  const from = url.indexOf('//') + 2;
  let end = from;
  let colon = -1;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    // '/', '?' and '#' end the authority; '@' and '[' (userinfo, IPv6) need the parser.
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (c === 0x40 || c === 0x5b) {
      end = -1;
      break;
    }
    if (c === 0x3a && colon < 0) colon = end;
    end++;
  }
  if (from > 1 && end > from) return url.slice(from, colon < 0 ? end : colon).toLowerCase();
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * The rendering protocol: it wraps the HTTP protocol, so robots.txt, politeness, the address
 * filter, limits and redirects are exactly those of a plain fetch; only an HTML page answered 200
 * (the only answer that goes on to the parser) may be rendered, from the bytes already fetched.
 * What the parser then gets is the DOM after rendering, as UTF-8 behind a byte order mark; the
 * response keeps the server's own answer for the WARC output (`exchange`), and the page's metadata
 * gets `render.*`.
 *
 * Which pages: the rules (rules.ts) route a URL to `http`, `playwright` (always rendered: a render
 * that fails makes the page a FETCH_ERROR "Render failed") or `adaptive` (its host's decision,
 * advisor.ts: rendered, left plain, or rendered as a sample and compared with its HTML; a sample that
 * fails leaves the page as fetched). The plain path (no rule, a host without signs) does no work of
 * its own but a type check and a map lookup, and awaits nothing.
 */
export class RenderingProtocol implements FetchProtocol {
  private sink: SubrequestSink | undefined;

  constructor(private readonly d: RenderingDeps) {}

  reportTo(sink: SubrequestSink): void {
    this.sink = sink;
  }

  /** Where the subrequests' answers are reported (set by the fetcher through `reportTo`). */
  report = (page: string, url: string, code: number | undefined, retryAfter?: string): void => {
    this.sink?.answered(page, url, code, retryAfter);
  };

  fetch(url: string, metadata: Metadata): Promise<Response> {
    return this.d.http.fetch(url, metadata).then((res) => this.after(url, metadata, res));
  }

  private after(url: string, metadata: Metadata, res: Response): Response | Promise<Response> {
    if (res.statusCode !== 200 || res.content.length === 0 || res.trimmed !== undefined) return res;
    if (metadata.getFirstValue(MD.isSitemap) === 'true') return res;
    const type = detectMediaType(res.content, res.headers['content-type']?.[0]);
    if (!type.includes('html')) return res;
    const choice = this.d.rules.choose(url, metadata);
    if (choice.route === 'http') return res;
    if (choice.route === 'playwright') return this.forced(url, metadata, res, choice.reason);
    const advisor = this.d.advisor;
    if (!advisor) return res;
    const host = hostOf(url);
    const v = advisor.verdict(host, res.content);
    const page = { host, url, metadata };
    return typeof v === 'string'
      ? this.byVerdict(v, page, res)
      : v.then((verdict) => this.byVerdict(verdict, page, res));
  }

  private byVerdict(
    v: Verdict,
    page: { readonly host: string; readonly url: string; readonly metadata: Metadata },
    res: Response,
  ): Response | Promise<Response> {
    const { host, url, metadata } = page;
    if (v === 'plain') return res;
    if (v === 'render') return this.forced(url, metadata, res, 'host');
    return this.sample(host, url, metadata, res);
  }

  private document(url: string, res: Response) {
    return { url, statusCode: res.statusCode, headers: res.headers, body: res.content };
  }

  /** A page that must be rendered: a failure is the page's FETCH_ERROR. */
  private async forced(url: string, metadata: Metadata, res: Response, reason: string): Promise<Response> {
    let page: RenderResult;
    try {
      page = await this.d.renderer.render(this.document(url, res), metadata);
    } catch (e) {
      if (!(e instanceof RenderFailure)) throw e;
      throw FetchException.of('render', `${url}: not rendered: ${e.message}`, e);
    }
    return this.rendered(res, page, reason);
  }

  /** A sample of a candidate host: rendered and compared; a failure is no evidence either way. */
  private async sample(host: string, url: string, metadata: Metadata, res: Response): Promise<Response> {
    const advisor = this.d.advisor!;
    let page: RenderResult;
    try {
      page = await this.d.renderer.render(this.document(url, res), metadata);
    } catch (e) {
      advisor.sampled(host, undefined);
      if (!(e instanceof RenderFailure)) throw e;
      this.d.log.debug({ url, err: e.message }, 'a sample render failed; the page goes on as fetched');
      return { ...res, metadata: { [MD.renderOutcome]: 'failed', [MD.renderReason]: 'sample' } };
    }
    const dom = Buffer.concat([BOM, Buffer.from(page.html)]);
    if (page.outcome === 'timeout') {
      advisor.sampled(host, undefined);
      return this.rendered(res, page, 'sample', dom);
    }
    let c: ReturnType<typeof compare>;
    try {
      const plain = this.d.inspect(url, metadata, res.headers, res.content);
      const rendered = this.d.inspect(url, metadata, res.headers, dom);
      c = compare(url, plain, rendered);
    } catch (e) {
      advisor.sampled(host, undefined);
      throw e;
    }
    advisor.sampled(host, c);
    const r = advisor.record(host);
    // The page goes on as rendered when that showed more, or when its host is rendered anyway.
    if (c.gain || r?.decision === 'render') return this.rendered(res, page, 'sample', dom);
    return { ...res, metadata: { [MD.renderOutcome]: 'sampled', [MD.renderReason]: 'sample' } };
  }

  private rendered(res: Response, page: RenderResult, reason: string, dom?: Buffer): Response {
    const content = dom ?? Buffer.concat([BOM, Buffer.from(page.html)]);
    return {
      ...res,
      content,
      metadata: {
        [MD.renderOutcome]: page.outcome,
        [MD.renderReason]: reason,
        [MD.renderSubrequests]: String(page.subrequests.fetched),
        [MD.renderRefused]: String(page.subrequests.refused),
      },
    };
  }
}
