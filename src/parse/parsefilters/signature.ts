import { hash } from 'node:crypto';
import { MD } from '../../model/keys.js';
import { Params } from './params.js';
import type { ParseFilterFactory } from './types.js';

/**
 * MD5SignatureParseFilter: a digest of the page into `keyName` (default "signature"), for the
 * AdaptiveScheduler and for spotting duplicates. Params as StormCrawler's:
 * - `useText` (default false): digest the extracted text instead of the raw content; with no text,
 *   or no content, the URL is digested;
 * - `keyNameCopy` (default none): copy the previous signature there first; the AdaptiveScheduler
 *   compares `signature` with `signatureOld`, so set it to "signatureOld" when using it.
 * Ours: `algorithm` "md5" (default) or "sha1". The digest is lowercase hex.
 */
export const signatureParseFilter: ParseFilterFactory = (raw, ctx) => {
  const p = new Params(ctx.name, raw);
  const keyName = p.string('keyName', MD.signature);
  const copyKey = p.string('keyNameCopy', '').trim();
  const useText = p.boolean('useText', false);
  const algorithm = p.oneOf('algorithm', ['md5', 'sha1'], 'md5');
  return {
    name: ctx.name,
    filter(url, _doc, parse) {
      const md = parse.metadata;
      if (copyKey !== '') {
        const previous = md.getFirstValue(keyName);
        if (previous !== undefined) md.setValue(copyKey, previous);
      }
      // One-shot hashing: no Hash object per page.
      const input =
        useText && parse.text.trim() !== ''
          ? parse.text
          : !useText && parse.content.length > 0
            ? parse.content
            : url;
      md.setValue(keyName, hash(algorithm, input, 'hex'));
    },
  };
};
