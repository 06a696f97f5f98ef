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

  it('keeps a live status line below the other lines, hides what it stands for, cuts no line', async () => {
    const f = file();
    const widths: (number | undefined)[] = [];
    const sink = new LineSink({
      fd: f.fd,
      maxBufferBytes: 1000,
      format: (l, width) => {
        widths.push(width);
        return l;
      },
    });
    const warnings: string[] = [];
    sink.tap = (l) => warnings.push(l);
    sink.hide = (l) => l.includes('progress');
    sink.width = 20;
    sink.setStatus('3 pages/s');
    sink.write('{"level":30,"msg":"progress"}\n');
    sink.write('{"level":30,"msg":"a long line that does not fit"}\n');
    sink.write('{"level":40,"msg":"a warning is kept whole"}\n');
    await sink.idle();
    const long = '{"level":30,"msg":"a long line that does not fit"}';
    const warning = '{"level":40,"msg":"a warning is kept whole"}';
    expect(screen(readFileSync(f.path, 'utf8'))).toEqual([long, warning, '3 pages/s']);
    // The format lays lines out for the terminal's width.
    expect(widths).toEqual([20, 20]);
    sink.setStatus(undefined);
    await sink.idle();
    expect(screen(readFileSync(f.path, 'utf8'))).toEqual([long, warning, '']);
    expect(warnings).toEqual([`${warning}\n`]);
    closeSync(f.fd);
  });
});

/** What a terminal shows after `out`: carriage returns, erase-to-end-of-line and newlines applied. */
function screen(out: string): string[] {
  const rows = [''];
  let col = 0;
  for (let i = 0; i < out.length; i++) {
    const row = rows.length - 1;
    if (out.startsWith('\x1b[K', i)) {
      rows[row] = rows[row]!.slice(0, col);
      i += 2;
    } else if (out[i] === '\r') col = 0;
    else if (out[i] === '\n') {
      rows.push('');
      col = 0;
    } else {
      const r = rows[row]!;
      rows[row] = r.slice(0, col) + out[i] + r.slice(col + 1);
      col++;
    }
  }
  return rows;
}
