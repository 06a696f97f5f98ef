import { bool, str } from '../define.js';

/** Keys of URL filtering (src/urlfilters): the filter chain and the settings some filters read. */
export const filterKeys = {
  'urlfilters.config.file': str(
    'urlfilters.json',
    'URL filter chain (StormCrawler JSON format); a relative path is looked up in the current directory, then in the package conf/; "" = no filters',
  ),
  'fast.urlfilter.file': str(
    'fast.urlfilter.json',
    'rules of a FastURLFilter whose params name no "file"; looked up like the files of urlfilters.json',
  ),
  'sitemap.discovery': bool(
    false,
    'follow the sitemaps named in robots.txt; SitemapFilter then drops links from non-sitemap pages of sites that have sitemaps',
  ),
} as const;
