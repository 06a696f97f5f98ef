import { bool, duration, int, list, oneOf, str, structured } from '../define.js';

/**
 * Rendering pages in a browser (src/render): StormCrawler's playwright.* and protocol.delegator.*
 * names where it has them, render.* for the adaptive choice it does not have.
 */
export const renderKeys = {
  'playwright.executable': str(
    '',
    "the Chromium to launch; empty = the system's (chromium, chromium-browser or google-chrome on PATH)",
  ),
  'playwright.cdp.url': str('', 'connect to a running Chromium over CDP instead, e.g. http://127.0.0.1:9222'),
  'playwright.remote.ws': str(
    '',
    'connect to a Playwright browser server instead, e.g. ws://127.0.0.1:3000/',
  ),
  'playwright.load.event': oneOf(
    ['load', 'domcontentloaded', 'networkidle'],
    'load',
    'the event a render waits for (at most http.timeout) before the DOM is taken',
  ),
  'playwright.skip.resource.types': list(
    ['image', 'font', 'media'],
    "resource types a rendered page may not load (Playwright's names: image, font, media, stylesheet...)",
  ),
  'playwright.pages.max': int(4, 'pages rendered at once: the reusable browser pages', 1),
  'playwright.page.max.renders': int(100, 'renders after which a page (and its context) is replaced', 1),
  'playwright.browser.max.renders': int(2000, 'renders after which the browser is restarted', 1),
  'playwright.sandbox': oneOf(
    ['auto', 'on', 'off'],
    'auto',
    "Chromium's sandbox: auto = unless the crawler runs as root or has no user namespaces; on; off",
  ),
  'playwright.subrequests.max': int(
    100,
    'requests a rendered page may make besides its document; the rest are refused',
    0,
  ),
  'protocol.delegator.config': structured(
    [],
    'rules choosing http, playwright or adaptive per URL: a list of {className, filters, operator, regex}',
  ),
  'render.adaptive': bool(
    true,
    'with a browser, render the pages of hosts that need it, found by comparing a few samples',
  ),
  'render.adaptive.samples': int(3, 'pages of a candidate host rendered and compared before deciding', 1),
  'render.adaptive.scan.pages': int(
    20,
    'pages of a host (per process) whose HTML is scanned for signs of a script-built page',
    1,
  ),
  'render.adaptive.recheck': duration(
    7 * 86_400_000,
    "a host's decision is checked again (new samples) this long after it was made",
  ),
} as const;
