import { describe, expect, it } from 'vitest';
import { queueKey } from '../../../src/fetch/queue-key.js';

describe('queue keys', () => {
  it('byHost is the lowercased host', async () => {
    expect(await queueKey(new URL('http://WWW.Example.COM:8080/a'), 'byHost')).toBe('www.example.com');
  });

  it('byDomain is the registrable domain, public-suffix aware', async () => {
    expect(await queueKey(new URL('http://a.b.example.co.uk/'), 'byDomain')).toBe('example.co.uk');
    expect(await queueKey(new URL('http://news.bbc.com/'), 'byDomain')).toBe('bbc.com');
    expect(await queueKey(new URL('http://127.0.0.5:81/'), 'byDomain')).toBe('127.0.0.5');
  });

  it('byIP is the resolved address, falling back to the host', async () => {
    expect(await queueKey(new URL('http://a.test/'), 'byIP', async () => '10.1.2.3')).toBe('10.1.2.3');
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await queueKey(new URL('http://a.test/'), 'byIP', failing)).toBe('a.test');
  });
});
