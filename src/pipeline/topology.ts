/**
 * The pipeline as a diagram: `crawler topology` prints it and the README shows the same text (a
 * test keeps the two equal). Change it with the code it describes.
 */
export const TOPOLOGY = String.raw`             +---------------------- OpenSearch -----------------------+
             |  status index (routing = key = host)   content index    |
             +----^--------------------+-------------------------^------+
                  | bulk create/index  | due URLs (per shard)    | bulk index / delete
                  |                    v                         |
 seeds -> inject -+             Spout (buffer, in-flight set, purgatory until searchable)
                  |             + new URLs of its share once written, when their host has room
                  |                    |  url + metadata
                  |                    v
                  |             Fetcher: politeness queues by host/domain/IP,
                  |             robots.txt cache, undici, global concurrency
                  |             -> Render in Chromium: 200 HTML of hosts that need it (adaptive,
                  |                decisions in the hosts index; the page's requests via our client)
                  |             (warc.enabled: every answer -> WARC files first, server's bytes)
                  |        200 |                \ 304, 3xx, 4xx, 5xx, errors, robots, crawl delay
                  |            v                 \
                  |     Sitemap parser -> Feed parser
                  |            |   \ sitemaps, feeds: FETCHED, never indexed; their entries
                  |            |    \ DISCOVERED (feeds: feed.* metadata); broken: FETCH_ERROR, ERROR
                  |            v
                  |     shunt by media type --PDF, Office...--> Tika stage (tika.max.concurrent,
                  |            | HTML, text                     |  parser.tika.timeout; Tika server:
                  |            v                                |  embedded or tika.server.url)
                  |     HTML parser (outlinks, text, meta) <----+ Tika's XHTML, parse.* metadata
                  |            |                   \ outlinks (DISCOVERED), parse errors,
                  |            v                    \ Tika failures (tika.* causes)
                  |  judge (near-dups, soft 404s) -> Indexer ---> content index
                  |            | FETCHED after the content and outlink writes are acknowledged
                  |            v
                  +------ Status updater (rules: counting, scheduling, persist filter)
                               | ERROR (and REDIRECTION) -> Deleter -> content index
                               +-> transition log (pino)`;
