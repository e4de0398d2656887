/**
 * What every notification job is handed: where it reads (`source`), who wants what (`subs`), and the
 * one way anything is posted (`dispatcher`: claim, send, mark).
 */
import type { Clock } from '../../core/clock.ts';
import type { Dispatcher } from '../dispatcher.ts';
import type { LateDrops } from '../late-drops.ts';
import type { Ledger } from '../ledger.ts';
import type { NotifySource } from '../source.ts';
import type { SubscriptionIndex } from '../subscriptions.ts';
import type { NotifierStats, NotifyLogger } from '../types.ts';

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
