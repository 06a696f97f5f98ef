import { statsReport } from '../../app/admin.js';
import { memberLines } from '../../app/members.js';
import type { Command } from '../command.js';

const table = (rows: Record<string, number>) =>
  Object.entries(rows)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `    ${String(v).padStart(9)}  ${k}`);

export const statsCommand: Command = {
  usage: 'crawler stats [--json] [--host H] [options]',
  options: {
    json: { type: 'boolean', description: 'print one JSON object' },
    host: { type: 'string', arg: 'H', description: 'only the URLs of this host (the status key)' },
  },
  details:
    'Errors by fetch.exception and per day need fetch.exception and lastProcessedDate in\n' +
    'metadata.persist; without them those sections stay empty. Near-duplicates (duplicate.of, left\n' +
    'out with dedup.mode skip), similar pages (similar.to, indexed) and soft 404s are counted with\n' +
    'their top hosts.',
  async run({ values, config, log, out }) {
    const {
      stats: s,
      rendering: render,
      members,
    } = await statsReport(config(), log, values.host as string | undefined);
    if (values.json) {
      out(
        JSON.stringify(
          { ...s, rendering: render ?? null, ...(members.length > 0 ? { members } : {}) },
          null,
          2,
        ),
      );
      return 0;
    }
    out(`URLs: ${s.total}${values.host ? ` on ${values.host}` : ''}`);
    out('  by status:');
    for (const l of table(s.byStatus)) out(l);
    for (const [status, causes] of Object.entries(s.errorsByCause)) {
      out(`  ${status} by error.cause:`);
      for (const l of table(causes)) out(l);
    }
    for (const [status, sources] of Object.entries(s.errorsBySource)) {
      out(`  ${status} by error.source:`);
      for (const l of table(sources)) out(l);
    }
    for (const [status, codes] of Object.entries(s.errorsByStatusCode)) {
      if (Object.keys(codes).length === 0) continue;
      out(`  ${status} by the HTTP status of its last fetch (fetch.statusCode):`);
      for (const l of table(codes)) out(l);
    }
    for (const [status, exceptions] of Object.entries(s.errorsByException)) {
      if (Object.keys(exceptions).length === 0) continue;
      out(`  ${status} by fetch.exception:`);
      for (const l of table(exceptions)) out(l);
    }
    if (s.deferredHosts.length > 0) {
      out('  deferred (put back unfetched because of their host or its robots.txt) by defer.cause:');
      for (const l of table(s.deferredByCause)) out(l);
      out('  hosts with deferred URLs:');
      for (const h of s.deferredHosts) {
        const causes = Object.entries(h.causes)
          .map(([c, n]) => `${c}=${n}`)
          .join(' ');
        out(`    ${String(h.urls).padStart(9)}  ${h.host}  (${causes})`);
      }
    }
    // Near-duplicates and soft 404s (README: Duplicates and soft 404s).
    for (const [what, c] of [
      ['near-duplicates (FETCHED with duplicate.of)', s.duplicates],
      ['similar pages (indexed with similar.to)', s.similar],
      ['soft 404s (soft404.evidence)', s.soft404],
    ] as const) {
      out(`  ${what}: ${c.total}`);
      for (const h of c.hosts) out(`    ${String(h.urls).padStart(9)}  ${h.host}`);
    }
    out(`  due now: ${s.dueNow}; due within the hour (those due now included): ${s.dueWithinHour}`);
    out('  top hosts by URLs:');
    for (const h of s.topHosts) out(`    ${String(h.urls).padStart(9)}  ${h.host}`);
    out('  top hosts by errors:');
    for (const h of s.topErrorHosts) out(`    ${String(h.errors).padStart(9)}  ${h.host}`);
    out(
      `  rendering: hosts ${
        render
          ? Object.entries(render.byDecision)
              .map(([d, n]) => `${d} ${n}`)
              .join(', ') || 'none decided'
          : 'none decided'
      }`,
    );
    for (const h of render?.rendered ?? []) out(`    ${h.host}  (${h.reason}; sign ${h.signal})`);
    if (s.errorsPerDay.length > 0) {
      out('  ERROR per day (lastProcessedDate) by cause:');
      for (const d of s.errorsPerDay) out(`    ${d.day}  ${JSON.stringify(d.byCause)}`);
    }
    for (const l of memberLines(members)) out(l);
    return 0;
  },
};
