import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// A project of one source file around a copy of the build script, so the real dist/ (which other
// files' child processes are running) is never touched.
const dir = mkdtempSync(join(tmpdir(), 'build-dist-'));
mkdirSync(join(dir, 'scripts'));
mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
cpSync(join(ROOT, 'scripts', 'build-dist.mjs'), join(dir, 'scripts', 'build-dist.mjs'));
symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
writeFileSync(
  join(dir, 'tsconfig.build.json'),
  JSON.stringify({
    compilerOptions: { rootDir: 'src', outDir: 'dist', module: 'nodenext', target: 'es2022' },
  }),
);
writeFileSync(join(dir, 'src', 'cli', 'main.ts'), "#!/usr/bin/env node\nconsole.log('hi');\n");
const bin = join(dir, 'dist', 'cli', 'main.js');
const build = (...args: string[]) =>
  execFileSync(process.execPath, [join(dir, 'scripts', 'build-dist.mjs'), ...args], {
    cwd: dir,
    stdio: 'pipe',
  });
const executable = () => (statSync(bin).mode & 0o111) === 0o111;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the build (npm prepare, npm run build)', () => {
  it('leaves the bin executable, also when dist/ is up to date but lost the bit (an npx cache from an earlier clone never sets it again)', () => {
    build();
    expect(executable()).toBe(true);
    expect(execFileSync(bin, { encoding: 'utf8' })).toBe('hi\n');

    chmodSync(bin, 0o644);
    const before = statSync(bin).mtimeMs;
    build();
    expect(statSync(bin).mtimeMs).toBe(before); // the stamp matched: not rebuilt
    expect(executable()).toBe(true);

    chmodSync(bin, 0o644);
    build('--force');
    expect(executable()).toBe(true);
  }, 120_000);
});
