import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { HttpProtocol } from './http/client.js';
import type { ProtocolSettings } from './settings.js';

/**
 * The HTTP protocol of a crawl: its settings checked by the constructor (a ConfigError names a bad
 * key), and one line naming the proxies when requests go through any. `capture` keeps the heads of
 * each exchange, for the WARC output. The caller closes it after the crawl.
 */
export function buildHttp(
  config: ProtocolSettings,
  deps: { readonly clock: Clock; readonly capture: boolean; readonly log: Logger },
): HttpProtocol {
  const { clock, capture, log } = deps;
  const protocol = new HttpProtocol(config, { clock, capture });
  const proxies = protocol.proxyList;
  if (proxies.length > 0) {
    log.info(
      { proxies, rotation: proxies.length > 1 ? config['http.proxy.rotation'] : undefined },
      proxies.length === 1
        ? `every request goes through the proxy ${proxies[0]} (http.proxy.host)`
        : `requests go through ${proxies.length} proxies from http.proxy.file, ${config['http.proxy.rotation']}`,
    );
  }
  return protocol;
}
