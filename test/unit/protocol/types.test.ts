import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Config } from '../../../src/config/schema.js';
import type { ResponseView } from '../../../src/fetch/outcomes.js';
import type { Metadata } from '../../../src/model/metadata.js';
import type { ProtocolSettings } from '../../../src/protocol/settings.js';
import { type MetadataView, metadataOf, type ProtocolResponse } from '../../../src/protocol/types.js';

describe('protocol types', () => {
  it('accept the model Metadata as a MetadataView', () => {
    expectTypeOf<Metadata>().toExtend<MetadataView>();
  });

  it('take a loaded Config as ProtocolSettings once protocolKeys are in KEYS', () => {
    expectTypeOf<Config>().toExtend<ProtocolSettings>();
  });

  it('give the fetcher every field of its ResponseView', () => {
    expectTypeOf<ProtocolResponse>().toExtend<ResponseView>();
  });

  it('read plain records as metadata, single strings as one value, empty lists as missing', () => {
    const md = metadataOf({ a: 'x', b: ['y', 'z'], c: [] });
    expect(md.getFirstValue('a')).toBe('x');
    expect(md.getValues('b')).toEqual(['y', 'z']);
    expect(md.getValues('c')).toBeUndefined();
    expect(md.getFirstValue('toString')).toBeUndefined();
  });
});
