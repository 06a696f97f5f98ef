import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStores } from '../../../src/app/stores.js';
import { Metadata } from '../../../src/model/metadata.js';
import { createClient } from '../../../src/opensearch/client.js';
import { systemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { deleteIndices, testConfig, uniqueIndexNames } from '../../support/opensearch.js';

const names = uniqueIndexNames('status-store');
afterAll(() => deleteIndices(names.status, names.content));

describe('the status store counts what is in hand', () => {
  it('a found link counts as pending from the call to write until it is acknowledged; a URL of the crawl does not', async () => {
    const config = testConfig(names, { 'status.transitions.index.name': '' });
    const { client } = createClient(config);
    const stores = buildStores({ client, config, clock: systemClock, log: silentLogger });
    try {
      const found = stores.status.inject({
        url: 'http://found.test/a',
        status: 'DISCOVERED',
        metadata: new Metadata(),
      });
      const own = stores.status.settle({
        url: 'http://found.test/b',
        status: 'FETCHED',
        metadata: new Metadata(),
      });
      expect(stores.status.pendingFound).toBe(1);
      await Promise.all([found, own]);
      await stores.flush();
      expect(stores.status.pendingFound).toBe(0);
      expect(stores.status.stats.written).toBe(2);
    } finally {
      stores.close();
      await client.close();
    }
  });
});

describe('the status store after an acknowledged write', () => {
  it('a listener that throws is logged; the URL still settles and nothing is left pending', async () => {
    const config = testConfig(names, { 'status.transitions.index.name': '' });
    const { client } = createClient(config);
    const lines: { level: number; msg: string; url?: string; err?: string }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const stores = buildStores({ client, config, clock: systemClock, log });
    stores.status.subscribe(() => {
      throw new Error('listener broke');
    });
    try {
      const url = 'http://listener.test/new';
      const written = await stores.status.discover([{ url, metadata: new Metadata() }]);
      await stores.flush();
      expect(await written?.done).toBe(true);
      expect(stores.status.pending).toBe(0);
      expect(stores.status.stats.written).toBe(1);
      const logged = lines.find((l) => l.msg === 'after an acknowledged status write; the write stands');
      expect(logged).toMatchObject({ level: 50, url, err: 'listener broke' });
    } finally {
      stores.close();
      await client.close();
    }
  });
});
