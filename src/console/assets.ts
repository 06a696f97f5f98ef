/*
 * The console's page, style and script, served from memory. The script never builds HTML from data:
 * every value (URLs and reasons are written by strangers) goes in with textContent, so nothing a
 * crawled page controls can run; the Content-Security-Policy allows no inline script anyway.
 */

export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>crawler console</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console.css">
<script src="/console.js" defer></script>
</head>
<body>
<header>
  <h1>crawler</h1>
  <span id="opensearch-badge" class="badge">…</span>
  <span id="updated" class="muted"></span>
</header>
<main>
  <section>
    <h2>Rates</h2>
    <dl>
      <dt>pages/s now</dt><dd id="rate-now">–</dd>
      <dt>pages/s average</dt><dd id="rate-avg">–</dd>
      <dt>bytes/s now</dt><dd id="bytes-now">–</dd>
      <dt>errors/s now</dt><dd id="errors-now">–</dd>
      <dt>pages fetched</dt><dd id="fetched">–</dd>
      <dt>links found</dt><dd id="discovered">–</dd>
      <dt>running since</dt><dd id="since">–</dd>
      <dt>workers</dt><dd id="workers">–</dd>
    </dl>
  </section>
  <section>
    <h2>Load</h2>
    <dl>
      <dt>fetches in flight</dt><dd id="fetching">–</dd>
      <dt>queued in the fetcher</dt><dd id="queued">–</dd>
      <dt>URLs in flight</dt><dd id="in-flight">–</dd>
      <dt>being parsed</dt><dd id="parsing">–</dd>
      <dt>hosts (fetch queues)</dt><dd id="hosts">–</dd>
      <dt>hosts backing off</dt><dd id="hosts-backoff">–</dd>
      <dt>hosts down</dt><dd id="hosts-down">–</dd>
    </dl>
  </section>
  <section>
    <h2>Status index</h2>
    <table id="status-counts"><thead><tr><th>status</th><th>documents <span id="counted" class="muted"></span></th><th>this run</th></tr></thead><tbody></tbody></table>
    <p id="due" class="muted"></p>
  </section>
  <section>
    <h2>OpenSearch and memory</h2>
    <dl>
      <dt>OpenSearch</dt><dd id="os-state">–</dd>
      <dt>status writes pending</dt><dd id="writes-pending">–</dd>
      <dt>spout query (mean, last minute)</dt><dd id="spout-ms">–</dd>
      <dt>metrics points dropped</dt><dd id="points-dropped">–</dd>
      <dt>memory (RSS)</dt><dd id="rss">–</dd>
      <dt>JS heap used</dt><dd id="heap">–</dd>
    </dl>
  </section>
  <section class="wide">
    <h2>Pages/s and errors/s over the last
      <select id="hours"><option value="1">hour</option><option value="3" selected>3 hours</option><option value="12">12 hours</option><option value="24">24 hours</option></select>
    </h2>
    <canvas id="chart" width="1000" height="220"></canvas>
    <p id="chart-note" class="muted"></p>
  </section>
  <section class="wide" id="members-section" hidden>
    <h2>Members of the elastic crawl</h2>
    <table id="members"><thead><tr><th>member</th><th>state</th><th>status shards</th><th>pages/s</th><th>fetched</th><th>last heartbeat</th><th>shards lost, to whom</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide">
    <h2>Errors and deferrals by cause (this run)</h2>
    <table id="causes"><thead><tr><th>kind</th><th>cause</th><th>URLs</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide">
    <h2>Latest warnings and notices</h2>
    <table id="warnings"><thead><tr><th>time</th><th>level</th><th>message</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide">
    <h2>Latest transitions</h2>
    <table id="transitions"><thead><tr><th>time</th><th>change</th><th>URL</th><th>reason</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide">
    <h2>Explain one URL</h2>
    <p class="muted">What <code>crawler url URL</code> prints: the URL's status document, transitions, content document and host.</p>
    <form id="explain"><input id="explain-url" type="text" placeholder="https://www.example.com/page" size="80" required> <button type="submit">Explain</button></form>
    <pre id="explain-out"></pre>
  </section>
</main>
</body>
</html>
`;

/** The console's icon (also at /favicon.ico, which browsers ask for whatever the page links). */
export const CONSOLE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1b2a3a"/>
<path d="M8 23 L16 9 L24 23 M11.5 17 H20.5" stroke="#8fd18f" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;

export const CONSOLE_CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
header { display: flex; gap: 1em; align-items: baseline; padding: .6em 1.2em; background: #1b2a3a; color: #fff; }
header h1 { font-size: 1.2em; margin: 0; }
.badge { padding: .1em .6em; border-radius: 1em; background: #666; }
.badge.ok { background: #2e7d32; }
.badge.down { background: #c62828; }
.muted { color: #667; }
header .muted { color: #b8c4d0; }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1em; padding: 1em; }
section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: .6em 1em; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 1em; margin: .2em 0 .6em; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .2em 1em; margin: 0; }
dt { color: #556; }
dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .15em .5em; border-bottom: 1px solid #eef0f3; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.url { word-break: break-all; font-family: ui-monospace, monospace; font-size: .9em; }
canvas { width: 100%; height: 220px; }
pre { white-space: pre-wrap; word-break: break-all; background: #f3f4f6; padding: .6em; max-height: 30em; overflow: auto; }
`;

export const CONSOLE_JS = `'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var num = function (n) { return typeof n === 'number' ? n.toLocaleString('en-US', { maximumFractionDigits: 1 }) : '–'; };
  var set = function (id, v) { $(id).textContent = v; };
  var bytes = function (n) {
    if (n >= 1048576) return num(n / 1048576) + ' MB';
    if (n >= 1024) return num(n / 1024) + ' KB';
    return num(n) + ' B';
  };
  // Rows of text cells: every value is set with textContent, never parsed as HTML.
  function rows(tableId, list, cells) {
    var body = $(tableId).tBodies[0];
    var fresh = document.createElement('tbody');
    list.forEach(function (item) {
      var tr = document.createElement('tr');
      cells(item).forEach(function (c) {
        var td = document.createElement('td');
        td.textContent = String(c.text);
        if (c.cls) td.className = c.cls;
        tr.appendChild(td);
      });
      fresh.appendChild(tr);
    });
    body.parentNode.replaceChild(fresh, body);
  }
  var time = function (iso) { var d = new Date(iso); return isNaN(d) ? String(iso) : d.toLocaleTimeString(); };

  function render(s) {
    set('updated', 'updated ' + time(s.now));
    set('rate-now', num(s.rates.now.pagesPerSec));
    set('rate-avg', num(s.rates.average.pagesPerSec));
    set('bytes-now', bytes(s.rates.now.bytesPerSec) + '/s');
    set('errors-now', num(s.rates.now.errorsPerSec));
    set('fetched', num(s.totals.fetched));
    set('discovered', num(s.totals.discovered));
    set('since', new Date(s.startedAt).toLocaleString());
    set('workers', s.workers ? s.workers.running + ' of ' + s.workers.of + ' running, ' + s.workers.restarts + ' restarts' : 'one process');
    $('members-section').hidden = !s.members;
    if (s.members) {
      rows('members', s.members, function (m) {
        var lost = m.lost.map(function (l) { return l.shard + ' to ' + l.to + ' at ' + time(new Date(l.at).toISOString()); }).join('; ');
        return [{ text: m.member + ' (pid ' + m.pid + ' on ' + m.host + ')' }, { text: m.live ? 'live' : 'gone' }, { text: m.shards.join(',') || 'none' }, { text: num(m.pagesPerSec), cls: 'num' }, { text: num(m.fetched), cls: 'num' }, { text: m.heartbeatSecAgo + ' s ago', cls: 'num' }, { text: lost }];
      });
    }
    set('fetching', num(s.load.fetching));
    set('queued', num(s.load.queued));
    set('in-flight', num(s.load.inFlight));
    set('parsing', num(s.load.parsing));
    set('hosts', num(s.load.hosts));
    set('hosts-backoff', num(s.load.hostsBackingOff));
    set('hosts-down', num(s.load.hostsDown));
    var os = s.opensearch;
    var badge = $('opensearch-badge');
    badge.textContent = os.reachable ? 'OpenSearch reachable' : 'OpenSearch unreachable for ' + os.unreachableSec + ' s';
    badge.className = 'badge ' + (os.reachable ? 'ok' : 'down');
    set('os-state', os.reachable ? 'reachable' : 'unreachable for ' + os.unreachableSec + ' s');
    set('writes-pending', num(os.writesPending));
    set('spout-ms', os.spoutMs === null ? '–' : num(os.spoutMs) + ' ms');
    set('points-dropped', num(s.metricsPointsDropped));
    set('rss', num(s.memory.rssMb) + ' MB');
    set('heap', num(s.memory.heapUsedMb) + ' MB');
    var statuses = ['DISCOVERED', 'FETCHED', 'FETCH_ERROR', 'REDIRECTION', 'ERROR', 'TOTAL'];
    var counts = s.index ? s.index.byStatus : {};
    rows('status-counts', statuses, function (st) {
      return [{ text: st }, { text: s.index ? num(counts[st] || 0) : '…', cls: 'num' }, { text: st === 'TOTAL' ? '' : num(s.totals.byStatus[st] || 0), cls: 'num' }];
    });
    var age = s.index ? Math.max(0, Math.round((Date.parse(s.now) - s.index.at) / 1000)) : 0;
    set('counted', s.index ? '(counted ' + age + ' s ago)' : '');
    set('due', s.index ? num(s.index.dueNow) + ' URLs due now, ' + num(s.index.dueHour) + ' within the hour (counted ' + time(new Date(s.index.at).toISOString()) + ', ' + age + ' s ago)' : 'not counted yet: counted while this page is open, every 5 s');
    var causes = [];
    Object.keys(s.totals.errors).forEach(function (k) { causes.push(['error', k, s.totals.errors[k]]); });
    Object.keys(s.totals.deferred).forEach(function (k) { causes.push(['deferred', k, s.totals.deferred[k]]); });
    causes.sort(function (a, b) { return b[2] - a[2]; });
    rows('causes', causes, function (c) { return [{ text: c[0] }, { text: c[1] }, { text: num(c[2]), cls: 'num' }]; });
    rows('warnings', s.warnings.slice().reverse(), function (w) {
      return [{ text: time(w.time) }, { text: w.level }, { text: (w.worker === undefined ? '' : 'w' + w.worker + ' ') + w.msg }];
    });
    rows('transitions', s.transitions.slice().reverse(), function (t) {
      return [{ text: time(t.time) }, { text: t.from + ' -> ' + t.to }, { text: t.url, cls: 'url' }, { text: t.reason }];
    });
  }

  function draw(c) {
    var canvas = $('chart');
    var ctx = canvas.getContext('2d');
    var w = canvas.width, h = canvas.height, left = 50, bottom = 20;
    ctx.clearRect(0, 0, w, h);
    ctx.font = '12px sans-serif';
    ctx.fillStyle = '#556';
    var from = c.source === 'metrics index' ? 'from the metrics index' : 'since this process started (no metrics series yet)';
    set('chart-note', c.points.length === 0 ? 'no data yet: ' + from : from + ', ' + c.bucketSec + ' s per point; blue: pages/s, red: errors/s');
    if (c.points.length === 0) return;
    var max = 1;
    c.points.forEach(function (p) { max = Math.max(max, p.pagesPerSec, p.errorsPerSec); });
    var t0 = c.points[0].t, t1 = c.points[c.points.length - 1].t || t0 + 1;
    var x = function (t) { return left + (w - left - 5) * (t1 === t0 ? 1 : (t - t0) / (t1 - t0)); };
    var y = function (v) { return h - bottom - (h - bottom - 5) * (v / max); };
    ctx.strokeStyle = '#ccd';
    ctx.beginPath(); ctx.moveTo(left, 5); ctx.lineTo(left, h - bottom); ctx.lineTo(w, h - bottom); ctx.stroke();
    ctx.fillText(num(max), 2, 14);
    ctx.fillText('0', 2, h - bottom);
    ctx.fillText(new Date(t0).toLocaleTimeString(), left, h - 4);
    ctx.fillText(new Date(t1).toLocaleTimeString(), w - 70, h - 4);
    [['pagesPerSec', '#1565c0'], ['errorsPerSec', '#c62828']].forEach(function (s) {
      ctx.strokeStyle = s[1];
      ctx.beginPath();
      c.points.forEach(function (p, i) { if (i === 0) ctx.moveTo(x(p.t), y(p[s[0]])); else ctx.lineTo(x(p.t), y(p[s[0]])); });
      ctx.stroke();
    });
  }

  function get(path) {
    return fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } }).then(function (r) {
      if (!r.ok) throw new Error(r.status + ' ' + r.statusText);
      return r.json();
    });
  }
  function poll() {
    get('/api/state').then(render).catch(function (e) { set('updated', 'not updated: ' + e.message); });
  }
  function chart() {
    get('/api/chart?hours=' + encodeURIComponent($('hours').value)).then(draw).catch(function (e) { set('chart-note', 'chart not loaded: ' + e.message); });
  }
  $('hours').addEventListener('change', chart);
  $('explain').addEventListener('submit', function (ev) {
    ev.preventDefault();
    set('explain-out', 'asking…');
    get('/api/url?url=' + encodeURIComponent($('explain-url').value.trim()))
      .then(function (r) { set('explain-out', r.lines.join('\\n')); })
      .catch(function (e) { set('explain-out', 'failed: ' + e.message); });
  });
  poll();
  chart();
  setInterval(poll, 2000);
  setInterval(chart, 30000);
})();
`;
