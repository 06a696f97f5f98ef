// What scripts/bench/peer-render.mjs uses of @crawlee/playwright (the version in ../package.json), so
// the bench type-checks without its own npm install. Checked against the real package by running it.

import type { BrowserType, Page } from 'playwright-core';

export interface EnqueueLinksOptions {
  strategy?: 'all' | 'same-domain' | 'same-hostname' | 'same-origin';
}

export interface PlaywrightCrawlingContext {
  page: Page;
  enqueueLinks(options?: EnqueueLinksOptions): Promise<unknown>;
}

export interface PlaywrightCrawlerOptions {
  minConcurrency?: number;
  maxConcurrency?: number;
  maxRequestRetries?: number;
  maxRequestsPerCrawl?: number;
  requestHandlerTimeoutSecs?: number;
  headless?: boolean;
  launchContext?: {
    launcher?: BrowserType;
    launchOptions?: { executablePath?: string; args?: string[]; chromiumSandbox?: boolean };
  };
  browserPoolOptions?: { useFingerprints?: boolean };
  preNavigationHooks?: ((context: PlaywrightCrawlingContext) => Promise<void>)[];
  requestHandler(context: PlaywrightCrawlingContext): Promise<void>;
  failedRequestHandler?(context: PlaywrightCrawlingContext, error: Error): void | Promise<void>;
}

export class Configuration {
  constructor(options?: { persistStorage?: boolean; purgeOnStart?: boolean; availableMemoryRatio?: number });
}

export class PlaywrightCrawler {
  constructor(options: PlaywrightCrawlerOptions, config?: Configuration);
  run(requests?: readonly string[]): Promise<unknown>;
  teardown(): Promise<void>;
}

export const playwrightUtils: {
  blockRequests(page: Page, options?: { urlPatterns?: string[] }): Promise<void>;
};

export const log: {
  setLevel(level: number): void;
  readonly LEVELS: { readonly ERROR: number; readonly WARNING: number; readonly INFO: number };
};
