/**
 * What the notifier's parts share, below all of them: the logger they write to, the slice of the
 * tenant store they read, and the counters they add to (src/notify/notifier.ts hands them out).
 */
import type { Logger } from '../bot/logger.ts';
import type { TenantStore } from '../bot/tenants.ts';

export type NotifyLogger = Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;

/** The slice of the tenant store the notifier uses. */
export type NotifyTenants = Pick<TenantStore, 'get' | 'update' | 'list'>;

/** Counters for metrics, tests and the bench. */
export interface NotifierStats {
  ticks: number;
  /** Early ticks a pushed live change asked for (`PUSH_TICK_DELAY_MS` in notifier.ts). */
  pushTicks: number;
  sent: Record<'reminder' | 'live' | 'result' | 'digest' | 'tournament', number>;
  edits: number;
  dropped: number;
  transientFailures: number;
  permanentFailures: number;
  /** Upstream reads the notifier made itself (0 over a feed: the feed reads). */
  reads: number;
  /**
   * Reads for first reminders' match previews that the feed could not answer (form and head-to-head
   * beyond what it holds, a substage): a few per series, once. Over a feed, the only reads the
   * notifier makes itself.
   */
  previewReads: number;
  /**
   * Reads of a finished tournament's final stage and placements for its tournament-end card that
   * the feed does not hold: a few per tournament, once. Over a feed, counted here, not in `reads`.
   */
  tournamentReads: number;
  /** Live summaries read (every live series, at most `summariesPerRead` per live read). */
  summaries: number;
  /** Notifications the last tick left to the next one because its posting budget ran out. */
  deferred: number;
  /** Real ms of the slowest tick so far, by phase (the bench prints it). */
  slowestTick: Record<'subscriptions' | 'read' | 'reminders' | 'live' | 'digests', number> & {
    total: number;
  };
}

/** Every count at zero, as a new notifier starts. */
export function emptyStats(): NotifierStats {
  return {
    ticks: 0,
    pushTicks: 0,
    sent: { reminder: 0, live: 0, result: 0, digest: 0, tournament: 0 },
    edits: 0,
    dropped: 0,
    transientFailures: 0,
    permanentFailures: 0,
    reads: 0,
    previewReads: 0,
    tournamentReads: 0,
    summaries: 0,
    deferred: 0,
    slowestTick: { total: 0, subscriptions: 0, read: 0, reminders: 0, live: 0, digests: 0 },
  };
}
