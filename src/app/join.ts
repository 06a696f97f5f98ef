import type { Config } from '../config/schema.js';
import { CrawlerError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { embeddedLeftRunning, openCluster } from './cluster.js';
import { ElasticMember } from './member.js';
import type { Outcome } from './outcome.js';
import { StopSignals } from './signals.js';

/*
 * `crawler run --join` (topology.join): this process is one member of the elastic crawl of its status
 * index (app/member.ts). SIGINT/SIGTERM: its fetches end, its writes are acknowledged, its shards are
 * handed over to the other members, and it leaves.
 */

export interface JoinOptions {
  readonly config: Config;
  readonly log: Logger;
  readonly seeds: readonly string[];
  /** Options that do not go with --join, by name, when given. */
  readonly conflicting: readonly string[];
}

export async function runJoined(o: JoinOptions): Promise<Outcome> {
  const { config, log } = o;
  if (o.conflicting.length > 0) {
    throw new CrawlerError(
      'BAD_OPTION',
      `--join shares the status shards by membership: it does not go with ${o.conflicting.join(', ')} ` +
        '(start one --join process per machine; each takes its fair share)',
    );
  }
  let member: ElasticMember | undefined;
  let stopAsked = false;
  const stopListening = new StopSignals().listenToDrain(log, (sig) => {
    stopAsked = true;
    log.info(`${sig}: finishing fetches in flight, writing everything and handing the shards over`);
    member?.requestStop();
  });
  const { client, url } = await openCluster(config, log);
  try {
    member = new ElasticMember(config, { log, client, seeds: o.seeds });
    await member.join();
    if (stopAsked) member.requestStop();
    await member.run();
  } finally {
    stopListening();
    await client.close();
  }
  const left = url ? embeddedLeftRunning(config, url) : undefined;
  if (left) log.info(left);
  return 'ok';
}
