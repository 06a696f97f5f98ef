import { describe, expect, it } from 'vitest';
import { IdleNotice, nothingDueLine, WORK_AGAIN_LINE } from '../../../src/pipeline/idle-notice.js';

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
});
