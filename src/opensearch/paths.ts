import { fileURLToPath } from 'node:url';

/**
 * The package root, found from this file's location so that it holds both when running the built
 * `dist/` and the TypeScript sources under `src/` (both sit two levels below the root).
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const MAPPINGS_DIR = fileURLToPath(new URL('../../mappings/', import.meta.url));

export const OPENSEARCH_SCRIPT = fileURLToPath(new URL('../../scripts/opensearch', import.meta.url));
