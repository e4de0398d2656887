/**
 * Late drops: a due notification that a lateness rule (docs/notifications.md, "Lateness rules") keeps from
 * ever going out is logged with its key, once, by one instance. The drop is recorded in the ledger (the
 * key claimed and failed as `dropped: <rule>`), so no other instance and no restart logs it again, nor
 * sends it. A key the ledger knows as sent or failed was decided otherwise: not a drop.
 *
 * `floor` is the moment from which this deployment answers for drops: the last tick any notifier
 * recorded on the ledger before this process started (`Ledger.lastRun`), or this process's first
 * tick on a first start. A notification whose last moment to go out fell before it is not logged
 * here: a notifier that ran then decided it (sent it, or logged its drop), and a fresh install is not
 * told about the whole past.
 */
import { runLimited } from './dispatcher.ts';
import type { Ledger, LedgerEntry } from './ledger.ts';
import type { NotifierStats, NotifyLogger } from './types.ts';

export interface LateDropsOptions {
  ledger: Ledger;
  logger: NotifyLogger;
  stats: NotifierStats;
  /** The dispatcher's keys known to be final: a drop recorded is final too. */
  done: Set<string>;
}

export class LateDrops {
  /** See the module comment; set on the first tick (until then nothing counts). */
  floor = Number.POSITIVE_INFINITY;

  readonly #o: LateDropsOptions;
  /** Keys whose drop this process logged (or found decided), so the ledger is not asked again. */
  readonly #logged = new Set<string>();
  /** Keys due with a last moment (digests: 3 hours after their slot), for `dropStale`. */
  readonly #staleAt = new Map<string, number>();

  constructor(options: LateDropsOptions) {
    this.#o = options;
  }

  /**
   * Records and logs the drop of `keys` (one line, `message`, with the keys this call recorded).
   * Keys sent or failed already are left out; a key another holder still claims is left to it (a
   * later call records the drop if it gives the key back). Returns the keys left undecided.
   */
  async log(keys: string[], message: string): Promise<string[]> {
    const { ledger, logger, stats, done } = this.#o;
    const fresh = [...new Set(keys)].filter((key) => !this.#logged.has(key) && !done.has(key));
    if (fresh.length === 0) return [];
    let won: Set<string>;
    let entries = new Map<string, LedgerEntry>();
    try {
      won = new Set((await ledger.claimMany(fresh)).keys());
      const lost = fresh.filter((key) => !won.has(key));
      if (lost.length > 0) entries = await ledger.getMany(lost);
      await runLimited(
        [...won].map((key) => () => ledger.fail(key, `dropped: ${message}`)),
        16,
      );
    } catch (error) {
      // The ledger cannot record it now: the drop is still logged (another instance may log it too).
      logger.warn({ err: error }, 'a late drop could not be recorded in the ledger');
      won = new Set(fresh);
    }
    const undecided: string[] = [];
    for (const key of fresh) {
      const state = entries.get(key)?.state;
      if (won.has(key) || state === 'sent' || state === 'failed') {
        this.#logged.add(key);
        done.add(key);
      } else if (state === 'claimed') undecided.push(key);
    }
    if (won.size === 0) return undecided;
    stats.dropped += won.size;
    logger.info({ keys: [...won] }, message);
    return undecided;
  }

  /** Notes that `key` is due and may go out until `staleAt` (simulated ms), for `dropStale`. */
  dueUntil(key: string, staleAt: number): void {
    if (!this.#o.done.has(key)) this.#staleAt.set(key, staleAt);
  }

  /**
   * Keys noted with `dueUntil` whose last moment passed before they went out (held back by failures
   * and backoff): recorded and logged as dropped (`log`), once each; a key another holder still
   * claims is looked at again at the next call.
   */
  async dropStale(now: number, message: string): Promise<void> {
    const stale: string[] = [];
    for (const [key, at] of this.#staleAt) {
      if (at > now) continue;
      this.#staleAt.delete(key);
      if (!this.#o.done.has(key)) stale.push(key);
    }
    for (const key of await this.log(stale, message)) this.#staleAt.set(key, now);
  }

  /** Forgets the in-memory marks of keys `stale` says are long past (the ledger still holds them). */
  forget(stale: (key: string) => boolean): void {
    for (const key of this.#logged) if (stale(key)) this.#logged.delete(key);
    for (const key of this.#staleAt.keys()) if (stale(key)) this.#staleAt.delete(key);
  }
}
