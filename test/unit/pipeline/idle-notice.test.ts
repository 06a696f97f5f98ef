import { describe, expect, it } from 'vitest';
import { IdleNotice, nothingDueLine, WORK_AGAIN_LINE } from '../../../src/pipeline/idle-notice.js';
import { ManualClock } from '../../../src/util/clock.js';

describe('the nothing-due notice', () => {
  it('names the next due date and the URLs scheduled, or says nothing is scheduled', () => {
    expect(nothingDueLine({ nextDueAt: '2026-12-06T10:00:00.000Z', scheduled: 1 })).toBe(
      'nothing due; next URL due at 2026-12-06T10:00:00.000Z (1 URL scheduled)',
    );
    expect(nothingDueLine({ nextDueAt: undefined, scheduled: 0 })).toMatch(
      /^nothing due and nothing scheduled: /,
    );
  });

  it('is said once per idle stretch, and work appearing is said once', async () => {
    const lines: { obj: object; msg: string }[] = [];
    let asked = 0;
    const notice = new IdleNotice(
      {
        nextDue: async () => {
          asked++;
          return { at: Date.parse('2026-12-06T10:00:00Z'), scheduled: 3 };
        },
      },
      { info: (obj: object, msg?: string) => void lines.push({ obj, msg: msg ?? '' }) } as never,
      new ManualClock(Date.parse('2026-12-05T10:00:00Z')),
    );
    notice.nothingDue();
    notice.nothingDue();
    await new Promise((r) => setImmediate(r));
    notice.nothingDue();
    expect(asked).toBe(1);
    expect(lines.map((l) => l.msg)).toEqual([
      'nothing due; next URL due at 2026-12-06T10:00:00.000Z (3 URLs scheduled)',
    ]);
    expect(lines[0]!.obj).toMatchObject({ notice: true, scheduled: 3 });
    notice.working();
    notice.working();
    expect(lines.map((l) => l.msg).slice(1)).toEqual([WORK_AGAIN_LINE]);
  });

  it('says nothing while a URL is due now that the query did not see yet (a seed being written)', async () => {
    const lines: string[] = [];
    const clock = new ManualClock(Date.parse('2026-12-05T10:00:00Z'));
    let at = clock.now() + 100;
    const notice = new IdleNotice(
      { nextDue: async () => ({ at, scheduled: 1 }) },
      { info: (_obj: object, msg?: string) => void lines.push(msg ?? '') } as never,
      clock,
    );
    notice.nothingDue();
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([]);
    // Asked again at the next empty query, and said once the next URL is truly later.
    at = clock.now() + 86_400_000;
    notice.nothingDue();
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
  });
});
