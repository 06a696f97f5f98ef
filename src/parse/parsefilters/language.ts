import { MD } from '../../model/keys.js';
import { Params } from './params.js';
import type { ParseFilterFactory } from './types.js';

/** The part of the `eld` detector we use. */
interface Detector {
  detect(text: string): { language: string; isReliable(): boolean };
}

const SIZES = ['extrasmall', 'small', 'medium', 'large'] as const;

async function loadDetector(size: (typeof SIZES)[number]): Promise<Detector> {
  // Loaded on demand: the n-gram tables take 0.3-1 s and 40-90 MB, paid only when configured.
  switch (size) {
    case 'extrasmall':
      return (await import('eld/extrasmall')).eld;
    case 'small':
      return (await import('eld/small')).eld;
    case 'medium':
      return (await import('eld/medium')).eld;
    case 'large':
      return (await import('eld/large')).eld;
  }
}

/**
 * LanguageID: the language of the text (ISO 639-1 code) into `key` (default "lang"), with the
 * `eld` detector (Efficient Language Detector, 60 languages, no dependencies). Params:
 * - `minLength` (default 50): shorter texts get no language, guesses on them are noise;
 * - `maxLength` (default 5000): only the first characters are read (cost grows with length);
 * - `reliableOnly` (default true): keep only results eld calls reliable;
 * - `size` (default "small"): eld's database, extrasmall | small | medium | large.
 * StormCrawler's langid module (Optimaize) writes the same key. The detector loads in the background
 * (`ready`); pages parsed before that get no language.
 */
export const languageIdFilter: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const key = p.string('key', MD.lang);
  const minLength = p.integer('minLength', 50, 0);
  const maxLength = p.integer('maxLength', 5000, 1);
  const reliableOnly = p.boolean('reliableOnly', true);
  let detector: Detector | undefined;
  const ready = loadDetector(p.oneOf('size', SIZES, 'small')).then((d) => {
    detector = d;
  });
  return {
    name: ctx.name,
    ready,
    filter(_url, _doc, parse) {
      if (!detector) return;
      const text = parse.text.length > maxLength ? parse.text.slice(0, maxLength) : parse.text;
      if (text.trim().length < minLength) return;
      const result = detector.detect(text);
      if (result.language === '' || (reliableOnly && !result.isReliable())) return;
      parse.metadata.setValue(key, result.language);
    },
  };
};
