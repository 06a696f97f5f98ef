import { checkCrawlSettings } from '../../app/compose.js';
import { type ConfigRow, configRows } from '../../config/rows.js';
import type { Command, ParsedValues } from '../command.js';

export const configCommand: Command = {
  usage: 'crawler config [--json] [--changed] [options]',
  options: {
    json: { type: 'boolean', description: 'print one JSON object' },
    changed: { type: 'boolean', description: 'only keys that differ from the defaults' },
  },
  details:
    'The configuration is checked as crawler run checks it (the agent name, URL and parse filters, the\n' +
    'status rules, the protocol settings): a problem ends the command with exit 2 after the listing.\n' +
    'An empty http.agent.name is only reported: run refuses to start without one.',
  async run({ values, config, out, log }) {
    const cfg = config();
    print(configRows(cfg, Boolean(values.changed)), values, out);
    // The same checks as crawler run, after the listing, so that the values can be read first.
    await checkCrawlSettings(cfg, { nameRequired: false });
    if (cfg['http.agent.name'].trim() === '') {
      log.warn(
        'http.agent.name is not set: crawler run refuses to start until it is (letters, "_" and "-" only)',
      );
    }
    return 0;
  },
};

function print(rows: readonly ConfigRow[], values: ParsedValues, out: (line: string) => void): void {
  if (values.json) {
    out(JSON.stringify(Object.fromEntries(rows.map(([k, v]) => [k, v])), null, 2));
    return;
  }
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  for (const [k, v, o] of rows)
    out(`${k.padEnd(width)}${JSON.stringify(v)}${o === 'default' ? '' : `   (${o})`}`);
}
