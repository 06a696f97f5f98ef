#!/usr/bin/env node
// npm's `prepare` script: builds dist/ with tsc (tsconfig.build.json), unless dist/ was already built
// by this script from sources identical to the current ones.
//
// Why the check: `npx crawler` in a clone does not find a `crawler` in node_modules/.bin (npm never
// links a package's own bin there), so npm exec installs the project itself into its npx cache as a
// file: link, and that install runs `prepare` again. Without the check, the first `npx crawler`
// after `npm ci` rebuilt everything behind a silent spinner (20-50 s on a busy machine).
//
// `--force` (npm run build) rebuilds whatever the stamp says.
//
// Why the chmod: tsc writes dist/cli/main.js without the execute bit, and npm sets it only when it
// links the bin. An npx cache from an earlier clone at the same path keeps its link and never
// sets it again, so `npx crawler` in a fresh clone failed with "Permission denied" (exit 126).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, 'dist', '.build-stamp');

/** Every file whose content the build depends on, in a stable order. */
function inputs() {
  const files = ['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => join(root, f));
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(root, 'src'));
  return files.filter((f) => existsSync(f));
}

function stamp() {
  const hash = createHash('sha256');
  for (const f of inputs()) hash.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

const bin = join(root, 'dist', 'cli', 'main.js');
const wanted = stamp();
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
if (process.argv.includes('--force') || built !== wanted || !existsSync(bin)) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  writeFileSync(stampFile, `${wanted}\n`);
}
chmodSync(bin, 0o755);
