import { describe, expect, it } from 'vitest';
import { userAgent } from '../../../src/protocol/http/user-agent.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { ConfigError } from '../../../src/util/errors.js';

const ua = (entries: Record<string, string>) => userAgent(protocolSettings(entries));

describe('user agent', () => {
  it('is name/version (description; url; email) when all are set', () => {
    expect(
      ua({
        'http.agent.name': 'mybot',
        'http.agent.version': '1.2',
        'http.agent.description': 'research crawler',
        'http.agent.url': 'https://example.org/bot',
        'http.agent.email': 'bot@example.org',
      }),
    ).toBe('mybot/1.2 (research crawler; https://example.org/bot; bot@example.org)');
  });

  it('leaves out what is empty', () => {
    expect(ua({ 'http.agent.name': 'mybot' })).toBe('mybot');
    expect(ua({ 'http.agent.name': 'mybot', 'http.agent.url': 'https://example.org' })).toBe(
      'mybot (https://example.org)',
    );
    expect(ua({ 'http.agent.name': 'mybot', 'http.agent.version': '2', 'http.agent.email': 'a@b.c' })).toBe(
      'mybot/2 (a@b.c)',
    );
  });

  it('is http.agent verbatim when set', () => {
    expect(ua({ 'http.agent.name': 'mybot', 'http.agent': 'Mozilla/5.0 (compatible; mybot/1.0)' })).toBe(
      'Mozilla/5.0 (compatible; mybot/1.0)',
    );
  });

  it('requires http.agent.name, even with http.agent set', () => {
    expect(() => ua({})).toThrow(ConfigError);
    expect(() => ua({})).toThrow(/"http\.agent\.name" is required/);
    expect(() => ua({ 'http.agent': 'Mozilla/5.0' })).toThrow(/http\.agent\.name/);
  });

  it('refuses a name that is not letters, "_" and "-", naming the key and the value', () => {
    expect(() => ua({ 'http.agent.name': 'my bot' })).toThrow(/key "http\.agent\.name" has value "my bot"/);
    expect(() => ua({ 'http.agent.name': 'bot2' })).toThrow(/"bot2"/);
    expect(ua({ 'http.agent.name': 'My_Bot-X' })).toBe('My_Bot-X');
  });
});
