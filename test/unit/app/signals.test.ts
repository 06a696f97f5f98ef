import { describe, expect, it } from 'vitest';
import { StopSignals } from '../../../src/app/signals.js';

describe('stop signals', () => {
  it('a signal within a second of the first is the same request (a process group plus npx); later, a second', () => {
    let now = 1000;
    const signals = new StopSignals(() => now);
    expect(signals.take()).toBe('first');
    now += 5;
    expect(signals.take()).toBe('repeat');
    now += 990;
    expect(signals.take()).toBe('repeat');
    now += 5;
    expect(signals.take()).toBe('again');
  });
});
