import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../util/errors.js';
import { parseDelegatorRules, type Route, RouteRules } from './rules.js';
import type { SandboxMode } from './sandbox.js';

/** The render keys of the configuration, checked. */
export interface RenderSettings {
  /** The Chromium to launch, when one was found (none with a remote browser). */
  readonly executable: string | undefined;
  readonly cdpUrl: string;
  readonly remoteWs: string;
  readonly loadEvent: 'load' | 'domcontentloaded' | 'networkidle';
  readonly skipTypes: ReadonlySet<string>;
  readonly pagesMax: number;
  readonly pageMaxRenders: number;
  readonly browserMaxRenders: number;
  /** playwright.sandbox */
  readonly sandbox: SandboxMode;
  readonly subrequestsMax: number;
  /** http.timeout: how long a render waits for its load event. */
  readonly timeoutMs: number;
  readonly rules: RouteRules;
  readonly adaptive: boolean;
  readonly samples: number;
  readonly scanPages: number;
  readonly recheckMs: number;
}

/** Where Debian, Ubuntu and Chrome's packages put the browser, looked up on PATH. */
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function executableAt(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The system's Chromium: the first of SYSTEM_NAMES on PATH; undefined when none is installed. */
export function systemChromium(path = process.env.PATH ?? ''): string | undefined {
  for (const name of SYSTEM_NAMES)
    for (const dir of path.split(delimiter).filter(Boolean)) {
      const candidate = join(dir, name);
      if (executableAt(candidate)) return candidate;
    }
  return undefined;
}

/** The Playwright resource types, for checking playwright.skip.resource.types. */
const RESOURCE_TYPES = [
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'texttrack',
  'xhr',
  'fetch',
  'eventsource',
  'websocket',
  'manifest',
  'other',
];

/** The keys rendering reads: playwright.*, render.adaptive.*, the delegator's routes, the fetch timeout. */
export type RenderConfig = Pick<
  Config,
  | 'playwright.cdp.url'
  | 'playwright.remote.ws'
  | 'playwright.skip.resource.types'
  | 'playwright.executable'
  | 'playwright.load.event'
  | 'playwright.pages.max'
  | 'playwright.page.max.renders'
  | 'playwright.browser.max.renders'
  | 'playwright.sandbox'
  | 'playwright.subrequests.max'
  | 'http.timeout'
  | 'protocol.delegator.config'
  | 'render.adaptive'
  | 'render.adaptive.samples'
  | 'render.adaptive.scan.pages'
  | 'render.adaptive.recheck'
>;

/** Reads and checks the keys; throws ConfigError naming the key. Looks for the browser, starts none. */
export function renderSettings(config: RenderConfig): RenderSettings {
  const cdpUrl = config['playwright.cdp.url'].trim();
  const remoteWs = config['playwright.remote.ws'].trim();
  if (cdpUrl !== '' && remoteWs !== '')
    throw new ConfigError([
      'keys "playwright.cdp.url" and "playwright.remote.ws" are both set; can\'t specify both, set one',
    ]);
  const unknown = config['playwright.skip.resource.types'].filter((t) => !RESOURCE_TYPES.includes(t));
  if (unknown.length > 0)
    throw new ConfigError([
      `key "playwright.skip.resource.types" has ${unknown.map((t) => JSON.stringify(t)).join(', ')}: ` +
        `expected Playwright resource types (${RESOURCE_TYPES.join(', ')})`,
    ]);
  const own = config['playwright.executable'].trim();
  if (own !== '' && !executableAt(own))
    throw new ConfigError([
      `key "playwright.executable" is "${own}", which is not an executable file; install Chromium ` +
        "(Debian: apt-get install chromium) or leave the key empty for the system's",
    ]);
  const remote = cdpUrl !== '' || remoteWs !== '';
  const adaptive = config['render.adaptive'];
  const fallback: Route = adaptive ? 'adaptive' : 'http';
  return {
    executable: remote ? undefined : own !== '' ? own : systemChromium(),
    cdpUrl,
    remoteWs,
    loadEvent: config['playwright.load.event'],
    skipTypes: new Set(config['playwright.skip.resource.types']),
    pagesMax: config['playwright.pages.max'],
    pageMaxRenders: config['playwright.page.max.renders'],
    browserMaxRenders: config['playwright.browser.max.renders'],
    sandbox: config['playwright.sandbox'],
    subrequestsMax: config['playwright.subrequests.max'],
    timeoutMs: config['http.timeout'],
    rules: new RouteRules(parseDelegatorRules(config['protocol.delegator.config']), fallback),
    adaptive,
    samples: config['render.adaptive.samples'],
    scanPages: config['render.adaptive.scan.pages'],
    recheckMs: config['render.adaptive.recheck'],
  };
}
