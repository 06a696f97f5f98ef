import { KEYS } from '../../config/schema.js';
import type { Command } from '../command.js';

export const configCommand: Command = {
  name: 'config',
  summary: 'print the effective configuration and where each value came from',
  usage: 'crawler config [--json] [--changed] [options]',
  options: {
    json: { type: 'boolean', description: 'print one JSON object' },
    changed: { type: 'boolean', description: 'only keys that differ from the defaults' },
  },
  async run({ values, config, out }) {
    const cfg = config();
    const rows: [string, unknown, string][] = [];
    for (const key of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
      const origin = cfg.origin.get(key) ?? 'default';
      if (values.changed && origin === 'default') continue;
      const shown = key.endsWith('password') && cfg[key] ? '***' : cfg[key];
      rows.push([key, shown, origin]);
    }
    for (const e of cfg.patterned) rows.push([e.key, e.value, cfg.origin.get(e.key) ?? '?']);
    if (values.json) {
      out(JSON.stringify(Object.fromEntries(rows.map(([k, v]) => [k, v])), null, 2));
      return 0;
    }
    const width = Math.max(...rows.map(([k]) => k.length)) + 2;
    for (const [k, v, o] of rows)
      out(`${k.padEnd(width)}${JSON.stringify(v)}${o === 'default' ? '' : `   (${o})`}`);
    return 0;
  },
};
