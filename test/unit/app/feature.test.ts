import { describe, expect, it } from 'vitest';
import {
  buildFeatures,
  Closers,
  type CrawlBase,
  checkFeatures,
  type Feature,
} from '../../../src/app/feature.js';
import type { Config } from '../../../src/config/schema.js';

// The machinery of the composition root's list of features, on features of its own.
const config = {} as Config;
const base = {} as CrawlBase;

describe('Closers', () => {
  it('closes in reverse order of adding, every one even when one throws, then throws the first error', async () => {
    const closed: string[] = [];
    const closers = new Closers();
    closers.add(() => closed.push('client'));
    closers.add(() => {
      closed.push('warc');
      throw new Error('disk full');
    });
    closers.add(async () => {
      closed.push('browser');
      throw new Error('second');
    });
    await expect(closers.closeAll()).rejects.toThrow('second');
    expect(closed).toEqual(['browser', 'warc', 'client']);
    // Once: a second call has nothing left to close.
    await closers.closeAll();
    expect(closed).toHaveLength(3);
  });
});

describe('the list of features', () => {
  it('checks every feature in order', async () => {
    const seen: string[] = [];
    const feature = (name: string): Feature => ({ check: () => seen.push(name), build: () => undefined });
    await checkFeatures({ a: feature('a'), b: feature('b') }, config);
    expect(seen).toEqual(['a', 'b']);
  });

  it('a failing check stops the list with its error', async () => {
    const bad: Feature = {
      check: () => {
        throw new Error('render.timeout: must be more than 0');
      },
      build: () => undefined,
    };
    await expect(checkFeatures({ bad }, config)).rejects.toThrow('render.timeout');
  });

  it('merges what the built features hand the loop, skips those off, and wires their hooks', async () => {
    const events: string[] = [];
    const archive = {} as never;
    const features = {
      off: { check: () => undefined, build: () => undefined },
      warc: {
        check: () => undefined,
        build: async () => ({
          hand: { archive },
          started: () => events.push('warc started'),
          close: () => events.push('warc closed'),
          throwIfFailed: () => {
            throw new Error('WARC_WRITE_FAILED');
          },
        }),
      },
      render: {
        check: () => undefined,
        build: () => ({
          hand: { protocol: {} as never },
          parts: 'the rendering',
          close: () => events.push('render closed'),
        }),
      },
    } satisfies Record<string, Feature>;
    const closers = new Closers();
    const built = await buildFeatures(features, config, base, closers);
    expect(Object.keys(built.hand).sort()).toEqual(['archive', 'protocol']);
    expect(built.hand.archive).toBe(archive);
    expect(built.built.off).toBeUndefined();
    expect(built.built.render.parts).toBe('the rendering');
    built.started({ requestStop: () => undefined });
    await closers.closeAll();
    expect(events).toEqual(['warc started', 'render closed', 'warc closed']);
    expect(() => built.throwIfFailed()).toThrow('WARC_WRITE_FAILED');
  });
});
