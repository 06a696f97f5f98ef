import { describe, expect, it } from 'vitest';
import { isPlainText } from '../../../src/parse/mime.js';

describe('which media types are stored as text', () => {
  it.each(['text/plain', 'text/x-python', 'text/markdown', 'text/csv', 'text/css', 'text/xml'])(
    '%s is text',
    (t) => {
      expect(isPlainText(t)).toBe(true);
    },
  );

  it.each(['text/html', 'application/xhtml+xml', 'text/rtf', 'application/pdf', 'image/png', ''])(
    '%j is not (HTML, a document Tika reads, or binary)',
    (t) => {
      expect(isPlainText(t)).toBe(false);
    },
  );
});
