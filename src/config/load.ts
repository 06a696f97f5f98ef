import { readFileSync } from 'node:fs';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ConfigError, errorMessage } from '../util/errors.js';
import { coerce, describeValue, type KeyDef } from './define.js';
import { nearest } from './nearest.js';
import { type Config, defaultValues, KEYS, PATTERNS, type PatternedEntry } from './schema.js';

/** One source of settings, applied over the ones before it. */
export interface Layer {
  /** Shown in messages: a file path, "env" or "--set". */
  readonly source: string;
  readonly entries: Readonly<Record<string, unknown>>;
}

export interface Loaded {
  readonly config: Config;
  /** Misspelled or unknown keys: reported, ignored, never fatal. */
  readonly warnings: readonly string[];
}

export interface LoadOptions {
  /** `--conf FILE`, in order; later files win. */
  readonly files?: readonly string[];
  /** `--set key=value`, applied last. */
  readonly sets?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Reads a YAML file of flat dotted keys; StormCrawler's `config:` wrapper is accepted too. */
export function readLayer(path: string): Layer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError([`cannot read config file ${path}: ${errorMessage(e)}`]);
  }
  return parseLayer(path, text);
}

export function parseLayer(source: string, text: string): Layer {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` line ${e.linePos[0].line}` : '';
    throw new ConfigError([`${source}${where}: not valid YAML: ${errorMessage(e).split('\n')[0]}`]);
  }
  if (doc === null || doc === undefined) return { source, entries: {} };
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError([`${source}: expected a mapping of "key: value" lines at the top level`]);
  }
  const top = doc as Record<string, unknown>;
  const keys = Object.keys(top);
  const inner = top['config'];
  const entries =
    keys.length === 1 && inner && typeof inner === 'object' && !Array.isArray(inner)
      ? (inner as Record<string, unknown>)
      : top;
  return { source, entries };
}

/** `--set key=value`; the value is read as YAML so numbers and booleans keep their types. */
export function parseSet(arg: string): Layer {
  const first = arg.indexOf('=');
  if (first <= 0) throw new ConfigError([`--set ${arg}: expected key=value`]);
  // Keys like fetchInterval.isFeed=true carry an "=" of their own: then the last "=" starts the value.
  const cut = arg.slice(0, first) in KEYS ? first : arg.lastIndexOf('=');
  const raw = arg.slice(cut + 1);
  let value: unknown = raw;
  try {
    value = raw === '' ? '' : parseYaml(raw);
  } catch {
    value = raw;
  }
  return { source: '--set', entries: { [arg.slice(0, cut)]: value } };
}

export function envLayer(env: Readonly<Record<string, string | undefined>>): Layer {
  const entries: Record<string, unknown> = {};
  if (env.OPENSEARCH_URL) entries['opensearch.addresses'] = env.OPENSEARCH_URL;
  if (env.OPENSEARCH_USERNAME) entries['opensearch.user'] = env.OPENSEARCH_USERNAME;
  if (env.OPENSEARCH_PASSWORD) entries['opensearch.password'] = env.OPENSEARCH_PASSWORD;
  if (env.TIKA_URL) entries['tika.server.url'] = env.TIKA_URL;
  return { source: 'env', entries };
}

/** Merges layers over the defaults and validates every key once. Pure: no I/O. */
export function buildConfig(layers: readonly Layer[]): Loaded {
  const values = defaultValues() as Record<string, unknown>;
  const origin = new Map<string, string>();
  const patterned = new Map<string, number | string | boolean>();
  const problems: string[] = [];
  const warnings: string[] = [];
  const known = Object.keys(KEYS);

  for (const layer of layers) {
    for (const [key, raw] of Object.entries(layer.entries)) {
      const def: KeyDef | undefined = (KEYS as Record<string, KeyDef>)[key];
      const pattern = def ? undefined : PATTERNS.find((p) => p.pattern.test(key));
      if (!def && !pattern) {
        const hint = nearest(key, known);
        warnings.push(
          `${layer.source}: unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}; it is ignored`,
        );
        continue;
      }
      const result = coerce((def ?? pattern)!, raw);
      if (!result.ok) {
        problems.push(
          `${layer.source}: key "${key}" has value ${describeValue(raw)} (${result.got}); expected ${result.expected}`,
        );
        continue;
      }
      if (def) values[key] = result.value;
      else patterned.set(key, result.value as number | string | boolean);
      origin.set(key, layer.source);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const entries: PatternedEntry[] = [...patterned].map(([key, value]) => ({ key, value }));
  const config = { ...values, patterned: entries, origin } as unknown as Config;
  return { config, warnings };
}

/** Defaults, then `--conf` files in order, then the environment, then `--set`. */
export function loadConfig(options: LoadOptions = {}): Loaded {
  const layers: Layer[] = [];
  const problems: string[] = [];
  for (const f of options.files ?? []) {
    try {
      layers.push(readLayer(f));
    } catch (e) {
      problems.push(...(e instanceof ConfigError ? e.problems : [errorMessage(e)]));
    }
  }
  layers.push(envLayer(options.env ?? process.env));
  for (const s of options.sets ?? []) {
    try {
      layers.push(parseSet(s));
    } catch (e) {
      problems.push(...(e instanceof ConfigError ? e.problems : [errorMessage(e)]));
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return buildConfig(layers);
}
