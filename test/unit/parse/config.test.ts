import { describe, expect, it } from 'vitest';
import { parseKeys } from '../../../src/config/keys/parse.js';
import { KEYS } from '../../../src/config/schema.js';
import { defaultParseConfig, parseSettings } from '../../../src/parse/settings.js';
import { ConfigError } from '../../../src/util/errors.js';

describe('parse settings at start-up', () => {
  it('the parse keys are part of the schema (conf/crawler-default.yaml is checked against it)', () => {
    for (const k of Object.keys(parseKeys)) expect(k in KEYS, k).toBe(true);
  });

  it('the defaults are valid', () => {
    const s = parseSettings(defaultParseConfig());
    expect(s.sitemap).toMatchObject({ maxUrls: 50000, sniffLength: 1024, extensions: [] });
    expect(s.protocolPrefix).toBe('protocol.');
  });

  it('extension names are case-insensitive; an unknown one is a ConfigError, reported with the others', () => {
    expect(
      parseSettings(defaultParseConfig({ 'sitemap.extensions': ['image', 'Video'] })).sitemap.extensions,
    ).toEqual(['IMAGE', 'VIDEO']);
    const bad = () =>
      parseSettings(
        defaultParseConfig({ 'sitemap.extensions': ['PAGEMAPS'], 'textextractor.include.pattern': ['a b'] }),
      );
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (e) {
      expect((e as ConfigError).problems).toHaveLength(2);
      expect((e as ConfigError).problems[1]).toMatch(
        /sitemap.extensions: unknown extension "PAGEMAPS"; expected some of IMAGE, LINKS, MOBILE, NEWS, VIDEO/,
      );
    }
  });
});
