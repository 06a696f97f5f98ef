// What scripts/bench/peer.mjs uses of @crawlee/cheerio (the version in ../package.json), so the
// bench type-checks without its own npm install. Checked against the real package by running it.

export interface EnqueueLinksOptions {
  strategy?: 'all' | 'same-domain' | 'same-hostname' | 'same-origin';
}

export interface CheerioCrawlingContext {
  enqueueLinks(options?: EnqueueLinksOptions): Promise<unknown>;
}

export interface CheerioCrawlerOptions {
  minConcurrency?: number;
  maxConcurrency?: number;
  maxRequestRetries?: number;
  maxRequestsPerCrawl?: number;
  requestHandlerTimeoutSecs?: number;
  requestHandler(context: CheerioCrawlingContext): Promise<void>;
  failedRequestHandler?(context: CheerioCrawlingContext, error: Error): void | Promise<void>;
}

export class Configuration {
  constructor(options?: { persistStorage?: boolean; purgeOnStart?: boolean; availableMemoryRatio?: number });
}

export class CheerioCrawler {
  constructor(options: CheerioCrawlerOptions, config?: Configuration);
  run(requests?: readonly string[]): Promise<unknown>;
}

export const log: {
  setLevel(level: number): void;
  readonly LEVELS: { readonly ERROR: number; readonly WARNING: number; readonly INFO: number };
};
