/**
 * What every notification job is handed: where it reads (`source`), who wants what (`subs`), and the
 * one way anything is posted (`dispatcher`: claim, send, mark).
 */
import type { Logger } from '../../bot/logger.ts';
import type { Clock } from '../../core/clock.ts';
import type { Dispatcher } from '../dispatcher.ts';
import type { LateDrops } from '../late-drops.ts';
import type { Ledger } from '../ledger.ts';
import type { NotifySource } from '../source.ts';
import type { SubscriptionIndex } from '../subscriptions.ts';

export type NotifyLogger = Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;

/** Counters for metrics, tests and the bench. */
export interface NotifierStats {
  ticks: number;
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
  /** Live summaries read (every live series, at most `summariesPerRead` per live read). */
  summaries: number;
  /** Notifications the last tick left to the next one because its posting budget ran out. */
  deferred: number;
  /** Real ms of the slowest tick so far, by phase (the bench prints it). */
  slowestTick: Record<'subscriptions' | 'read' | 'reminders' | 'live' | 'digests', number> & {
    total: number;
  };
}

export interface JobContext {
  clock: Clock;
  source: NotifySource;
  subs: SubscriptionIndex;
  dispatcher: Dispatcher;
  /** Drops by the lateness rules: recorded in the ledger and logged with their keys, once. */
  drops: LateDrops;
  ledger: Ledger;
  logger: NotifyLogger;
  stats: NotifierStats;
}
