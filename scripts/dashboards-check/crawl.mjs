// A small real crawl for scripts/dashboards-check.mjs: a loopback site of a dozen pages, one link that
// answers 404 (a FETCH_ERROR under the defaults), one to a closed port (a FETCH_ERROR with no answer)
// and one of a type nothing reads (an ERROR: jsoup.treat.non.html.as.error), crawled once by `crawler run --once` into
// a status index ("status") with a transitions index and the metrics series every 2 s, so that every
// panel of both dashboard sets (ours and StormCrawler's) has something to show. A second crawl of
// another site (its own status index, the same transitions, content and metrics indices) is what the
// crawl control must filter out.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A port nothing listens on: bound by the system, then closed. */
async function closedPort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function site(deadPort, host, size) {
  const pages = Array.from({ length: size }, (_, i) => `/page-${i + 1}.html`);
  const links = [...pages, '/missing.html', '/data', `http://${host}:${deadPort}/gone.html`];
  const html = (title, body) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  return createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('');
    if (path === '/data') return res.writeHead(200, { 'content-type': 'application/x-check' }).end('01');
    if (path === '/' || pages.includes(path)) {
      const list = links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('');
      const text = `<p>Page ${path} of the dashboards check site, with some words to index.</p>`;
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(html(`Check ${path}`, `${text}<ul>${list}</ul>`));
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end(html('Not found', ''));
  });
}

/**
 * Crawls a site of `size` pages on `host` (a loopback address) into OpenSearch at `opensearch` (status
 * index `crawl`, transitions index "transitions", content index "content", metrics alias "metrics")
 * and resolves with the crawl's start and end (ISO).
 */
export async function crawlSite({
  opensearch,
  tikaPort,
  crawl = 'status',
  host = '127.0.0.1',
  size = 12,
  log = console.log,
}) {
  const server = site(await closedPort(), host, size);
  await new Promise((r) => server.listen(0, host, r));
  const base = `http://${host}:${server.address().port}/`;
  const start = new Date().toISOString();
  const sets = [
    `opensearch.addresses=${opensearch}`,
    'opensearch.embedded=false',
    'http.agent.name=dashboards-check',
    `http.filter.ipaddress.allow=${host}`,
    `opensearch.status.index.name=${crawl}`,
    'status.transitions.index.name=transitions',
    'metrics.interval=2s',
    'fetcher.server.delay=0.5',
    'console.port=0',
    `tika.embedded.port=${tikaPort}`,
  ];
  const args = ['dist/cli/main.js', 'run', '--once', '--seed', base, ...sets.flatMap((s) => ['--set', s])];
  const logFile = join(tmpdir(), `dashboards-check-crawl-${crawl}-${process.pid}.log`);
  log(`crawling ${base} into ${opensearch}, crawl "${crawl}" (its log: ${logFile})`);
  const code = await new Promise((resolve, reject) => {
    const out = openSync(logFile, 'w');
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', out, out] });
    child.on('error', reject);
    child.on('exit', (c) => resolve(c));
  });
  server.close();
  if (code !== 0) throw new Error(`crawler run --once exited ${code}; see ${logFile}`);
  return { start, end: new Date().toISOString() };
}
