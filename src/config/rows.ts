import { type Config, KEYS } from './schema.js';

/** One line of `crawler config`: a key, its value as shown (passwords masked), where it came from. */
export type ConfigRow = readonly [key: string, shown: unknown, origin: string];

/**
 * Every key of `config` with its value and origin, the known keys first (in schema order), then the
 * patterned ones (in config order); `changedOnly` leaves out the known keys still at their default.
 */
export function configRows(config: Config, changedOnly: boolean): ConfigRow[] {
  const rows: ConfigRow[] = [];
  for (const key of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
    const origin = config.origin.get(key) ?? 'default';
    if (changedOnly && origin === 'default') continue;
    const shown = key.endsWith('password') && config[key] ? '***' : config[key];
    rows.push([key, shown, origin]);
  }
  for (const e of config.patterned) rows.push([e.key, e.value, config.origin.get(e.key) ?? '?']);
  return rows;
}
