import { describe, expect, it } from 'vitest';
import { distance, nearest } from '../../../src/config/nearest.js';

describe('nearest key', () => {
  it('counts edits', () => {
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('', 'abc')).toBe(3);
    expect(distance('same', 'same')).toBe(0);
  });

  it('suggests a close key and nothing for a far one', () => {
    const keys = ['fetcher.server.delay', 'fetcher.threads.number', 'http.agent.name'];
    expect(nearest('fetcher.server.dealy', keys)).toBe('fetcher.server.delay');
    expect(nearest('HTTP.Agent.Name', keys)).toBe('http.agent.name');
    expect(nearest('completely.unrelated', keys)).toBeUndefined();
  });
});
