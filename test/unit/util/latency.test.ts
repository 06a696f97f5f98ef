import { describe, expect, it } from 'vitest';
import { LatencyWindow } from '../../../src/util/latency.js';

describe('LatencyWindow', () => {
  it('reports nearest-rank percentiles of the recorded values', () => {
    const w = new LatencyWindow(100);
    for (let ms = 100; ms >= 1; ms--) w.record(ms);
    expect(w.percentile(50)).toBe(50);
    expect(w.percentile(95)).toBe(95);
    expect(w.percentile(100)).toBe(100);
  });

  it('keeps only the last capacity values, so old slow queries stop counting', () => {
    const w = new LatencyWindow(4);
    for (const ms of [900, 900, 900, 900, 1, 2, 3, 4]) w.record(ms);
    expect(w.size).toBe(4);
    expect(w.percentile(100)).toBe(4);
  });

  it('is NaN before anything was recorded', () => {
    expect(new LatencyWindow().percentile(95)).toBeNaN();
  });
});
