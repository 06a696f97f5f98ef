/** What a parse of one version of a page (raw HTML or rendered DOM) yields, for the comparison. */
export interface PageView {
  /** Characters of extracted text. */
  readonly text: number;
  /** Outlinks after the crawl's URL normalisers and filters (so tracking parameters are gone). */
  readonly links: readonly string[];
}

/** One sample: a page of a candidate host, parsed as fetched and as rendered. */
export interface Comparison {
  readonly textPlain: number;
  readonly textRendered: number;
  /** Links to the page's own host that only the rendered DOM has. */
  readonly newLinks: number;
  /** Rendering showed something the HTML did not have (see `compare`). */
  readonly gain: boolean;
}

/** Text that rendering must add at least, in characters, for a gain. */
export const MIN_TEXT_GAIN = 200;
/** New same-host links that rendering must add at least for a gain. */
export const MIN_NEW_LINKS = 3;

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Compares the two versions of a page. Rendering gained when it added at least MIN_TEXT_GAIN
 * characters of text and half again of what the HTML had, or at least MIN_NEW_LINKS links to the
 * same host and half again of those the HTML had. Links are compared after the URL filters, so a
 * link that differs only by a tracking parameter a normaliser removes is not new (Crawlee's
 * detector is fooled by those, crawlee issue 2798); links to other hosts never count.
 */
export function compare(pageUrl: string, plain: PageView, rendered: PageView): Comparison {
  const host = hostOf(pageUrl);
  const sameHost = (links: readonly string[]) => links.filter((l) => hostOf(l) === host);
  const before = new Set(sameHost(plain.links));
  const newLinks = new Set(sameHost(rendered.links).filter((l) => !before.has(l))).size;
  const textGain = rendered.text - plain.text;
  const gain =
    (textGain >= MIN_TEXT_GAIN && textGain >= plain.text / 2) ||
    (newLinks >= MIN_NEW_LINKS && newLinks >= before.size / 2);
  return { textPlain: plain.text, textRendered: rendered.text, newLinks, gain };
}
