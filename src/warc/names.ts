/** The `.open` suffix of a WARC file still being written. */
export const OPEN_SUFFIX = '.open';
export const WARC_GZ = '.warc.gz';

/** Who writes a file: one process on one machine. */
export interface Writer {
  readonly hostname: string;
  readonly pid: number;
}

/** A host name made safe for a file name (letters, digits, "." and "-"). */
export function safeHostname(hostname: string): string {
  return hostname.replace(/[^A-Za-z0-9.-]/g, '_') || 'localhost';
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * The name of a WARC file: PREFIX-TIMESTAMP-SERIAL-HOST-PID.warc.gz, the Internet Archive's
 * Prefix-Timestamp-Serial-Crawlhost convention (which StormCrawler's WARCFileNameFormat follows)
 * with the process id added, so that several crawler processes sharing warc.dir on one machine
 * never write the same file. TIMESTAMP is the UTC time the file was begun (14 digits), SERIAL counts
 * the files of one process from 00000.
 */
export function warcFileName(prefix: string, begunAt: number, serial: number, writer: Writer): string {
  const s = String(serial).padStart(5, '0');
  return `${prefix}-${timestamp(begunAt)}-${s}-${safeHostname(writer.hostname)}-${writer.pid}${WARC_GZ}`;
}

/** The writer of a file named by `warcFileName` with this prefix, or undefined for other files. */
export function writerOf(name: string, prefix: string): (Writer & { readonly open: boolean }) | undefined {
  if (!name.startsWith(`${prefix}-`)) return undefined;
  const rest = name.slice(prefix.length + 1);
  const m = /^\d{14}-\d{5,}-(.+)-(\d+)\.warc\.gz(\.open)?$/.exec(rest);
  if (!m) return undefined;
  return { hostname: m[1]!, pid: Number(m[2]), open: m[3] !== undefined };
}
