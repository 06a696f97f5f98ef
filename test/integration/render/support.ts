import { systemChromium } from '../../../src/render/settings.js';

/**
 * The rendering tests need the system's Chromium (Debian's "chromium", installed by .ci/run): they
 * fail, never skip, without it.
 */
export function requireChromium(): string {
  const found = systemChromium();
  if (!found)
    throw new Error(
      'Chromium is not installed (apt-get install chromium; .ci/run installs it): the rendering tests need it',
    );
  return found;
}
