import { describe, expect, it } from 'vitest';
import { type LeaseReading, type StatusWrite, writesUnderAnotherLease } from '../../support/os-proxy.js';

// The elastic test's fence check (test/elastic): a write counts against the fence only when the
// readings on both sides of it name the same other member as its shard's holder.

const reading = (sentAt: number, holders: (string | undefined)[]): LeaseReading => ({
  sentAt,
  answeredAt: sentAt + 5,
  holders,
});
const READINGS = [
  reading(0, ['m-1-a', 'm-2-b']),
  reading(200, ['m-1-a', 'm-2-b']),
  reading(400, ['m-2-b', 'm-2-b']),
  reading(600, ['m-2-b', 'm-2-b']),
];
const shardOf = new Map([
  ['host0', 0],
  ['host1', 1],
]);
const pidOf = new Map([
  ['10.0.0.1', 1],
  ['10.0.0.2', 2],
]);
const isMember = (address: string, member: string) => member.includes(`-${pidOf.get(address)}-`);
const write = (at: number, from: string, routing: string): StatusWrite => ({
  at,
  from,
  op: 'index',
  routing,
});

describe('the fence check of the elastic test', () => {
  it('finds a write of a machine to a shard another member held before and after it', () => {
    const late = write(500, '10.0.0.1', 'host0');
    expect(writesUnderAnotherLease([late], READINGS, shardOf, isMember)).toEqual([late]);
  });

  it('lets through writes of the holder, and writes during a handover no reading brackets', () => {
    const own = [
      write(100, '10.0.0.1', 'host0'),
      write(500, '10.0.0.2', 'host0'),
      write(100, '10.0.0.2', 'host1'),
    ];
    // Between the readings at 200 (holder machine 1) and 400 (machine 2): not proven either way.
    const handover = write(300, '10.0.0.1', 'host0');
    expect(writesUnderAnotherLease([...own, handover], READINGS, shardOf, isMember)).toEqual([]);
  });

  it('leaves out writes after the last reading and keys of no known shard', () => {
    expect(
      writesUnderAnotherLease(
        [write(700, '10.0.0.1', 'host0'), write(500, '10.0.0.1', 'elsewhere')],
        READINGS,
        shardOf,
        isMember,
      ),
    ).toEqual([]);
  });
});
