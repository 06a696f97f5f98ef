import { bool, duration, int, list, oneOf, str } from '../define.js';

/**
 * WARC output (src/warc). StormCrawler configures its WARC bolt in code (file name format, rotation
 * policy, warcinfo fields), not with keys; these names follow its terms where it has them.
 */
export const warcKeys = {
  'warc.enabled': bool(false, 'write every archived HTTP answer to WARC files in warc.dir'),
  'warc.dir': str('warc', 'folder of the WARC files, relative to the working directory unless absolute'),
  'warc.prefix': str('crawl', 'first part of every WARC file name: PREFIX-TIMESTAMP-SERIAL-HOST-PID.warc.gz'),
  'warc.rotation.size': int(
    1_073_741_824,
    'bytes (compressed) after which a WARC file is closed and the next one begun',
    1,
  ),
  'warc.rotation.interval': duration(
    3_600_000,
    'a WARC file is closed this long after it was begun, even if small; 0 = by size only',
  ),
  'warc.request.records': bool(
    true,
    'write a request record before each response (WARC-Concurrent-To links them)',
  ),
  'warc.status.codes': list(
    ['2xx', '3xx', '4xx', '5xx'],
    'HTTP status codes archived: codes such as 404 or classes such as 4xx',
  ),
  'warc.version': oneOf(['1.0', '1.1'], '1.0', 'WARC format version written (1.1 dates have milliseconds)'),
  'warc.write.attempts': int(
    3,
    'tries of a WARC write before the crawl stops; failed tries are undone and retried',
    1,
  ),
} as const;
