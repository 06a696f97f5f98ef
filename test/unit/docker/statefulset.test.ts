import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { buildConfig } from '../../../src/config/load.js';

// No Kubernetes here: the example is checked for what the README promises of it, and its shell
// line is run (with a stand-in for node) to show that the pod's ordinal becomes the instance.
const text = readFileSync(
  new URL('../../../docker/kubernetes/crawler-statefulset.yaml', import.meta.url),
  'utf8',
);
interface Container {
  command: string[];
  args: string[];
  env: { name: string; value?: string }[];
}
interface Doc {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec: {
    clusterIP?: string;
    serviceName?: string;
    replicas?: number;
    selector?: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: { terminationGracePeriodSeconds: number; containers: Container[] };
    };
  };
}
const docs = parseAllDocuments(text).map((d) => d.toJS() as Doc);
const byKind = (kind: string) => docs.find((d) => d.kind === kind)!;
const set = byKind('StatefulSet');
const container = set.spec.template.spec.containers[0]!;
const env = Object.fromEntries(container.env.map((e) => [e.name, e.value ?? '']));

describe('docker/kubernetes/crawler-statefulset.yaml', () => {
  it('has a ConfigMap, a headless governing Service and the StatefulSet', () => {
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'Service', 'StatefulSet']);
    expect(byKind('Service').spec.clusterIP).toBe('None');
    expect(set.spec.serviceName).toBe(byKind('Service').metadata.name);
    expect(set.spec.selector?.matchLabels).toEqual(set.spec.template.metadata.labels);
  });

  it('runs as many pods as CRAWLER_INSTANCES, on a status index with a shard per worker', () => {
    expect(String(set.spec.replicas)).toBe(env.CRAWLER_INSTANCES);
    const conf = parse(byKind('ConfigMap').data!['crawl.yaml']!) as Record<string, unknown>;
    // The settings are valid crawler configuration.
    const { config, warnings } = buildConfig([{ source: 'configmap', entries: conf }]);
    expect(warnings).toEqual([]);
    expect(config['opensearch.status.shards']).toBeGreaterThanOrEqual(
      Number(env.CRAWLER_INSTANCES) * Number(env.CRAWLER_WORKERS),
    );
    expect(config['opensearch.addresses'].length).toBeGreaterThan(1);
  });

  it('gives a stopped pod longer than shutdown.deadline to write back', () => {
    expect(set.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(30);
  });

  it("makes the pod's ordinal its instance and execs the crawler (PID 1 gets SIGTERM)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'k8s-'));
    // A stand-in for node: prints the instance it was given and its arguments.
    writeFileSync(join(dir, 'node'), '#!/bin/sh\necho "$CRAWLER_INSTANCE/$CRAWLER_INSTANCES $*"\n');
    chmodSync(join(dir, 'node'), 0o755);
    expect(container.command).toEqual(['/bin/sh', '-c']);
    const out = execFileSync('/bin/sh', ['-c', container.args[0]!], {
      env: { ...env, HOSTNAME: 'crawler-3', PATH: `${dir}:/usr/bin:/bin` },
    }).toString();
    expect(out.trim()).toBe('3/4 /app/dist/cli/main.js run --conf /etc/crawler/crawl.yaml --workers 2');
    expect(container.args[0]).toMatch(/\bexec node /);
  });
});
