import { describe, expect, it } from 'vitest';
import { memberName } from '../../../src/app/member.js';
import { type GenerationCrawl, GenerationTally } from '../../../src/app/workers/generations.js';
import type { CrawlSnapshot, CrawlSummary } from '../../../src/pipeline/crawler.js';
import { snapshot, summary } from '../../support/snapshot.js';

// `crawler run --join --workers N`: each worker is a member; its name tells the machine and the
// worker apart, and its generations (one crawl loop per change of its shards) add up to one crawl's
// figures, for its supervisor's progress line and summary.

/** A generation's crawl loop whose figures the test sets. */
class FakeGeneration implements GenerationCrawl {
  constructor(
    public snap: CrawlSnapshot,
    public sum: CrawlSummary,
  ) {}
  snapshot(): CrawlSnapshot {
    return this.snap;
  }
  summary(): CrawlSummary {
    return this.sum;
  }
}

describe("a member's name", () => {
  it('names the machine, the worker (when one of --workers N), the process and a random tail', () => {
    expect(memberName('h45m1', 903, 1, '5ac0de')).toBe('h45m1-w1-903-5ac0de');
    expect(memberName('h45m1', 812, undefined, '3fa2c1')).toBe('h45m1-812-3fa2c1');
    // Worker 0 is a worker too: its name says so.
    expect(memberName('h45m1', 904, 0, 'aaaaaa')).toBe('h45m1-w0-904-aaaaaa');
    // What the tests and `crawler stats` readers match a member by: "-<pid>-<hex>" at the end.
    expect(memberName('h', 77, 3, 'beef01')).toMatch(/-77-[0-9a-f]+$/);
  });
});

describe("a member's generations as one crawl", () => {
  it('counts the work of every generation, what is in hand of the running one only', () => {
    const t = new GenerationTally();
    expect(t.snapshot().fetched).toBe(0);
    const g1 = new FakeGeneration(
      snapshot({ fetched: 5, queued: 3, inFlight: 2, byStatus: { FETCHED: 5 } }),
      summary({ fetched: 5 }),
    );
    t.add(g1);
    expect(t.snapshot()).toMatchObject({ fetched: 5, queued: 3, inFlight: 2 });
    // The handover: g1 stopped (its figures final), g2 starts from zero counters.
    g1.snap = snapshot({ fetched: 7, byStatus: { FETCHED: 6, ERROR: 1 } });
    const g2 = new FakeGeneration(
      snapshot({ fetched: 2, queued: 4, byStatus: { FETCHED: 2 } }),
      summary({ fetched: 2 }),
    );
    t.add(g2);
    const s = t.snapshot();
    expect(s).toMatchObject({ fetched: 9, queued: 4, inFlight: 0, byStatus: { FETCHED: 8, ERROR: 1 } });
    expect(s).not.toHaveProperty('running');
  });

  it("sums the generations' summaries, and takes the process figures (CPU, memory) from the last", () => {
    const t = new GenerationTally();
    t.add(
      new FakeGeneration(
        snapshot({ fetched: 4, byStatus: { FETCHED: 4 } }),
        summary({
          fetched: 4,
          statusWrites: { written: 6, existing: 0, skippedCached: 1, failed: 0 },
          spout: { queries: 3, queryMsP50: 5, queryMsP95: 30 },
          cpuUserMs: 100,
          maxRssMb: 90,
        }),
      ),
    );
    t.add(
      new FakeGeneration(
        snapshot({ fetched: 3, byStatus: { FETCHED: 3 } }),
        summary({
          fetched: 3,
          statusWrites: { written: 4, existing: 1, skippedCached: 0, failed: 0 },
          spout: { queries: 2, queryMsP50: 8, queryMsP95: 12 },
          cpuUserMs: 180,
          maxRssMb: 95,
          notWritten: 1,
        }),
      ),
    );
    const s = t.summary();
    expect(s).toMatchObject({
      fetched: 7,
      byStatus: { FETCHED: 7 },
      statusWrites: { written: 10, existing: 1, skippedCached: 1, failed: 0 },
      spout: { queries: 5, queryMsP50: 8, queryMsP95: 30 },
      cpuUserMs: 180,
      maxRssMb: 95,
      notWritten: 1,
    });
    expect(s).not.toHaveProperty('workers');
  });

  it('a member that never crawled (no shards) sums to nothing', () => {
    const s = new GenerationTally().summary();
    expect(s).toMatchObject({ fetched: 0, byStatus: {}, statusWrites: { written: 0 } });
    expect(s.cpuUserMs).toBeGreaterThanOrEqual(0);
  });
});
