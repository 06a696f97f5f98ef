import { describe, expect, it } from 'vitest';
import { type DecisionStore, type HostRenderRecord, RenderAdvisor } from '../../../src/render/advisor.js';
import type { Comparison } from '../../../src/render/compare.js';
import { ManualClock } from '../../../src/util/clock.js';

const APP = Buffer.from('<html><body><div id="root"></div><script src="/app.js"></script></body></html>');
const PLAIN = Buffer.from(
  `<html><body><p>${'plain words '.repeat(40)}</p><a href="/a">a</a><a href="/b">b</a></body></html>`,
);
const gain: Comparison = { textPlain: 0, textRendered: 900, newLinks: 4, gain: true };
const none: Comparison = { textPlain: 900, textRendered: 910, newLinks: 0, gain: false };
const DAY = 86_400_000;

/** A store in memory that records what was asked, as OpenSearch would hold it. */
class MemoryStore implements DecisionStore {
  readonly docs = new Map<string, HostRenderRecord>();
  loads = 0;
  async load(host: string) {
    this.loads++;
    const r = this.docs.get(host);
    return r ? structuredClone(r) : undefined;
  }
  save(host: string, r: HostRenderRecord) {
    this.docs.set(host, structuredClone(r));
  }
}

function advisor(store = new MemoryStore(), clock = new ManualClock(1_000_000)) {
  const a = new RenderAdvisor({ samples: 3, scanPages: 5, recheckMs: 7 * DAY }, store, clock);
  return { a, store, clock };
}

describe('the adaptive choice per host', () => {
  it('leaves a host without signs plain, synchronously, and never asks the store about it', () => {
    const { a, store } = advisor();
    for (let i = 0; i < 50; i++) expect(a.verdict('plain.example', PLAIN)).toBe('plain');
    expect(store.loads).toBe(0);
    expect(store.docs.size).toBe(0);
  });

  it('samples a candidate host, decides "render" once a majority gained, and renders its pages from then on', async () => {
    const { a, store } = advisor();
    expect(await a.verdict('app.example', APP)).toBe('sample');
    expect(store.docs.get('app.example')).toMatchObject({ decision: 'candidate', signal: 'empty-root:root' });
    a.sampled('app.example', gain);
    expect(await a.verdict('app.example', APP)).toBe('sample');
    a.sampled('app.example', gain);
    expect(store.docs.get('app.example')).toMatchObject({ decision: 'render', samples: 2, gains: 2 });
    // A page of the host without any sign is rendered too: the host decides.
    expect(a.verdict('app.example', PLAIN)).toBe('render');
  });

  it('decides "static" when the samples gained nothing', async () => {
    const { a, store } = advisor();
    for (let i = 0; i < 2; i++) {
      expect(await a.verdict('ssr.example', APP)).toBe('sample');
      a.sampled('ssr.example', none);
    }
    expect(store.docs.get('ssr.example')).toMatchObject({ decision: 'static', samples: 2, gains: 0 });
    expect(await a.verdict('ssr.example', APP)).toBe('plain');
  });

  it('takes no more samples at once than it needs', async () => {
    const { a } = advisor();
    const verdicts = await Promise.all([1, 2, 3, 4, 5].map(() => a.verdict('app.example', APP)));
    expect(verdicts.filter((v) => v === 'sample')).toHaveLength(3);
    expect(verdicts.filter((v) => v === 'plain')).toHaveLength(2);
  });

  it('counts a failed or timed-out render as no evidence, and gives up after many', async () => {
    const { a, store } = advisor();
    for (let i = 0; i < 8; i++) {
      expect(await a.verdict('flaky.example', APP)).toBe('sample');
      a.sampled('flaky.example', undefined);
    }
    expect(store.docs.get('flaky.example')).toMatchObject({ decision: 'candidate', samples: 0, failures: 8 });
    expect(await a.verdict('flaky.example', APP)).toBe('sample');
    a.sampled('flaky.example', undefined);
    expect(store.docs.get('flaky.example')).toMatchObject({ decision: 'static', reason: '9 renders failed' });
  });

  it('shares the decision through the store: another worker or a restart reads it instead of sampling', async () => {
    const first = advisor();
    await first.a.verdict('app.example', APP);
    first.a.sampled('app.example', gain);
    await first.a.verdict('app.example', APP);
    first.a.sampled('app.example', gain);
    const second = advisor(first.store);
    expect(await second.a.verdict('app.example', APP)).toBe('render');
  });

  it('checks a decision again after render.adaptive.recheck, rendering meanwhile', async () => {
    const { a, store, clock } = advisor();
    for (let i = 0; i < 2; i++) {
      await a.verdict('app.example', APP);
      a.sampled('app.example', gain);
    }
    clock.advance(8 * DAY);
    expect(await a.verdict('app.example', APP)).toBe('sample');
    expect(store.docs.get('app.example')).toMatchObject({ decision: 'render', samples: 0 });
    expect(store.docs.get('app.example')!.recheckAt).toBeUndefined();
    // Pages beyond the samples in flight are still rendered.
    expect(await a.verdict('app.example', APP)).toBe('sample');
    expect(await a.verdict('app.example', APP)).toBe('sample');
    expect(await a.verdict('app.example', APP)).toBe('render');
    for (let i = 0; i < 3; i++) a.sampled('app.example', none);
    expect(store.docs.get('app.example')).toMatchObject({ decision: 'static', gains: 0 });
    expect(store.docs.get('app.example')!.recheckAt).toBe(clock.now() + 7 * DAY);
  });

  it('scans a host again for signs after the recheck time', () => {
    const { a, clock } = advisor();
    for (let i = 0; i < 5; i++) a.verdict('late.example', PLAIN);
    expect(a.verdict('late.example', APP)).toBe('plain');
    clock.advance(8 * DAY);
    expect(a.verdict('late.example', APP)).toBeInstanceOf(Promise);
  });
});
