import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LineSink } from '../../../src/util/line-sink.js';

function file() {
  const path = join(mkdtempSync(join(tmpdir(), 'sink-')), 'log');
  return { path, fd: openSync(path, 'w') };
}

describe('LineSink', () => {
  it('writes every line, in order, without the caller waiting', async () => {
    const f = file();
    const sink = new LineSink({ fd: f.fd, maxBufferBytes: 1 << 20 });
    const lines = Array.from({ length: 2000 }, (_, i) => `{"n":${i}}\n`);
    for (const l of lines) sink.write(l);
    await vi.waitFor(() => expect(readFileSync(f.path, 'utf8')).toBe(lines.join('')), { timeout: 10_000 });
    closeSync(f.fd);
  });

  it('drops and counts droppable lines beyond its buffer, never the others', async () => {
    const f = file();
    const sink = new LineSink({ fd: f.fd, maxBufferBytes: 100 });
    // Written in one turn of the event loop: nothing is written out meanwhile, so the buffer fills.
    for (let i = 0; i < 50; i++) sink.writeDroppable(`transition ${i}\n`);
    sink.write('summary\n');
    const keptTransitions = 50 - sink.dropped;
    expect(sink.dropped).toBeGreaterThan(0);
    expect(keptTransitions).toBeGreaterThan(0);
    await vi.waitFor(() => expect(readFileSync(f.path, 'utf8')).toMatch(/summary\n$/), { timeout: 10_000 });
    expect(readFileSync(f.path, 'utf8').match(/transition/g)).toHaveLength(keptTransitions);
    closeSync(f.fd);
  });

  it('passes lines through its format', async () => {
    const f = file();
    const sink = new LineSink({ fd: f.fd, maxBufferBytes: 1000, format: (l) => l.toUpperCase() });
    sink.write('abc\n');
    await vi.waitFor(() => expect(readFileSync(f.path, 'utf8')).toBe('ABC\n'), { timeout: 10_000 });
    closeSync(f.fd);
  });
});
