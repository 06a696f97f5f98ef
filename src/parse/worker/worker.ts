// Entry of a parser thread: builds the URL filters and the page parser from the configuration it
// is given (exactly as the main thread would) and parses the pages it receives, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { Metadata } from '../../model/metadata.js';
import { loadURLFilters } from '../../urlfilters/load.js';
import { systemClock } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { createLogger } from '../../util/log.js';
import { createPageParser } from '../stage.js';
import { type ParseRequest, type ParserThreadConfig, toWire, type WorkerMessage } from './protocol.js';

const { config, logLevel } = workerData as { config: ParserThreadConfig; logLevel: string };
const log = createLogger(logLevel).child({ component: 'parser-thread' });
const chain = loadURLFilters(config, { logger: log });
const parser = createPageParser(config, { filter: chain, clock: systemClock });
const port = parentPort!;
const send = (m: WorkerMessage) => port.postMessage(m);

await parser.ready;
port.on('message', (req: ParseRequest) => {
  try {
    const content = Buffer.from(req.content.buffer, req.content.byteOffset, req.content.byteLength);
    const result = parser.parse({ url: req.url, metadata: Metadata.fromJSON(req.metadata), content });
    send({ type: 'result', id: req.id, result: toWire(result) });
  } catch (e) {
    send({ type: 'failed', id: req.id, error: errorMessage(e) });
  }
});
send({ type: 'ready' });
