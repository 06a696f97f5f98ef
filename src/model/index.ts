/**
 * The crawl rules: statuses, metadata, what travels to outlinks and what is stored, scheduling,
 * status updates and the transition log. Pure and synchronous; time comes from one Clock.
 */
export { type CacheSpec, DEFAULT_MAXIMUM_SIZE, parseCacheSpec } from './cache-spec.js';
export { type CacheStats, DiscoveredCache } from './discovered-cache.js';
export { ERROR_CAUSE, MD } from './keys.js';
export { Metadata, type MetadataJSON } from './metadata.js';
export {
  MetadataTransfer,
  type MetadataTransferConfig,
  type MetadataTransferOptions,
} from './metadata-transfer.js';
export * from './scheduler/index.js';
export { isStatus, STATUSES, type Status, statusFromHttpCode } from './status.js';
export {
  createStatusUpdater,
  type StatusEvent,
  type StatusUpdate,
  StatusUpdater,
  type StatusUpdaterConfig,
  type StatusUpdaterOptions,
} from './status-updater.js';
export {
  formatTransition,
  logTransition,
  type ReasonInput,
  TransitionLog,
  type TransitionLogger,
  type TransitionLogOptions,
  type TransitionRecord,
  transitionReason,
} from './transition.js';
export { isoDate, parseInstant, parseInteger, type RoundUnit, roundDate } from './values.js';
