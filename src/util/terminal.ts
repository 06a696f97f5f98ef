/*
 * How log lines look on a terminal: one short line per event, for a person to read as it scrolls.
 * (Off a terminal, or with LOG_FORMAT=json, lines stay pino's JSON, for machines.)
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, or that the line's own text already says. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'component', 'event', 'worker', 'notice']);
const MAX_VALUE = 80;
/** A field holding an object (a summary's counts) is kept whole up to this; past it, it is junk. */
const MAX_OBJECT = 1000;
const MAX_URL = 160;

const pad2 = (n: number) => String(n).padStart(2, '0');

function clock(ms: unknown): string {
  const d = new Date(typeof ms === 'number' ? ms : Date.now());
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** Long values are cut, and control characters shown as escapes, so one event stays one line. */
export function shorten(value: string, max = MAX_VALUE): string {
  const safe = value.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

function value(v: unknown): string {
  if (typeof v === 'string') return shorten(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return shorten(JSON.stringify(v) ?? String(v), MAX_OBJECT);
}

/**
 * The pieces of a line (its message, then each field) laid out within `width` columns: a piece that
 * does not fit goes on a continuation line, indented under the message; nothing is cut (a piece
 * wider than the terminal wraps there whole). Only the live status line is fitted by cutting.
 */
function layout(head: string, pieces: readonly string[], width: number | undefined): string {
  if (width === undefined) return head + pieces.join('  ');
  const indent = ' '.repeat(head.length);
  const rows: string[] = [];
  let row = head;
  let empty = true;
  for (const piece of pieces) {
    const joined = empty ? row + piece : `${row}  ${piece}`;
    if (empty || joined.length <= width) row = joined;
    else {
      rows.push(row);
      row = indent + piece;
    }
    empty = false;
  }
  rows.push(row);
  return rows.join('\n');
}

/** "2026-12-02T10:00:00.000Z" as "2026-12-02 10:00", local time. */
function when(iso: unknown): string {
  if (typeof iso !== 'string' || iso === 'never') return String(iso ?? '');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

function transition(o: Record<string, unknown>): string {
  const from = (o.previousStatus as string | null) ?? '-';
  const del = o.delete === true ? ', content removed' : '';
  return `${from} -> ${o.status}  ${shorten(String(o.url), MAX_URL)}  (${o.reason})  next ${when(o.nextFetchDate)}${del}`;
}

function progress(o: Record<string, unknown>): string {
  const parts = [
    `${o.fetchedPerSec ?? 0} pages/s`,
    `fetched ${o.fetched ?? 0}`,
    `queued ${o.queued ?? 0}`,
    `hosts ${o.hosts ?? 0}`,
  ];
  if (o.errors) parts.push(`errors ${shorten(String(o.errors))}`);
  if (typeof o.opensearchUnreachableSec === 'number')
    parts.push(`OpenSearch unreachable for ${o.opensearchUnreachableSec} s`);
  if (typeof o.workers === 'number') parts.push(`workers ${o.workers}`);
  return `progress: ${parts.join(', ')}`;
}

/**
 * One pino JSON line as a terminal line (with its newline); a line that is not JSON passes as is.
 * With `width` (a terminal's columns, less one) fields that do not fit go on continuation lines.
 */
export function formatForTerminal(line: string, width?: number): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (o === null || typeof o !== 'object') return line;
  const level = LEVELS[o.level as number] ?? String(o.level);
  let pieces: string[];
  if (o.event === 'transition') pieces = [transition(o)];
  else if (typeof o.msg === 'string' && o.msg.startsWith('progress')) pieces = [progress(o)];
  else {
    const extras = Object.entries(o)
      .filter(([k]) => !HIDDEN.has(k))
      .map(([k, v]) => `${k}=${value(v)}`);
    pieces = [String(o.msg ?? ''), ...extras].filter(Boolean);
  }
  // A worker's line, passed on by the supervisor (`crawler run --workers`), says whose it is.
  const who = typeof o.worker === 'number' ? `w${o.worker} ` : '';
  return `${layout(`${clock(o.time)} ${level.padEnd(5)} ${who}`, pieces, width)}\n`;
}
