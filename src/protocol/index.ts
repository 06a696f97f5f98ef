/**
 * The protocol layer: HTTP fetching (undici, address filter, limits, proxies) and robots.txt
 * (RFC 9309 rules, caches). The fetcher calls `HttpProtocol.fetch` and `RobotsService.rulesFor`.
 */
export { AddressFilter, NAMED_RANGES } from './http/address-filter.js';
export { ACCEPT_ENCODING, type BodyLimits, readBody } from './http/body.js';
export { HttpProtocol, type HttpProtocolDeps } from './http/client.js';
export {
  allowedAddress,
  allowedAddresses,
  type ResolvedAddress,
  type Resolver,
  systemResolver,
} from './http/connector.js';
export {
  classifyFetchError,
  FETCH_EXCEPTION,
  FetchException,
  type FetchExceptionKind,
  genericFetchException,
  UNREACHABLE_KINDS,
} from './http/errors.js';
export { httpDate, parseHeaderEntry } from './http/headers.js';
export { ProxyRotation, type ProxyRotationMode, proxyUrls } from './http/proxies.js';
export { AGENT_NAME, checkAgentName, userAgent } from './http/user-agent.js';
export {
  MAX_ROBOTS_REDIRECTS,
  type RobotsLookup,
  RobotsService,
  type RobotsSettings,
  type RobotsUnavailable,
  robotsCacheKey,
  rulesForStatus,
} from './robots/fetch-robots.js';
export { ROBOTS_PARSE_LIMIT, RobotRules, type RulesKind, robotsAgents } from './robots/rules.js';
export { type ProtocolSettings, protocolSettings } from './settings.js';
export {
  type MetadataView,
  metadataOf,
  type Protocol,
  type ProtocolResponse,
  type TrimReason,
} from './types.js';
