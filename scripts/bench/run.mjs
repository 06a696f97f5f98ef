// @ts-check
// `npm run bench`: the whole benchmark in one run, written to scripts/bench/RESULTS.md.
//
// For each profile (small: 50 hosts x 2,000 pages of ~10 KB; large: 20 hosts x 150 pages of
// ~90 KB) it serves the synthetic web from one process, measures the stage limits (undici fetch,
// parse, raw _bulk) and the floor (bare fetch + SAX + resolve) on the same pages, crawls it end to
// end with `crawler run --once`, and crawls it with the peer (Crawlee's CheerioCrawler); the small
// profile also under the CPU profiler (the per-area breakdown), with WARC output and with two
// worker processes (--workers 2), and with near-duplicate and soft-404 checks off. Then the deep
// site (one host found page by page, scripts/bench/deep.mjs) beside Crawlee, the few-host
// documentation site (scripts/bench/fewhost.mjs) beside wget -r and Crawlee, rendering
// (scripts/bench/render.mjs), PDFs through Apache Tika (scripts/bench/documents.mjs), the feeds
// profile (scripts/bench/feeds.mjs), the spout query at 100 k and 1 M status documents, and
// `crawler inject` of a million seed lines.
//
// Environment: OPENSEARCH_URL (else the embedded node on 127.0.0.1:9200, started if needed and
// stopped after); BENCH_QUICK=1 for a smoke run of small sizes (not a report).

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@opensearch-project/opensearch';
import { areaShares } from './areas.mjs';
import { crawlEndToEnd, deleteBenchIndices, writeBenchConf } from './crawl.mjs';
import { dedupOffSettings, dedupQueryBench } from './dedup.mjs';
import { deepSiteBench } from './deep.mjs';
import { documentsBench } from './documents.mjs';
import { feedsBench } from './feeds.mjs';
import { fewHostBench } from './fewhost.mjs';
import { injectBench } from './inject.mjs';
import { monitoringVariant } from './monitoring.mjs';
import { findOpenSearchPid, runNode } from './proc.mjs';
import { renderBench } from './render.mjs';
import { report } from './report.mjs';
import { monitoringSection } from './report-monitoring.mjs';
import { simhashBench } from './simhash.mjs';
import { spoutBench } from './spout.mjs';

/** @typedef {import('./report.mjs').ProfileSpec} ProfileSpec */
/** @typedef {import('./report.mjs').ProfileResult} ProfileResult */
/**
 * What web.mjs prints once it listens.
 * @typedef {{ port: number, hosts: number, pages: number, seeds: string[], expected: import('./web.mjs').Expected }} WebInfo
 */
/**
 * Options and result of each stage of stages.mjs.
 * @typedef {{
 *   fetch: [import('./stages.mjs').FetchOptions, import('./stages.mjs').FetchResult],
 *   parse: [import('./stages.mjs').ParseOptions, import('./stages.mjs').ParseResult],
 *   bulk: [import('./stages.mjs').BulkOptions, import('./stages.mjs').BulkResult],
 *   floor: [import('./stages.mjs').FetchOptions, import('./stages.mjs').FloorResult],
 * }} Stages
 */
/** @typedef {{ url: string, client: Client, version: string, startedHere: boolean }} OpenSearch */

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const quick = process.env.BENCH_QUICK === '1';
/** BENCH_ONLY=monitoring (npm run bench:monitoring): the small profile's monitoring variant alone. */
const ONLY = process.env.BENCH_ONLY;
/** Pairs of monitoring on/off runs (BENCH_MONITORING_PAIRS). */
const MONITORING_PAIRS = Number(process.env.BENCH_MONITORING_PAIRS ?? (quick ? 1 : 2));
const CONCURRENCY = 50;
/** Seconds of the small crawl run again under the CPU profiler, for the breakdown by area. */
const PROFILE_SECS = quick ? 15 : 45;
/** @type {ProfileSpec[]} */
const PROFILES = quick
  ? [
      {
        profile: 'small',
        hosts: 10,
        pages: 300,
        peerMax: 500,
        profileAreas: true,
        warcVariant: true,
        workersVariant: true,
        monitoringVariant: true,
        dedupVariant: true,
      },
      { profile: 'large', hosts: 5, pages: 100, peerMax: 200 },
    ]
  : [
      // parser.threads (threadsVariant) was measured in an earlier report (no gain on 2 shared
      // cores); the time goes to the WARC variant now.
      {
        profile: 'small',
        hosts: 50,
        pages: 2000,
        peerMax: 5000,
        profileAreas: true,
        warcVariant: true,
        workersVariant: true,
        monitoringVariant: true,
        dedupVariant: true,
      },
      { profile: 'large', hosts: 20, pages: 150, peerMax: 500 },
    ];
const started = Date.now();
/** @type {(line: string) => void} */
const say = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/**
 * Runs `node args...` and resolves with the last JSON object it printed: the result of a stage.
 * @param {readonly string[]} args
 * @returns {Promise<object>}
 */
async function json(args) {
  const { code, out, err } = await runNode(args).done;
  const result = out.findLast((l) => typeof l === 'object');
  if (code !== 0 || !result)
    throw new Error(`node ${args.join(' ').slice(0, 80)} failed:\n${err.join('\n')}`);
  return result;
}

/** @returns {Promise<OpenSearch>} */
async function opensearch() {
  const url = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
  const client = new Client({ node: url });
  try {
    const info = await client.info();
    return { url, client, version: info.body.version.number, startedHere: false };
  } catch {
    if (process.env.OPENSEARCH_URL) throw new Error(`OpenSearch at ${url} does not answer`);
  }
  say('starting the embedded OpenSearch node (scripts/opensearch start)');
  execFileSync(join(root, 'scripts/opensearch'), ['start'], { stdio: 'inherit' });
  const info = await client.info();
  return { url, client, version: info.body.version.number, startedHere: true };
}

/**
 * Starts the synthetic web in its own process; resolves once it listens (its first stdout line).
 * @param {ProfileSpec} p
 */
async function startWeb(p) {
  /** @type {(info: WebInfo) => void} */
  let listening = () => {};
  const args = ['--profile', p.profile, '--hosts', String(p.hosts), '--pages', String(p.pages)];
  const { child, done } = runNode([join(here, 'web.mjs'), ...args], {
    onLine: (stream, line) => {
      if (stream === 'out' && typeof line === 'object') listening(/** @type {WebInfo} */ (line));
    },
  });
  /** @type {WebInfo} */
  const info = await new Promise((resolve, reject) => {
    listening = resolve;
    done.then(({ err }) => reject(new Error(`web server ended: ${err.join('\n')}`)));
  });
  return { ...info, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * @param {ProfileSpec} p
 * @param {OpenSearch} os
 * @returns {Promise<ProfileResult>}
 */
async function profileRun(p, os) {
  say(`profile ${p.profile}: ${p.hosts} hosts x ${p.pages} pages; rendering the web`);
  const web = await startWeb(p);
  const webSpec = { profile: p.profile, hosts: p.hosts, pages: p.pages, port: web.port };
  const dir = join(root, '.bench', p.profile);
  const confOptions = { opensearchUrl: os.url, concurrency: CONCURRENCY, hosts: p.hosts };
  const conf = writeBenchConf(dir, root, confOptions);
  /**
   * @template {keyof Stages} S
   * @param {S} name
   * @param {Stages[S][0]} options
   * @returns {Promise<Stages[S][1]>}
   */
  const stage = async (name, options) =>
    /** @type {Stages[S][1]} */ (await json([join(here, 'stages.mjs'), name, JSON.stringify(options)]));
  const clearIndices = () => deleteBenchIndices(os.client);
  /**
   * One `crawler run --once` over the web from empty indices, which it leaves empty again.
   * @param {string} confPath
   * @param {{ nodeArgs?: string[], stopAfterSecs?: number, args?: string[] }} [more] `args`: more
   *   options of `crawler run`
   */
  async function endToEnd(confPath, more = {}) {
    await clearIndices();
    const r = await crawlEndToEnd({
      root,
      conf: confPath,
      seeds: web.seeds,
      pids: { opensearch: findOpenSearchPid(), web: web.pid },
      log: say,
      ...more,
    });
    say(`  ${r.fetched} pages in ${r.secs.toFixed(1)} s: ${r.pagesPerSec.toFixed(0)} pages/s`);
    const statusDocs = (await os.client.count({ index: 'bench-status' })).body.count;
    await clearIndices();
    return { ...r, statusDocs };
  }
  const monitoring = () => {
    say(`monitoring on vs off (metrics series and console), ${MONITORING_PAIRS} pairs`);
    const clear = () => os.client.indices.delete({ index: 'bench-metrics-*', ignore_unavailable: true });
    return monitoringVariant({ endToEnd, dir, root, confOptions, pairs: MONITORING_PAIRS, log: say, clear });
  };
  try {
    // npm run bench:monitoring: nothing else.
    if (ONLY === 'monitoring') return /** @type {ProfileResult} */ ({ ...p, monitoring: await monitoring() });
    say('stage limit: undici fetch only');
    const fetch = await stage('fetch', { web: webSpec, concurrency: CONCURRENCY });
    say(`  ${fetch.pagesPerSec.toFixed(0)} pages/s`);
    say('stage limit: parse and extract only');
    const sample = p.profile === 'small' ? 2000 : 500;
    const parse = await stage('parse', { web: webSpec, conf: conf.path, sample, seconds: 10 });
    say(`  ${parse.pagesPerSec.toFixed(0)} pages/s`);
    say('stage limit: raw _bulk of the status documents');
    const bulk = await stage('bulk', {
      web: webSpec,
      opensearchUrl: os.url,
      concurrency: 2,
      bulkActions: 500,
    });
    say(`  ${bulk.docsPerSec.toFixed(0)} docs/s`);
    say('floor: undici fetch + SAX hrefs and text + URL resolve, one process');
    const floor = await stage('floor', { web: webSpec, concurrency: CONCURRENCY });
    say(`  ${floor.cpuMsPerPage.toFixed(2)} CPU ms/page`);
    say('end to end: crawler run --once');
    const crawl = await endToEnd(conf.path);
    let areas;
    if (p.profileAreas) {
      say(`where the CPU goes: ${PROFILE_SECS} s of the same crawl under node --cpu-prof`);
      const profDir = join(dir, 'cpu-profile');
      rmSync(profDir, { recursive: true, force: true });
      await endToEnd(conf.path, {
        nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
        stopAfterSecs: PROFILE_SECS,
      });
      const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
      if (file) areas = areaShares(join(profDir, file));
    }
    let warc;
    if (p.warcVariant) {
      say('end to end again with WARC output (warc.enabled: true)');
      const warcDir = join(dir, 'warc');
      rmSync(warcDir, { recursive: true, force: true });
      const extra = { 'warc.enabled': true, 'warc.dir': warcDir };
      const variant = writeBenchConf(dir, root, { ...confOptions, extra });
      const r = await endToEnd(variant.path);
      const files = readdirSync(warcDir).filter((f) => f.endsWith('.warc.gz'));
      const bytes = files.reduce((n, f) => n + statSync(join(warcDir, f)).size, 0);
      rmSync(warcDir, { recursive: true, force: true });
      warc = { ...r, files: files.length, bytes };
    }
    let threaded;
    if (p.threadsVariant) {
      say('end to end again with parser.threads: 1 (parsing on a worker thread)');
      const extra = { 'parser.threads': 1 };
      const variant = writeBenchConf(dir, root, { ...confOptions, extra });
      threaded = await endToEnd(variant.path);
    }
    let workers;
    if (p.workersVariant) {
      say('end to end again with --workers 2 (two worker processes, half of the status shards each)');
      workers = await endToEnd(conf.path, { args: ['--workers', '2'] });
    }
    const monitored = p.monitoringVariant ? await monitoring() : undefined;
    let dedupOff;
    if (p.dedupVariant) {
      say('end to end again with near-duplicate and soft-404 checks off (the main crawl has them on)');
      const variant = writeBenchConf(dir, root, { ...confOptions, extra: dedupOffSettings(dir, root) });
      dedupOff = await endToEnd(variant.path);
    }
    say(`peer: Crawlee CheerioCrawler, first ${p.peerMax} pages`);
    const peer = /** @type {import('./peer.mjs').PeerResult} */ (
      await json([
        join(here, 'peer.mjs'),
        JSON.stringify({ seeds: web.seeds, concurrency: CONCURRENCY, maxRequests: p.peerMax }),
      ])
    );
    say(`  ${peer.pages} pages: ${peer.pagesPerSec.toFixed(0)} pages/s`);
    return {
      ...p,
      expected: web.expected,
      settings: conf.settings,
      fetch,
      parse,
      bulk,
      floor,
      crawl,
      areas,
      threaded,
      warc,
      workers,
      ...(monitored ? { monitoring: monitored } : {}),
      dedupOff,
      peer,
    };
  } finally {
    web.stop();
  }
}

const os = await opensearch();
if (ONLY === 'monitoring') {
  try {
    const r = await profileRun(/** @type {ProfileSpec} */ (PROFILES[0]), os);
    if (r.monitoring) console.log(`\n${monitoringSection(r.monitoring)}`);
  } finally {
    await os.client.close();
    if (os.startedHere) execFileSync(join(root, 'scripts/opensearch'), ['stop'], { stdio: 'inherit' });
  }
  process.exit(0);
}
try {
  const profiles = [];
  for (const p of PROFILES) profiles.push(await profileRun(p, os));
  const deep = await deepSiteBench({
    root,
    opensearchUrl: os.url,
    client: os.client,
    pids: { opensearch: findOpenSearchPid() },
    pages: quick ? 200 : 600,
    politePages: quick ? 6 : 15,
    log: say,
  });
  // The few-host site beside wget and Crawlee (scripts/bench/fewhost.mjs).
  const common = {
    root,
    opensearchUrl: os.url,
    client: os.client,
    pids: { opensearch: findOpenSearchPid() },
  };
  const fewhost = await fewHostBench({
    ...common,
    sections: quick ? 5 : 20,
    pages: quick ? 20 : 50,
    log: say,
  });
  // Rendering (render.mjs): an app host beside plain hosts, against Crawlee's PlaywrightCrawler.
  const render = await renderBench({ root, opensearchUrl: os.url, client: os.client, quick, log: say });
  say('documents: PDFs through Apache Tika (scripts/bench/documents.mjs)');
  const documents = await documentsBench({
    root,
    opensearchUrl: os.url,
    client: os.client,
    documents: quick ? 40 : 300,
    tikaPort: Number(process.env.BENCH_TIKA_PORT ?? 9998),
    log: say,
  });
  const feeds = await feedsBench({ root, opensearchUrl: os.url, client: os.client, quick, log: say });
  const maxDocs = quick ? 100_000 : 1_000_000;
  say(`spout at scale: loading ${maxDocs.toLocaleString('en-US')} status documents`);
  const spout = await spoutBench({ opensearchUrl: os.url, maxDocs, log: say });
  say('near-duplicates: the fingerprint, then the candidate query at scale');
  const simhash = simhashBench({ log: say });
  const query = await dedupQueryBench({
    opensearchUrl: os.url,
    maxDocs: quick ? 100_000 : 1_000_000,
    opensearchPid: findOpenSearchPid(),
    log: say,
  });
  const small = profiles.find((p) => p.dedupVariant && p.dedupOff);
  const dedup = {
    simhash,
    query,
    ...(small?.dedupOff
      ? { crawl: { hosts: small.hosts, pages: small.pages, on: small.crawl, off: small.dedupOff } }
      : {}),
  };
  const lines = quick ? 100_000 : 1_000_000;
  say(`inject at scale: crawler inject of ${lines.toLocaleString('en-US')} seed lines`);
  const inject = await injectBench({
    opensearchUrl: os.url,
    lines,
    dir: join(root, '.bench', 'inject'),
    log: say,
  });
  /** @type {(path: string) => string} */
  const pkg = (path) => JSON.parse(readFileSync(path, 'utf8')).version;
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  } catch {
    // not a git checkout
  }
  const machine = {
    cores: cpus().length,
    cpu: `${cpus().length} x ${cpus()[0]?.model.trim()}`,
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    opensearch: os.version,
    crawler: `${pkg(join(root, 'package.json'))} (${commit})`,
    crawlee: pkg(join(here, 'node_modules/@crawlee/cheerio/package.json')),
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    minutes: (Date.now() - started) / 60_000,
    quick,
  };
  const md = report({
    machine,
    profiles,
    spout,
    inject,
    deep,
    fewhost,
    render,
    documents,
    feeds,
    concurrency: CONCURRENCY,
    dedup,
  });
  if (!quick) writeFileSync(join(here, 'RESULTS.md'), md);
  console.log(`\n${md}`);
  say(quick ? 'quick run: RESULTS.md left unchanged' : 'written to scripts/bench/RESULTS.md');
} finally {
  await os.client.close();
  if (os.startedHere) execFileSync(join(root, 'scripts/opensearch'), ['stop'], { stdio: 'inherit' });
}
