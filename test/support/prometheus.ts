import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Scrape {
  /** Sample value by `name{labels}` as written (labels in the order given). */
  readonly samples: Map<string, number>;
  /** Family type by family name. */
  readonly types: Map<string, string>;
}

const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?)|[+-]?(?:nan|inf))$/i;

/**
 * Reads the Prometheus text format (0.0.4) strictly: every line is a HELP, a TYPE or a sample of a
 * family declared before it, with a valid name, labels and value. Throws on anything else.
 */
export function parsePrometheus(text: string): Scrape {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(meta[3]!))
          throw new Error(`bad TYPE: ${line}`);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1]!;
    const family = [...types.keys()].find(
      (f) =>
        name === f ||
        (/_(bucket|sum|count|total)$/.test(name) && name.replace(/_(bucket|sum|count)$/, '') === f),
    );
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    // Go's ParseFloat, which Prometheus uses, takes NaN and Inf in any case.
    const raw = m[3]!.toLowerCase();
    samples.set(
      `${name}${m[2] ?? ''}`,
      raw.endsWith('nan')
        ? Number.NaN
        : raw.endsWith('inf')
          ? raw.startsWith('-')
            ? -Infinity
            : Infinity
          : Number(raw),
    );
  }
  return { samples, types };
}

/** The label values of every sample. */
export function labelValues(s: Scrape): string[] {
  return [...s.samples.keys()].flatMap((k) => [...k.matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!));
}
