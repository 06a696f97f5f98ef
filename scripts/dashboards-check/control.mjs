// The crawl control half of scripts/dashboards-check.mjs: on each of our dashboards, a person opens it
// (every crawl shown), then chooses a crawl in its "Crawl" control (the combo box, as a person does),
// for each crawl in turn. Every data request a panel sends is recorded with its answer's hits; the
// same panel's request with and without the control's filter are matched by their body less that
// filter. A crawl's panels show that crawl only when, for every panel, the hits with crawl A chosen
// plus those with crawl B chosen are the hits with none chosen (the other crawl's documents are
// filtered out, none lost), the first crawl has hits on every panel, and no panel shows an error.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, countData, isDataRequest, problemOf, settle } from './browser.mjs';

/** A clause the control's filter added (match_phrase / term on crawl), or a request about the control itself. */
const CRAWL_CLAUSE = /"(?:match_phrase|match|term|terms)":\{"crawl"/;

/** Parts of a request that differ between two page loads of the same panel. */
const VOLATILE = new Set(['preference', 'sessionId']);

/** The request without the control's filter: the same panel's key whichever crawl is chosen. */
function keyOf(postData) {
  let body;
  try {
    body = JSON.parse(postData);
  } catch {
    body = postData.split('\n').filter((l) => l.trim() !== '');
  }
  const strip = (v) => {
    if (Array.isArray(v)) return v.filter((x) => !CRAWL_CLAUSE.test(JSON.stringify(x))).map(strip);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !VOLATILE.has(k))
          .map(([k, x]) => [k, strip(x)]),
      );
    return v;
  };
  return JSON.stringify(strip(body));
}

/** A short name of a data request for the log: its index and the fields it aggregates or queries. */
function labelOf(postData) {
  const index = /"index":"([^"]+)"/.exec(postData)?.[1] ?? '?';
  const fields = [...new Set([...postData.matchAll(/"field":"([^"]+)"/g)].map((m) => m[1]))];
  const query = /"query":"([^"]+)"/.exec(postData)?.[1];
  return `${index} ${fields.join(',')}${query ? ` ${query}` : ''}`;
}

/**
 * Opens each of `dashboards` ({id, title}) over the range `g` with no crawl chosen, then with each of
 * `crawls` chosen in its control, and returns per dashboard the comparison described above.
 */
export async function checkControl({ base, g, dashboards, crawls, shots, timeoutMs = 120_000, log }) {
  mkdirSync(shots, { recursive: true });
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args });
  const page = await (await browser.newContext({ viewport: { width: 1600, height: 1200 } })).newPage();
  const inFlight = new Set();
  let data = [];
  page.on('request', (req) => isDataRequest(req.url()) && inFlight.add(req));
  page.on('requestfailed', (req) => inFlight.delete(req));
  page.on('response', (r) => {
    const req = r.request();
    inFlight.delete(req);
    const body = req.postData() ?? '';
    // The control's own requests (the crawls it offers) aggregate the crawl field: not a panel's.
    if (!isDataRequest(r.url()) || !r.ok() || /"field":"crawl"/.test(body)) return;
    // An answer of a page left before it was read (the control's page, on the way to the next view) is none.
    data.push(
      r.json().then(
        (j) => ({ key: keyOf(body), label: labelOf(body), ...countData(j) }),
        () => null,
      ),
    );
  });

  /** Opens `url`, waits for every panel, and returns the panels' data requests and problems. */
  async function view(url, shot) {
    data = [];
    await page.goto('about:blank');
    await page.goto(url);
    await settle(page, '[data-test-subj="embeddablePanel"]', inFlight, timeoutMs);
    const panels = [];
    for (const p of await page.locator('[data-test-subj="embeddablePanel"]').all()) {
      const title = (await p.locator('[data-test-subj="dashboardPanelTitle"]').allInnerTexts())[0] ?? '';
      panels.push({ title: title.trim().split('\n').pop().trim(), problem: await problemOf(p) });
    }
    await page.screenshot({ path: join(shots, `${shot}.png`), fullPage: true });
    const requests = (await Promise.all(data)).filter((q) => q !== null);
    const hits = new Map();
    // A panel that asks twice (a re-render) gets the same answer: one per request body.
    for (const q of requests) hits.set(q.key, { label: q.label, hits: q.hits });
    return { panels, hits };
  }

  /** Chooses `crawl` in the dashboard's control as a person does; resolves with the URL it leads to. */
  async function choose(url, crawl) {
    await page.goto('about:blank');
    await page.goto(url);
    const box = page.locator('[data-test-subj="listControlSelect0"]');
    await box.locator('input').click({ timeout: timeoutMs });
    await box.locator('input').fill(crawl);
    await page.locator(`[data-test-subj="option_${crawl}"]`).click({ timeout: timeoutMs });
    // The control's filter lands in the dashboard's app state, which Dashboards writes to the URL.
    await page.waitForFunction(() => decodeURIComponent(location.href).includes('key:crawl'), undefined, {
      timeout: timeoutMs,
    });
    return page.url();
  }

  const results = [];
  try {
    for (const d of dashboards) {
      const url = `${base}/app/dashboards#/view/${encodeURIComponent(d.id)}?_g=${g}`;
      const all = await view(url, `control-${d.id}-all`);
      const chosen = {};
      for (const crawl of crawls)
        chosen[crawl] = await view(await choose(url, crawl), `control-${d.id}-${crawl}`);
      const rows = [...all.hits].map(([key, { label, hits }]) => {
        const per = Object.fromEntries(crawls.map((c) => [c, chosen[c].hits.get(key)?.hits ?? null]));
        const sum = Object.values(per).reduce((a, b) => a + (b ?? 0), 0);
        // The first crawl must show on every panel; the others may lack a series in a short crawl.
        const ok = (per[crawls[0]] ?? 0) > 0 && Object.values(per).every((n) => n !== null) && sum === hits;
        return { label, all: hits, ...per, ok };
      });
      // "No results found" is no problem for a crawl without hits on that panel (a short second crawl).
      const problems = crawls.flatMap((c) =>
        chosen[c].panels
          .filter((p) => p.problem && !(c !== crawls[0] && p.problem === 'No results found'))
          .map((p) => ({ crawl: c, ...p })),
      );
      const panels = all.panels.length;
      // Each panel but the control sends a data request of its own (none would be a panel not checked).
      const missing = Math.max(0, panels - 1 - rows.length);
      results.push({ ...d, panels, requests: rows.length, missing, rows, problems });
      log?.(`  control on ${d.title}: ${panels} panels, ${rows.length} panel data requests`);
      for (const r of rows)
        log?.(
          `    ${r.ok ? 'ok' : 'WRONG'} ${r.label}: none chosen ${r.all} hits, ${crawls.map((c) => `${c} ${r[c]}`).join(', ')}`,
        );
      for (const p of problems) log?.(`    PANEL with ${p.crawl} chosen: ${p.title}: ${p.problem}`);
    }
    return results;
  } finally {
    await browser.close();
  }
}
