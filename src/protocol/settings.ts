import { coerce, describeValue, type KeyDef, type ValueOf } from '../config/define.js';
import { agentKeys } from '../config/keys/agent.js';
import { protocolKeys } from '../config/keys/protocol.js';
import { ConfigError } from '../util/errors.js';

const SETTING_KEYS = { ...agentKeys, ...protocolKeys } as const;

/**
 * The configuration the protocol layer reads: the http.agent.* and protocol keys. A loaded Config
 * satisfies it structurally once `protocolKeys` is part of KEYS, so callers pass their Config as is.
 */
export type ProtocolSettings = {
  readonly [K in keyof typeof SETTING_KEYS]: ValueOf<(typeof SETTING_KEYS)[K]>;
};

/**
 * Defaults overlaid with `entries`, each validated like the config loader does. For tests and tools
 * that do not load a whole configuration; unknown keys are an error here, not a warning.
 */
export function protocolSettings(entries: Readonly<Record<string, unknown>> = {}): ProtocolSettings {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(SETTING_KEYS) as [string, KeyDef][]) out[key] = def.default;
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(entries)) {
    const def = (SETTING_KEYS as Record<string, KeyDef>)[key];
    if (!def) {
      problems.push(`unknown protocol key "${key}"`);
      continue;
    }
    const r = coerce(def, raw);
    if (r.ok) out[key] = r.value;
    else problems.push(`key "${key}" has value ${describeValue(raw)} (${r.got}); expected ${r.expected}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as ProtocolSettings;
}
