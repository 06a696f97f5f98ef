import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TIKA_API_VERSION } from '../../../src/tika/client.js';

// No Docker engine or compose binary runs here, so the compose file and the Dockerfile are checked
// for the structure `docker compose config` would insist on, plus the project's own rules.
const root = new URL('../../../', import.meta.url);
const read = (p: string) => readFileSync(new URL(p, root), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('docker/docker-compose.yml')) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};

describe('docker/docker-compose.yml', () => {
  it('has OpenSearch, Dashboards (both 2.19.x), Tika, a one-shot init and the crawler', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'crawler',
      'dashboards',
      'dashboards-init',
      'init',
      'opensearch',
      'tika',
    ]);
    expect(compose.services.opensearch!.image).toMatch(/^opensearchproject\/opensearch:2\.19\.\d+$/);
    expect(compose.services.dashboards!.image).toMatch(
      /^opensearchproject\/opensearch-dashboards:2\.19\.\d+$/,
    );
    expect(compose.services.init!.command).toEqual(['init']);
    expect(compose.services.crawler!.command?.[0]).toBe('run');
  });

  it('every service has an image or a build, and every dependency and named volume exists', () => {
    const valid = new Set(['service_started', 'service_healthy', 'service_completed_successfully']);
    for (const [name, s] of Object.entries(compose.services)) {
      expect(s.image ?? s.build, name).toBeTruthy();
      for (const [dep, d] of Object.entries(s.depends_on ?? {})) {
        expect(compose.services[dep], `${name} depends on ${dep}`).toBeDefined();
        expect(valid.has(d.condition), `${name} -> ${dep}: ${d.condition}`).toBe(true);
      }
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0]!;
        if (!source.startsWith('.') && !source.startsWith('/'))
          expect(compose.volumes?.[source], v).toBeDefined();
      }
      if (s.build) expect(existsSync(new URL(s.build.dockerfile, root))).toBe(true);
    }
  });

  it('the crawler services reach OpenSearch by service name, and ports bind to loopback only', () => {
    for (const name of ['init', 'crawler']) {
      expect(compose.services[name]!.environment?.OPENSEARCH_URL).toBe('http://opensearch:9200');
    }
    const ports = Object.values(compose.services).flatMap((s) => s.ports ?? []);
    expect(ports.length).toBeGreaterThan(0);
    for (const p of ports) expect(p).toMatch(/^127\.0\.0\.1:/);
  });

  it("sends documents to Apache's official Tika server (the API version the crawler speaks), not published on the host", () => {
    const tika = compose.services.tika!;
    expect(tika.image).toBe(`apache/tika:${TIKA_API_VERSION}.0`);
    expect(tika.ports).toBeUndefined();
    expect(compose.services.crawler!.environment?.TIKA_URL).toBe('http://tika:9998');
    expect(compose.services.crawler!.depends_on?.tika).toBeDefined();
  });

  it('imports the dashboards once Dashboards answers', () => {
    const d = compose.services['dashboards-init']!;
    expect(String(d.command)).toMatch(/_import\?overwrite=true/);
    // The index patterns (crawler.ndjson) before the Crawl metrics dashboard that refers to them.
    expect(String(d.command)).toMatch(/for f in crawler metrics; do/);
    expect(d.volumes).toEqual(['./dashboards:/dashboards:ro']);
  });

  it('documents the secure variant', () => {
    expect(read('docker/docker-compose.yml')).toMatch(/OPENSEARCH_INITIAL_ADMIN_PASSWORD/);
  });
});

describe('docker/Dockerfile', () => {
  const dockerfile = read('docker/Dockerfile');
  it('is multi-stage, runs as a non-root user, with crawler as the entrypoint', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBe(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "\/app\/dist\/cli\/main\.js"\]$/m);
  });

  it("installs Debian's chromium for rendering", () => {
    expect(dockerfile).toMatch(
      /^RUN apt-get update \\\n\s+&& apt-get install -y --no-install-recommends chromium /m,
    );
  });

  it('copies only paths that exist in the repository', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.split(/\s+/),
    );
    for (const s of sources) expect(existsSync(new URL(s, root)), s).toBe(true);
  });
});
