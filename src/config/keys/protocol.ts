import { bool, duration, int, list, num, oneOf, str } from '../define.js';

/** StormCrawler's newer default: nothing inside the host, the LAN or carrier NAT is fetched. */
export const DEFAULT_IP_EXCLUDE = [
  'localhost',
  'sitelocal',
  'linklocal',
  'anylocal',
  'multicast',
  '100.64.0.0/10',
  '0.0.0.0/8',
  'fc00::/7',
  '::/128',
] as const;

/** The HTTP protocol and robots.txt (StormCrawler's http.* and robots.* keys). */
export const protocolKeys = {
  'http.timeout': duration(
    10_000,
    'one deadline in ms over connecting, the response headers and the body of a fetch',
  ),
  'http.content.limit': int(
    10_485_760,
    'bytes of (decoded) content kept; a longer body is cut and marked http.trimmed; -1 = unlimited',
    -1,
  ),
  'http.decoded.limit': int(
    67_108_864,
    'bytes decoded at most from a gzip/deflate/br body, so a decompression bomb is cut; -1 = unlimited',
    -1,
  ),
  'http.decoded.max.ratio': num(
    100,
    'a compressed body cut at http.content.limit that inflated more than this many times is a bomb (error, not indexed); 0 = no check',
    0,
  ),
  'http.accept': str(
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'the Accept header (metadata http.accept overrides it per URL)',
  ),
  'http.accept.language': str(
    'en-us,en-gb,en;q=0.7,*;q=0.3',
    'the Accept-Language header (metadata http.accept.language overrides it per URL)',
  ),
  'http.custom.headers': list(
    [],
    'extra request headers, one "Name=Value" per entry (one string is one header)',
    /\n/,
  ),
  'http.use.cookies': bool(false, 'send the cookies of metadata protocol.set-cookie back as a Cookie header'),
  'http.store.headers': bool(
    false,
    'also keep the verbatim response header block (_response.headers_) and the request time (_request.time_)',
  ),
  'protocol.md.prefix': str('protocol.', 'prefix of the response headers kept in metadata'),
  'http.conditional.get': bool(
    true,
    "keep a fetched page's ETag and Last-Modified and send them back as If-None-Match / If-Modified-Since",
  ),
  'http.proxy.host': str('', 'a single HTTP proxy; empty = none (http.proxy.file wins when set)'),
  'http.proxy.port': int(8080, 'port of http.proxy.host', 1),
  'http.proxy.user': str('', 'user for http.proxy.host; empty = no authentication'),
  'http.proxy.pass': str('', 'password for http.proxy.user'),
  'http.proxy.file': str(
    '',
    'a file of proxies, one http://[user:pass@]host:port per line, "#" or "//" comments',
  ),
  'http.proxy.rotation': oneOf(
    ['ROUND_ROBIN', 'RANDOM', 'LEAST_USED'],
    'ROUND_ROBIN',
    'how requests are spread over the proxies of http.proxy.file',
    true,
  ),
  'http.robots.403.allow': bool(true, 'a robots.txt answered 403 allows everything (false: forbids)'),
  'http.robots.5xx.allow': bool(false, 'a robots.txt answered 5xx allows everything (default: forbids)'),
  'http.robots.file.skip': bool(false, 'ignore robots.txt entirely: never fetched, everything allowed'),
  'http.robots.content.limit': int(
    524_288,
    'bytes of a robots.txt read at most; -1 = as http.content.limit',
    -1,
  ),
  'robots.cache.spec': str(
    'maximumSize=10000,expireAfterWrite=6h',
    'cache of robots.txt rules fetched successfully (Caffeine spec)',
  ),
  'robots.error.cache.spec': str(
    'maximumSize=10000,expireAfterWrite=1h',
    'cache of robots.txt outcomes after errors: 429, 5xx, network failures (Caffeine spec)',
  ),
  'http.filter.ipaddress.exclude': list(
    DEFAULT_IP_EXCLUDE,
    'addresses never connected to, checked after DNS: localhost, sitelocal, linklocal, anylocal, multicast, CIDRs or IPs; empty = allow all',
  ),
  'http.filter.ipaddress.allow': list(
    [],
    'addresses connected to even when http.filter.ipaddress.exclude refuses them: IPs, CIDRs or the same names',
  ),
} as const;
