#!/usr/bin/env node
// Checks our saved objects (docker/dashboards/*.ndjson) beside StormCrawler's unchanged ones in a real
// OpenSearch Dashboards, as issue 46 asks: both sets imported in either order, each by its own method
// (ours: scripts/import-dashboards; StormCrawler's: its importDashboards.sh, the address changed only),
// then every visualisation and dashboard of both sets opened in headless Chromium for the first time.
// It counts import conflicts, answers of 409 (and any other >= 400), saved-object writes on open,
// hits and buckets of each visualisation's data requests, panels showing an error or "No results
// found, and writes screenshots. Then on each of our two dashboards it chooses each crawl of --crawls
// in the dashboard's "Crawl" control (scripts/dashboards-check/control.mjs): every panel must show
// that crawl's documents and none of the other's. Exit 0 only when all of these are clean.
//
//   node scripts/dashboards-check.mjs --sc DIR [--crawl] [--crawls A,B] [--from ISO --to ISO]
//        [--order ours-first|theirs-first|both] [--shots DIR] [--json FILE]
//
// DIR holds StormCrawler's importDashboards.sh, status.ndjson and metrics.ndjson (external/opensearch/
// dashboards in apache/stormcrawler). DASHBOARDS_URL (default http://127.0.0.1:5601) is a running
// Dashboards over the cluster the crawl wrote to; --crawl first crawls two loopback sites into
// OPENSEARCH_URL (default http://127.0.0.1:9200) with `crawler run --once`, as the crawls of --crawls
// (default status,status-b: status indices; 12 pages on 127.0.0.1, then 5 on 127.0.0.2; npm run build
// first; scripts/dashboards-check/crawl.mjs says what the sites hold). Without --crawl the time range
// is --from/--to (default: the last hour). How to build a Dashboards from source: README "Dashboards".
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openAll } from './dashboards-check/browser.mjs';
import { checkControl } from './dashboards-check/control.mjs';
import { crawlSite } from './dashboards-check/crawl.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: opt } = parseArgs({
  options: {
    sc: { type: 'string' },
    crawl: { type: 'boolean', default: false },
    crawls: { type: 'string', default: 'status,status-b' },
    from: { type: 'string' },
    to: { type: 'string' },
    order: { type: 'string', default: 'both' },
    shots: { type: 'string', default: join(tmpdir(), 'dashboards-check') },
    json: { type: 'string' },
  },
});
if (!opt.sc) {
  console.error('usage: node scripts/dashboards-check.mjs --sc DIR_WITH_STORMCRAWLER_DASHBOARDS [--crawl]');
  process.exit(2);
}
const base = (process.env.DASHBOARDS_URL ?? 'http://127.0.0.1:5601').replace(/\/$/, '');
const opensearch = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const log = (s) => console.log(s);

const ndjson = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .filter((o) => o.type && o.id); // StormCrawler's exports end with a summary line
const ours = ['crawler.ndjson', 'metrics.ndjson'].flatMap((f) => ndjson(join(root, 'docker/dashboards', f)));
const theirs = ['status.ndjson', 'metrics.ndjson'].flatMap((f) => ndjson(join(opt.sc, f)));
const all = [...ours, ...theirs];

async function api(method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'osd-xsrf': 'true', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The JSON answers a shell import script printed (one per curl call). */
function answersOf(output) {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

function importOurs() {
  const out = execFileSync(join(root, 'scripts/import-dashboards'), [], {
    env: { ...process.env, DASHBOARDS_URL: base },
    encoding: 'utf8',
  });
  return answersOf(out);
}

/** StormCrawler's own script, unchanged but for the address it posts to (localhost:5601). */
function importTheirs() {
  const script = readFileSync(join(opt.sc, 'importDashboards.sh'), 'utf8').replaceAll(
    'localhost:5601',
    base.replace(/^https?:\/\//, ''),
  );
  const copy = join(opt.sc, '.importDashboards-check.sh');
  writeFileSync(copy, script);
  try {
    // stderr: curl's progress meters (the script passes no -s).
    return answersOf(execFileSync('sh', [copy], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } finally {
    execFileSync('rm', ['-f', copy]);
  }
}

/** Each object of both files is there, as its own file has it (nothing replaced by the other set). */
async function verify() {
  const { body } = await api(
    'POST',
    '/api/saved_objects/_bulk_get',
    all.map((o) => ({ type: o.type, id: o.id })),
  );
  const wrong = [];
  body.saved_objects.forEach((got, i) => {
    const want = all[i];
    if (got.error) wrong.push(`${want.type} ${want.id}: ${got.error.message}`);
    else if (got.attributes.title !== want.attributes.title)
      wrong.push(`${want.type} ${want.id}: title differs`);
    else if (want.type === 'index-pattern' && got.attributes.fields !== want.attributes.fields)
      wrong.push(`index-pattern ${want.id}: field list differs from its file`);
  });
  return wrong;
}

async function clear() {
  for (const o of all) await api('DELETE', `/api/saved_objects/${o.type}/${encodeURIComponent(o.id)}`);
}

const summarise = (answers) => ({
  written: answers.reduce((n, a) => n + (a.successCount ?? 0), 0),
  conflicts: answers.flatMap((a) => (a.errors ?? []).filter((e) => e.error?.type === 'conflict')),
  errors: answers.flatMap((a) => (a.errors ?? []).filter((e) => e.error?.type !== 'conflict')),
  success: answers.every((a) => a.success === true),
});

const crawls = opt.crawls.split(',').filter((c) => c !== '');
let range = { start: opt.from, end: opt.to };
if (opt.crawl) {
  const tikaPort = Number(process.env.TIKA_PORT ?? 9998);
  const first = await crawlSite({ opensearch, tikaPort, crawl: crawls[0], log });
  let end = first.end;
  for (const [i, crawl] of crawls.slice(1).entries())
    ({ end } = await crawlSite({ opensearch, tikaPort, crawl, host: `127.0.0.${i + 2}`, size: 5, log }));
  range = { start: first.start, end };
}
const minutes = (iso, m) => new Date(Date.parse(iso) + m * 60_000).toISOString();
const from = range.start ? minutes(range.start, -5) : minutes(new Date().toISOString(), -60);
const to = range.end ? minutes(range.end, 5) : minutes(new Date().toISOString(), 5);
const g = `(filters:!(),refreshInterval:(pause:!t,value:0),time:(from:'${from}',to:'${to}'))`;

const orders = opt.order === 'both' ? ['ours-first', 'theirs-first'] : [opt.order];
const report = { base, from, to, orders: [] };
let clean = true;
for (const order of orders) {
  log(
    `\n== ${order}: both sets removed, then imported ${order === 'ours-first' ? 'ours, StormCrawler' : 'StormCrawler, ours'}`,
  );
  await clear();
  const steps = order === 'ours-first' ? [importOurs, importTheirs] : [importTheirs, importOurs];
  const imports = steps.map((f) => ({ by: f.name, ...summarise(f()) }));
  for (const i of imports)
    log(`  ${i.by}: ${i.written} written, ${i.conflicts.length} conflicts, ${i.errors.length} other errors`);
  const wrong = await verify();
  for (const w of wrong) log(`  missing or replaced: ${w}`);
  const byType = (t) => all.filter((o) => o.type === t).map((o) => ({ id: o.id, title: o.attributes.title }));
  const seen = await openAll({
    base,
    g,
    visualizations: byType('visualization'),
    dashboards: byType('dashboard'),
    shots: join(opt.shots, order),
    log,
  });
  // A visualisation Dashboards' editor cannot open (StormCrawler's metrics ones, in 2.19) counts as
  // showing data when a dashboard panel of that title renders with no problem.
  const shownOnDashboard = (title) =>
    seen.dash.some((d) => d.panels.some((p) => p.title === title && !p.problem));
  const editorOnly = seen.vis.filter((v) => v.editor);
  const noData = seen.vis.filter((v) =>
    v.editor ? !shownOnDashboard(v.title) : v.hits === 0 || v.buckets === 0 || v.problem,
  );
  const badPanels = seen.dash.flatMap((d) =>
    d.panels.filter((p) => p.problem).map((p) => ({ dashboard: d.title, ...p })),
  );
  const ourDashboards = ours
    .filter((o) => o.type === 'dashboard')
    .map((o) => ({ id: o.id, title: o.attributes.title }));
  const control = await checkControl({
    base,
    g,
    dashboards: ourDashboards,
    crawls,
    shots: join(opt.shots, order),
    log,
  });
  const controlWrong = control.flatMap((d) =>
    [
      ...d.rows.filter((r) => !r.ok).map((r) => `${d.title}: ${r.label}`),
      ...d.problems.map((p) => `${d.title}: ${p.title} with ${p.crawl} chosen: ${p.problem}`),
    ].concat(d.missing > 0 ? [`${d.title}: ${d.missing} panels sent no data request`] : []),
  );
  const answers409 = seen.failures.filter((f) => f.status === 409);
  const result = {
    order,
    imports,
    wrong,
    answers409: answers409.length,
    failures: seen.failures,
    writesOnOpen: seen.writes.length,
    visualizations: seen.vis.length,
    visualizationsWithData: seen.vis.length - noData.length,
    noData,
    editorCannotOpen: editorOnly.map((v) => ({ id: v.id, title: v.title, message: v.editor })),
    panels: seen.dash.reduce((n, d) => n + d.panels.length, 0),
    badPanels,
    dashboards: seen.dash,
    control,
    controlWrong,
  };
  report.orders.push(result);
  log(
    `  ${order}: conflicts ${imports.reduce((n, i) => n + i.conflicts.length, 0)}, missing/replaced ${wrong.length}, ` +
      `409s ${answers409.length}, other >=400 ${seen.failures.length - answers409.length}, writes on open ${seen.writes.length}, ` +
      `visualisations with data ${result.visualizationsWithData}/${seen.vis.length}, ` +
      `dashboard panels with a problem ${badPanels.length}/${result.panels}, ` +
      `crawl control: ${control.reduce((n, d) => n + d.rows.filter((r) => r.ok).length, 0)}/` +
      `${control.reduce((n, d) => n + d.rows.length, 0)} panel requests filtered right`,
  );
  for (const w of controlWrong) log(`  CONTROL: ${w}`);
  for (const v of noData)
    log(`  NO DATA: ${v.title} (${v.hits} hits, ${v.buckets} buckets) ${v.problem ?? ''}`);
  for (const p of badPanels) log(`  PANEL: ${p.dashboard} / ${p.title}: ${p.problem}`);
  for (const f of seen.failures) log(`  HTTP ${f.status} ${f.method} ${f.url}`);
  clean &&=
    imports.every((i) => i.conflicts.length === 0 && i.errors.length === 0 && i.success) &&
    wrong.length === 0 &&
    seen.failures.length === 0 &&
    noData.length === 0 &&
    badPanels.length === 0 &&
    controlWrong.length === 0;
}
if (opt.json) writeFileSync(opt.json, `${JSON.stringify(report, null, 2)}\n`);
log(`\nscreenshots in ${opt.shots}; ${clean ? 'all clean' : 'problems above'}`);
process.exit(clean ? 0 : 1);
