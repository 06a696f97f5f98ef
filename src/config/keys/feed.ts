import { bool, int } from '../define.js';

/** Keys of the feed stage (StormCrawler's FeedParserBolt, plus the length of feed.description). */
export const feedKeys = {
  'feed.sniffContent': bool(
    true,
    'documents not marked isFeed=true are feeds when their media type or root element says so; false = only isFeed=true',
  ),
  'feed.filter.hours.since.published': int(
    -1,
    'drop feed entries published more than this many hours ago; -1 = keep all',
    -1,
  ),
  'feed.description.maxlength': int(
    500,
    'characters of an entry description kept in feed.description (as text); 0 = none, at most 8000',
    0,
  ),
} as const;
