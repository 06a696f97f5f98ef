import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { CrawlerError, errorMessage } from '../../util/errors.js';
import { damagedAt, isGzipName, listRecords } from '../../warc/read.js';
import { recoverDir } from '../../warc/recover.js';
import { type Command, InputError, UsageError } from '../command.js';

const USAGE = 'crawler warc ls FILE... [--json] | crawler warc recover [DIR] [--all] [options]';

function incomplete(file: string, damaged: { wholeBytes: number; size: number }): CrawlerError {
  return new CrawlerError(
    'WARC_INCOMPLETE',
    `${file} holds whole records only up to byte ${damaged.wholeBytes} of ${damaged.size}: ` +
      'the rest is cut or damaged (a .open file is recovered by crawler warc recover)',
  );
}

export const warcCommand: Command = {
  usage: USAGE,
  options: {
    json: { type: 'boolean', description: 'ls: one JSON object per record' },
    all: {
      type: 'boolean',
      description: 'recover: also files of other hosts and of running processes (none may be writing)',
    },
  },
  details:
    'ls prints one line per record: offset and length in the file, type, HTTP status, Content-Length,\n' +
    'target URI; it reads the files with warcio, as replay tools do, and fails (exit 3) on a file\n' +
    'that is damaged or cut short.\n' +
    'recover cuts each .open file in DIR (default warc.dir) after its last complete record and\n' +
    'renames it; crawler run does this by itself at start-up for its own host.',
  async run({ positionals, values, config, out }) {
    const [sub, ...args] = positionals;
    if (sub === 'ls' && args.length > 0) {
      let records = 0;
      // Every file is looked for first: a missing one is a mistake in the command line (exit 2).
      const missing = args.filter((f) => !existsSync(f));
      if (missing.length > 0) throw new InputError(`no such file: ${missing.join(', ')}`);
      for (const file of args) {
        // A cut .warc is found before warcio reads it (warcio can spin on one); a .warc.gz after.
        const damagedPlain = isGzipName(file) ? undefined : await damagedAt(file).catch(() => undefined);
        if (damagedPlain) throw incomplete(file, damagedPlain);
        try {
          for await (const r of listRecords(file)) {
            records++;
            if (values.json) out(JSON.stringify({ file, ...r }));
            else
              out(
                [r.offset, r.length, r.type, r.status ?? '-', r.contentLength, r.uri || '-']
                  .map(String)
                  .join('\t'),
              );
          }
        } catch (e) {
          throw new CrawlerError('WARC_UNREADABLE', `${file} cannot be read as WARC: ${errorMessage(e)}`);
        }
        const damaged = isGzipName(file) ? await damagedAt(file) : undefined;
        if (damaged) throw incomplete(file, damaged);
      }
      if (!values.json) out(`${records} records in ${args.length} file${args.length === 1 ? '' : 's'}`);
      return 0;
    }
    if (sub === 'recover' && args.length <= 1) {
      const cfg = config();
      const dir = resolve(args[0] ?? cfg['warc.dir']);
      const recovered = await recoverDir(dir, {
        prefix: cfg['warc.prefix'],
        self: { hostname: hostname(), pid: process.pid },
        all: values.all === true,
      }).catch((e: unknown) => {
        throw new CrawlerError(
          'WARC_DIR_UNUSABLE',
          `cannot recover the .open files of "${dir}": ${errorMessage(e)}; give a readable, writable WARC folder`,
        );
      });
      for (const r of recovered)
        out(
          r.to
            ? `${r.from}: ${r.records} complete records kept, ${r.cutBytes} bytes cut, closed as ${r.to}`
            : `${r.from}: no complete record, removed`,
        );
      out(`${recovered.length} .open file${recovered.length === 1 ? '' : 's'} recovered in ${dir}`);
      return 0;
    }
    throw new UsageError(USAGE);
  },
};
