import { afterEach, describe, expect, it } from 'vitest';
import { Fetcher } from '../../../src/fetch/fetcher.js';
import { type FetchProtocol, robotsSource, type SubrequestSink } from '../../../src/fetch/ports.js';
import { MD } from '../../../src/model/keys.js';
import { Metadata } from '../../../src/model/metadata.js';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { FetchException } from '../../../src/protocol/http/errors.js';
import { RobotsService } from '../../../src/protocol/robots/fetch-robots.js';
import { protocolSettings } from '../../../src/protocol/settings.js';
import { systemClock } from '../../../src/util/clock.js';
import { html, ReopenableHost } from '../../support/host.js';
import { testProtocol } from '../protocol/servers.js';
import { fetcherOptions } from './support.js';

/*
 * A protocol that makes requests of its own while fetching a page (rendering) reports their answers;
 * those to the page's own host count in its health. Against a real server, with a stand-in for the
 * browser: what it reports is decided by the test.
 */

const hosts: ReopenableHost[] = [];
const protocols: HttpProtocol[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const p of protocols.splice(0)) await p.close();
});

async function setup(report: (sink: SubrequestSink, page: string) => void | Promise<void>) {
  const host = new ReopenableHost('127.0.24.41', (req, res) =>
    req.url === '/robots.txt' ? res.end('User-agent: *\nAllow: /\n') : html(res, 'page'),
  );
  await host.open();
  hosts.push(host);
  const http = testProtocol({}, { clock: systemClock });
  protocols.push(http);
  let sink: SubrequestSink | undefined;
  const rendering: FetchProtocol = {
    reportTo: (s) => {
      sink = s;
    },
    fetch: async (url, md) => {
      const res = await http.fetch(url, md);
      await report(sink!, url);
      return res;
    },
  };
  const robots = new RobotsService(
    protocolSettings({ 'http.agent.name': 'testbot', 'http.filter.ipaddress.exclude': [] }),
    { protocol: http },
  );
  const events: { url: string; status?: string; md: Metadata }[] = [];
  const lines: string[] = [];
  const fetcher = new Fetcher(
    fetcherOptions({ queue: { delayMs: 50, minDelayMs: 0, threadsPerQueue: 1, maxThreadsRules: [] } }),
    {
      protocol: rendering,
      robots: robotsSource(robots),
      clock: systemClock,
      log: { info: (_o, msg) => lines.push(msg), warn: (_o, msg) => lines.push(msg) },
      sink: {
        status: (s) => events.push({ url: s.url, status: s.status, md: s.metadata }),
        fetched: (f) => {
          events.push({ url: f.url, md: f.metadata });
        },
        discovered: () => {},
      },
    },
  );
  return { host, fetcher, events, lines };
}

describe("the requests of a rendered page in its host's health", () => {
  it('a 503 from the same host backs the host off; one from another host, or a 404, does not', async () => {
    const { host, fetcher, lines } = await setup((sink, page) => {
      sink.answered(page, 'http://127.0.24.99/x.js', 503);
      sink.answered(page, `${new URL(page).origin}/missing.js`, 404);
      sink.answered(page, `${new URL(page).origin}/api`, 503);
    });
    await fetcher.submit({ url: `${host.origin}/p`, metadata: new Metadata() });
    await fetcher.idle();
    expect(fetcher.stats.hostsBackingOff).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(
        /^host 127\.0\.24\.41 backing off after HTTP 503 to a request of a rendered page/,
      ),
    ]);
    fetcher.close();
  });

  it('a render that fails is the page\'s FETCH_ERROR "Render failed", not a failure of the host', async () => {
    const { host, fetcher, events } = await setup(() => {
      throw FetchException.of('render', 'not rendered: the browser died while rendering it, twice');
    });
    await fetcher.submit({ url: `${host.origin}/p`, metadata: new Metadata() });
    await fetcher.idle();
    expect(events).toHaveLength(1);
    expect(events[0]!.status).toBe('FETCH_ERROR');
    expect(events[0]!.md.getFirstValue(MD.fetchException)).toBe('Render failed');
    expect(fetcher.stats.hostsBackingOff).toBe(0);
    fetcher.close();
  });
});
