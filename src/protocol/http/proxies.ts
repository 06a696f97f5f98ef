import { readFileSync } from 'node:fs';
import { type Dispatcher, ProxyAgent } from 'undici';
import { ConfigError, errorMessage } from '../../util/errors.js';

export type ProxyRotationMode = 'ROUND_ROBIN' | 'RANDOM' | 'LEAST_USED';

export interface ProxySettings {
  readonly 'http.proxy.host': string;
  readonly 'http.proxy.port': number;
  readonly 'http.proxy.user': string;
  readonly 'http.proxy.pass': string;
  readonly 'http.proxy.file': string;
  readonly 'http.proxy.rotation': ProxyRotationMode;
}

function checkProxyUrl(text: string, where: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError([
      `${where}: ${JSON.stringify(text)} is not a URL; expected http://[user:pass@]host:port`,
    ]);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new ConfigError([
      `${where}: ${JSON.stringify(redact(text))}: expected http://[user:pass@]host:port`,
    ]);
  }
  return url.href;
}

/** The proxy URL without its password, for messages and logs. */
export function redact(proxyUrl: string): string {
  return proxyUrl.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

/**
 * The configured proxies: the lines of http.proxy.file when set (blank lines, "#" and "//" comments
 * skipped), else http.proxy.host. Empty when neither is set. Read once at start-up; a bad line is a
 * ConfigError naming the file and line.
 */
export function proxyUrls(
  s: ProxySettings,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): string[] {
  const file = s['http.proxy.file'].trim();
  if (file !== '') {
    let text: string;
    try {
      text = read(file);
    } catch (e) {
      throw new ConfigError([`key "http.proxy.file": cannot read ${file}: ${errorMessage(e)}`]);
    }
    const urls: string[] = [];
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || line.startsWith('//')) return;
      urls.push(checkProxyUrl(line, `${file} line ${i + 1}`));
    });
    if (urls.length === 0) throw new ConfigError([`key "http.proxy.file": ${file} lists no proxy`]);
    return urls;
  }
  const host = s['http.proxy.host'].trim();
  if (host === '') return [];
  const user = s['http.proxy.user'];
  const auth = user === '' ? '' : `${encodeURIComponent(user)}:${encodeURIComponent(s['http.proxy.pass'])}@`;
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return [checkProxyUrl(`http://${auth}${bracketed}:${s['http.proxy.port']}`, 'key "http.proxy.host"')];
}

/**
 * Spreads requests over proxies, one undici ProxyAgent (with its own keep-alive pools) per proxy.
 * http targets are sent in absolute form (`GET http://host/path`), which every forward proxy
 * accepts, instead of undici's default CONNECT tunnel that many proxies allow only to port 443;
 * https targets always go through a CONNECT tunnel.
 */
export class ProxyRotation {
  private readonly agents: ProxyAgent[];
  private readonly usage: number[];
  private cursor = 0;

  constructor(
    readonly urls: readonly string[],
    private readonly mode: ProxyRotationMode,
    agentOptions: Omit<ProxyAgent.Options, 'uri'> = {},
    private readonly random: () => number = Math.random,
  ) {
    this.agents = urls.map((uri) => new ProxyAgent({ ...agentOptions, uri, proxyTunnel: false }));
    this.usage = urls.map(() => 0);
  }

  /** The proxy for the next request; counts it as used. */
  next(): { readonly dispatcher: Dispatcher; readonly index: number } {
    const n = this.agents.length;
    let index: number;
    if (this.mode === 'RANDOM') index = Math.min(n - 1, Math.floor(this.random() * n));
    else if (this.mode === 'LEAST_USED') index = this.usage.indexOf(Math.min(...this.usage));
    else index = this.cursor++ % n;
    this.usage[index]!++;
    return { dispatcher: this.agents[index]!, index };
  }

  /** Requests sent through each proxy so far, in the order of `urls`. */
  usageCounts(): readonly number[] {
    return [...this.usage];
  }

  async close(): Promise<void> {
    await Promise.all(this.agents.map((a) => a.close()));
  }
}
