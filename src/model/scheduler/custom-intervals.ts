import type { PatternedEntry } from '../../config/schema.js';
import { ConfigError } from '../../util/errors.js';
import type { Metadata } from '../metadata.js';
import { isStatus, STATUSES, type Status } from '../status.js';

/** One `fetchInterval[.STATUS].key=value: minutes` setting. */
export interface IntervalRule {
  /** The config key as written, e.g. `fetchInterval.FETCHED.isFeed=true`. */
  readonly key: string;
  /** Only for this status; undefined applies to every status but DISCOVERED (ERROR included). */
  readonly status: Status | undefined;
  readonly metadataKey: string;
  readonly metadataValue: string;
  /** Minutes; -1 = never. */
  readonly minutes: number;
}

// StormCrawler's key syntax: the optional status is lazy, the last "=" separates key from value, so
// `fetchInterval.a.b=c` names status "a" (rejected) and a dotted metadata key needs a status prefix.
const RULE = /^fetchInterval(\..+?)?\.(.+)=(.+)$/;

/**
 * Reads the custom interval rules from the patterned config entries, in config order. Every bad
 * entry is reported at once, naming the key.
 */
export function parseIntervalRules(entries: readonly PatternedEntry[]): IntervalRule[] {
  const rules: IntervalRule[] = [];
  const problems: string[] = [];
  for (const { key, value } of entries) {
    const m = RULE.exec(key);
    if (!m) continue;
    const statusName = m[1]?.slice(1);
    const minutes = typeof value === 'number' ? value : Number(value);
    if (statusName !== undefined && !isStatus(statusName)) {
      problems.push(
        `key "${key}": "${statusName}" is not a status (${STATUSES.join(', ')})${hint(key, statusName)}`,
      );
      continue;
    }
    if (!Number.isFinite(minutes)) {
      problems.push(`key "${key}" has value ${JSON.stringify(value)}; expected a number of minutes`);
      continue;
    }
    rules.push({ key, status: statusName, metadataKey: m[2]!, metadataValue: m[3]!, minutes });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return rules;
}

/**
 * Finds the custom interval for a URL. Precedence, deterministic where StormCrawler's depends on
 * HashMap order:
 * 1. rules for this very status, in config order;
 * 2. then rules without a status, in config order.
 * The first rule whose metadata key holds the rule's value (among any of its values) wins. A
 * status-specific rule for another status never blocks a later generic rule.
 */
export class CustomIntervals {
  private readonly byStatus: ReadonlyMap<Status | undefined, readonly IntervalRule[]>;

  constructor(rules: readonly IntervalRule[]) {
    const map = new Map<Status | undefined, IntervalRule[]>();
    for (const rule of rules) map.set(rule.status, [...(map.get(rule.status) ?? []), rule]);
    this.byStatus = map;
  }

  get size(): number {
    let n = 0;
    for (const rules of this.byStatus.values()) n += rules.length;
    return n;
  }

  /**
   * The rule for this status and metadata. DISCOVERED takes only rules that name it: a URL is due
   * at once for its first fetch whatever metadata it carries (a feed found through a page's
   * <link rel="alternate"> is marked isFeed=true before it was ever fetched), and a rule without a
   * status applies from that first fetch.
   */
  match(status: Status, metadata: Metadata): IntervalRule | undefined {
    const hit = (r: IntervalRule) => metadata.hasValue(r.metadataKey, r.metadataValue);
    const own = this.byStatus.get(status)?.find(hit);
    return own ?? (status === 'DISCOVERED' ? undefined : this.byStatus.get(undefined)?.find(hit));
  }
}

function hint(key: string, name: string): string {
  if (isStatus(name.toUpperCase())) return `; statuses are upper case: "${name.toUpperCase()}"`;
  if (/^[A-Z_]+$/.test(name)) return '';
  return `; a metadata key with dots needs a status first, e.g. "fetchInterval.FETCHED.${key.slice(14)}"`;
}
