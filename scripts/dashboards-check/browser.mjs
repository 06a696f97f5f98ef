// The browser half of scripts/dashboards-check.mjs: opens every visualisation and dashboard in a real
// OpenSearch Dashboards with headless Chromium (playwright-core), the way a person opens them the first
// time, and records what the check counts: every HTTP answer >= 400 (a 409 on a first open means an
// index pattern without its field list, which Dashboards then tries to save from several panels at
// once), every saved-object write, the hits and buckets each visualisation's data requests return,
// and per dashboard panel an error or "No results found".
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** The real binary: Debian's /usr/bin/chromium is a shell wrapper playwright cannot drive. */
export const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const READ_ONLY = /\/api\/saved_objects\/(_find|_bulk_get|_resolve_import_errors)|\/_bulk_resolve/;

/** Hits and buckets in one data answer (the search strategy's or the legacy msearch's). */
export function countData(body) {
  let hits = 0;
  let buckets = 0;
  let answers = 0;
  const walk = (v, inAggs) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, inAggs);
      return;
    }
    if (v.hits && typeof v.hits === 'object' && 'total' in v.hits) {
      answers++;
      hits += typeof v.hits.total === 'number' ? v.hits.total : (v.hits.total?.value ?? 0);
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'buckets' && inAggs) buckets += Array.isArray(x) ? x.length : Object.keys(x ?? {}).length;
      walk(x, inAggs || k === 'aggregations');
    }
  };
  walk(body, false);
  return { answers, hits, buckets };
}

/** In the page: what Dashboards says when its editor cannot load a visualisation, or null. */
const MISSING = `(() => {
  const toast = [...document.querySelectorAll('.euiToast')].find((t) => /Could not locate that visualization/.test(t.textContent));
  if (toast) return toast.textContent;
  const h = location.hash;
  return h.includes('notFound=') ? new URLSearchParams(h.slice(h.indexOf('?'))).get('notFoundMessage') : null;
})()`;

export const isDataRequest = (url) =>
  /\/internal\/search\/|\/internal\/_msearch|\/api\/metrics\/vis\/data/.test(url);

/** Text of the first problem a panel shows, or null. "No results found" is itself a .visError. */
export async function problemOf(panel) {
  return panel.evaluate((el) => {
    const text = el.textContent || '';
    if (/No results found/i.test(text)) return 'No results found';
    const err = el.querySelector(
      '.visError, [data-test-subj="embeddableStackError"], [data-test-subj="embeddableError"], .euiCallOut--danger',
    );
    return err ? (err.textContent || 'error').trim().slice(0, 200) : null;
  });
}

/**
 * Waits until every `selector` element holds a rendered thing that says it is done, and no data
 * request is in flight (Dashboards polls, so the network is never idle).
 */
export async function settle(page, selector, inFlight, timeoutMs) {
  await page.waitForSelector(selector, { timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rendered = await page.evaluate((sel) => {
      const all = [...document.querySelectorAll(sel)];
      const done = '[data-render-complete="true"]';
      return all.length > 0 && all.every((el) => el.matches(done) || el.querySelector(done));
    }, selector);
    if (rendered && inFlight.size === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${inFlight.size} data requests still open, rendered ${rendered}`);
    await page.waitForTimeout(250);
  }
}

/**
 * Opens each of `visualizations` ({id, title}) in the editor and each of `dashboards` in view mode,
 * over the time range `g` (rison _g), in one fresh browser context. Screenshots go to `shots`.
 */
export async function openAll({ base, g, visualizations, dashboards, shots, timeoutMs = 120_000, log }) {
  mkdirSync(shots, { recursive: true });
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1200 } });
  const page = await context.newPage();
  const failures = [];
  const writes = [];
  let data = [];
  const inFlight = new Set();
  page.on('request', (req) => isDataRequest(req.url()) && inFlight.add(req));
  page.on('requestfailed', (req) => inFlight.delete(req));
  page.on('response', async (r) => {
    inFlight.delete(r.request());
    const req = r.request();
    const url = r.url();
    if (r.status() >= 400) failures.push({ status: r.status(), method: req.method(), url, on: page.url() });
    if (/\/api\/saved_objects\//.test(url) && ['POST', 'PUT'].includes(req.method()) && !READ_ONLY.test(url))
      writes.push({ status: r.status(), method: req.method(), url });
    if (isDataRequest(url) && r.ok())
      data.push(r.json().then(countData, () => ({ answers: 0, hits: 0, buckets: 0 })));
  });
  const vis = [];
  try {
    for (const v of visualizations) {
      data = [];
      await page.goto('about:blank'); // a hash change alone would keep the last page's rendered panels
      // The editor's route takes the id as it is (%3A stays %3A); only what ends the path is escaped.
      await page.goto(`${base}/app/visualize#/edit/${v.id.replace(/[#?%]/g, encodeURIComponent)}?_g=${g}`);
      let problem = null;
      let editor = null;
      const loader = '[data-test-subj="visualizationLoader"], .visEditor__canvas';
      try {
        // Dashboards' editor sends a visualisation it cannot load back to the list ("notFound"), or
        // stays on an empty page with a "Saved object is missing" toast.
        await page.waitForFunction(
          `${MISSING} || document.querySelector(${JSON.stringify(loader)})`,
          undefined,
          {
            timeout: timeoutMs,
          },
        );
        editor = await page.evaluate(MISSING);
        if (!editor) {
          await settle(page, loader, inFlight, timeoutMs);
          problem = await problemOf(page.locator('body'));
          editor = await page.evaluate(MISSING);
        }
      } catch (e) {
        problem = `not rendered: ${String(e.message).split('\n')[0]}`;
      }
      const counts = (await Promise.all(data)).reduce(
        (a, c) => ({ answers: a.answers + c.answers, hits: a.hits + c.hits, buckets: a.buckets + c.buckets }),
        { answers: 0, hits: 0, buckets: 0 },
      );
      await page.screenshot({ path: join(shots, `vis-${v.id.replace(/[^\w-]+/g, '_')}.png`) });
      vis.push({ ...v, ...counts, problem, editor });
      log?.(
        `  vis ${v.title}: ${counts.hits} hits, ${counts.buckets} buckets${problem ? `, ${problem}` : ''}`,
      );
    }
    const dash = [];
    for (const d of dashboards) {
      await page.goto('about:blank');
      await page.goto(`${base}/app/dashboards#/view/${encodeURIComponent(d.id)}?_g=${g}`);
      const panels = [];
      try {
        await settle(page, '[data-test-subj="embeddablePanel"]', inFlight, timeoutMs);
        for (const p of await page.locator('[data-test-subj="embeddablePanel"]').all()) {
          const title = (await p.locator('[data-test-subj="dashboardPanelTitle"]').allInnerTexts())[0] ?? '';
          // The title element starts with a line for screen readers ("Dashboard panel: TITLE").
          panels.push({ title: title.trim().split('\n').pop().trim(), problem: await problemOf(p) });
        }
      } catch (e) {
        panels.push({ title: '(dashboard)', problem: `not rendered: ${String(e.message).split('\n')[0]}` });
      }
      await page.screenshot({ path: join(shots, `dashboard-${d.id}.png`), fullPage: true });
      dash.push({ ...d, panels });
      const bad = panels.filter((p) => p.problem);
      log?.(`  dashboard ${d.title}: ${panels.length} panels, ${bad.length} with a problem`);
    }
    return { vis, dash, failures, writes };
  } finally {
    await browser.close();
  }
}
