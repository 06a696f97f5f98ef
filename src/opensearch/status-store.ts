import type { StatusUpdate } from '../model/status-updater.js';
import type { StatusStore, WriteResult } from '../pipeline/ports.js';
import type { BulkWriter } from './bulk-writer.js';
import { documentId, type PartitionMode, partitionKey, toStatusSource } from './status-doc.js';

export interface StatusWriterDeps {
  readonly bulk: BulkWriter;
  readonly index: string;
  readonly partition: PartitionMode;
}

/**
 * The only writer of the status index during a crawl (the loop's StatusStore): writes each update
 * the status rules made, op_type create for DISCOVERED (an existing document wins) and index for
 * the rest, deferrals of DISCOVERED URLs included, routed by the document's key. What follows an
 * acknowledged write (the transition log, deletions, adoption) is the loop's to publish
 * (pipeline/status-writes.ts).
 */
export class StatusWriter implements StatusStore {
  constructor(private readonly deps: StatusWriterDeps) {}

  /** Resolves when the bulk writer has room (backpressure). */
  ready(): Promise<void> {
    return this.deps.bulk.ready();
  }

  async write(update: StatusUpdate): Promise<WriteResult> {
    const d = this.deps;
    const key = partitionKey(update.url, d.partition, update.fullMetadata);
    // The status index is the crawl's name: each document says so (`crawl`, as the metrics points).
    const doc = toStatusSource(update, key, d.index);
    const create = update.status === 'DISCOVERED' && !update.storedAsIs;
    const result = await d.bulk.add({
      op: create ? 'create' : 'index',
      index: d.index,
      id: documentId(update.url),
      routing: key,
      doc,
    });
    if (!result.ok)
      return { ok: false, status: result.status, error: result.error, closed: result.closed === true };
    // 201 on create: the URL is new to the index, so no spout can have emitted it yet.
    return {
      ok: true,
      version: result.version,
      key,
      created: create && result.status === 201,
      existed: create && result.status === 409,
    };
  }
}
