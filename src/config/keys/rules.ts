import { bool, int, list, num, oneOf, str } from '../define.js';

/** Keys of the crawl rules: scheduling, status updates and metadata transfer. */
export const rulesKeys = {
  'scheduler.class': oneOf(
    ['DefaultScheduler', 'AdaptiveScheduler'],
    'DefaultScheduler',
    'DefaultScheduler or AdaptiveScheduler (StormCrawler class names are accepted too); AdaptiveScheduler persists its own keys',
  ),
  'fetchInterval.default': num(1440, 'minutes until a FETCHED or REDIRECTION URL is due again; -1 = never'),
  'fetchInterval.fetch.error': num(120, 'minutes until a FETCH_ERROR URL is retried; -1 = never'),
  'fetchInterval.error': num(-1, 'minutes until an ERROR URL is retried; -1 = never (no nextFetchDate)'),
  'max.fetch.errors': int(
    3,
    'consecutive FETCH_ERRORs that turn a URL to ERROR with error.cause maxFetchErrors',
    1,
  ),
  'status.updater.use.cache': bool(true, 'skip DISCOVERED updates for URLs stored recently by this process'),
  'status.updater.cache.spec': str(
    'maximumSize=100000,expireAfterAccess=1h',
    'size and expiry of that cache (Caffeine spec: maximumSize, expireAfterAccess, expireAfterWrite; at most 10000 entries when maximumSize is absent)',
  ),
  'status.updater.unit.round.date': oneOf(
    ['SECOND', 'MINUTE', 'HOUR'],
    'SECOND',
    'nextFetchDate is rounded half-up to this unit',
    true,
  ),
  'metadata.transfer': list([], 'metadata keys copied to outlinks and persisted; "prefix*" wildcards'),
  'metadata.persist': list(
    ['_redirTo', 'error.cause', 'error.source', 'isSitemap', 'isFeed', 'feed.*'],
    'metadata keys persisted but not copied to outlinks; "prefix*" wildcards',
  ),
  'metadata.track.path': bool(true, 'keep url.path, the chain of pages that led to a URL'),
  'metadata.track.depth': bool(true, 'keep depth (hops from the seed) and max.depth'),
  'scheduler.adaptive.setLastModified': bool(
    false,
    'AdaptiveScheduler: set last-modified when the signature changes',
  ),
  'scheduler.adaptive.fetchInterval.min': num(60, 'AdaptiveScheduler: shortest interval, minutes'),
  'scheduler.adaptive.fetchInterval.max': num(20160, 'AdaptiveScheduler: longest interval, minutes'),
  'scheduler.adaptive.fetchInterval.rate.incr': num(
    0.5,
    'AdaptiveScheduler: growth factor when a page is unchanged',
    0,
  ),
  'scheduler.adaptive.fetchInterval.rate.decr': num(
    0.5,
    'AdaptiveScheduler: shrink factor when a page changed',
    0,
  ),
  'status.transitions.log': bool(true, 'log one structured line per status update (the transition log)'),
  'status.transitions.warn.dropped': list(
    [],
    'keys whose loss to the persist filter is warned about once each (none by default)',
  ),
  'status.updater.delete.redirections': bool(
    true,
    'also remove the content of URLs that turn REDIRECTION (as newer StormCrawler does)',
  ),
  'status.transitions.index.name': str('', 'write transition records to this index too; empty = log only'),
  'redirections.allowed': bool(true, 'emit the target of a redirect as a DISCOVERED URL'),
} as const;
