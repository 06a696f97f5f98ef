import { runCrawl } from '../../app/run.js';
import { seedsRefused } from '../../app/seeds.js';
import { parseWorkersOption } from '../../app/workers/count.js';
import { checkAgentName } from '../../protocol/http/user-agent.js';
import { CrawlerError } from '../../util/errors.js';
import { type Command, InputError } from '../command.js';
import { exitCode } from '../exit.js';

function intOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CrawlerError('BAD_OPTION', `--${name} must be a whole number, got "${value}"`);
  return n;
}

export const runCommand: Command = {
  usage:
    'crawler run [--once] [--seed URL]... [--workers N|auto] [--instances M --instance I | --join] [options]',
  options: {
    once: { type: 'boolean', description: 'stop when nothing is due and nothing is in flight' },
    seed: {
      type: 'string',
      multiple: true,
      arg: 'URL',
      description: 'inject this URL before crawling (repeatable)',
    },
    instances: {
      type: 'string',
      arg: 'M',
      description: 'crawler instances sharing the status index (env CRAWLER_INSTANCES)',
    },
    instance: { type: 'string', arg: 'I', description: 'this instance, 0..M-1 (env CRAWLER_INSTANCE)' },
    workers: {
      type: 'string',
      arg: 'N|auto',
      description: 'crawler processes on this machine, each its part of the shards (topology.workers)',
    },
    join: {
      type: 'boolean',
      description: 'join the elastic crawl of the status index as one member of many (topology.join)',
    },
  },
  details:
    'Start-up checks the configuration (http.agent.name is required), the cluster and the indices\n' +
    '(created when missing). With M instances, instance I reads only the status shards s with\n' +
    's % M == I; URLs are routed by host, so each host is crawled by one instance. M may not exceed\n' +
    'the number of status shards (opensearch.status.shards).\n' +
    'With --workers N (or topology.workers), one Node.js process using about one core, a supervisor\n' +
    'starts N worker processes on this machine, each crawling its own part of the share (each host by\n' +
    'one worker); N x M may not exceed opensearch.status.shards (raise it and run crawler init\n' +
    '--recreate). "auto" is the available cores less a quarter of them (at least one) for an OpenSearch\n' +
    'node on this machine (an address on localhost), and at most the shards of the share. The\n' +
    'supervisor passes on signals, starts a worker that dies again (after 1 s, doubling; one that\n' +
    'still dies after 5 restarts, each within a minute of its start, stops the run, exit 3), logs one\n' +
    'progress line and one summary for all, and tags each worker\'s log lines with "worker". --once\n' +
    'ends when every worker has nothing left.\n' +
    'SIGINT/SIGTERM: stop taking URLs, finish fetches in flight and write everything, within\n' +
    'shutdown.deadline (30 s); exit 0. Past the deadline (OpenSearch down, say) what is left is given\n' +
    'up: one line says how many status updates were not written (those URLs keep their previous\n' +
    'state and come back when due) and the exit code is 1. A second signal exits at once (130); one\n' +
    'within a second of the first (Ctrl-C through npx, which passes it on again) counts once.\n' +
    'With --join (or topology.join), the process is one member of the elastic crawl of its status\n' +
    'index: start one on each machine, in any number, at any time. Each holds its fair share of the\n' +
    'status shards (shards / live members) through the leases; a member that stops heartbeating loses\n' +
    'its shards after opensearch.lease.ttl and the others adopt them; one that joins is handed shards\n' +
    'once their fetches ended and writes were acknowledged, and fetches their hosts no sooner than\n' +
    "their delays (a robots.txt Crawl-delay included) after the giver's last fetch. Members must run\n" +
    'the same crawl settings (a joiner that differs is refused, naming the keys). SIGTERM hands the\n' +
    'shards over and leaves. Its console lists the members, their shards, rates and heartbeats.\n' +
    'With --join --workers N each worker process is a member (named <host>-w<w>-<pid>-<random>);\n' +
    'the supervisor restarts one that dies (it rejoins; the dead one loses its shards when their\n' +
    'leases expire), stops the run (exit 3) when the crawl refuses one, and passes SIGTERM on: each\n' +
    'hands its shards over. --join does not go with --once or --instances.\n' +
    'A plain crawler run (without --join) still refuses to start while members hold the shards.',
  async run({ values, config, log, out }) {
    const cfg = config();
    // Checked before the options: a crawl without a name is refused whatever else is given.
    checkAgentName(cfg['http.agent.name']);
    const instancesGiven = values.instances ?? process.env.CRAWLER_INSTANCES;
    const instanceGiven = values.instance ?? process.env.CRAWLER_INSTANCE;
    if (instanceGiven !== undefined && instancesGiven === undefined) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance ${instanceGiven} needs --instances M (or CRAWLER_INSTANCES): how many instances share the status index`,
      );
    }
    const instances = intOption(instancesGiven, 'instances', 1);
    const instance = intOption(instanceGiven, 'instance', 0);
    if (instances < 1) {
      throw new CrawlerError('BAD_OPTION', `--instances must be at least 1, got ${instances}`);
    }
    if (instance >= instances) {
      throw new CrawlerError(
        'BAD_OPTION',
        `--instance must be between 0 and ${instances - 1}, got ${instance}`,
      );
    }
    const once = values.once === true;
    const seeds = (values.seed as string[] | undefined) ?? [];
    // A seed that cannot be crawled stops the command before anything is done.
    const bad = seedsRefused(cfg, seeds);
    if (bad.length > 0) throw new InputError(bad.join('; '));
    const join = values.join === true || cfg['topology.join'];
    const conflicting = [
      ...(once ? ['--once'] : []),
      ...(instancesGiven !== undefined ? ['--instances'] : []),
    ];
    const workers =
      values.workers !== undefined ? parseWorkersOption(String(values.workers)) : cfg['topology.workers'];
    const forward = [
      ...((values.conf as string[] | undefined) ?? []).flatMap((c) => ['--conf', c]),
      ...((values.set as string[] | undefined) ?? []).flatMap((x) => ['--set', x]),
      ...(values['log-level'] !== undefined ? ['--log-level', String(values['log-level'])] : []),
    ];
    return exitCode(
      await runCrawl({
        config: cfg,
        log,
        out,
        once,
        seeds,
        instances,
        instance,
        workers,
        join,
        conflicting: join ? conflicting : [],
        forward,
      }),
    );
  },
};
