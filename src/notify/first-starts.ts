/**
 * The first start ever seen of each series, kept in the ledger as `start:<id>` (the start in place
 * of a message id): after a restart, or in another instance, a reminder still says its series moved
 * ("moved from 14:00"). One batched read, and one batched write for series never seen before.
 */
import { sentMessage } from './dispatcher.ts';
import type { Ledger } from './ledger.ts';
import type { Known } from './source.ts';
import type { NotifyLogger } from './types.ts';

/** Sets `firstStart` of series new to this process from the ledger, and records those new to every process. */
export async function keepFirstStarts(
  ledger: Ledger,
  newlyKnown: Known[],
  logger: NotifyLogger,
): Promise<void> {
  const fresh = newlyKnown.filter((k) => k.series.start !== null);
  if (fresh.length === 0) return;
  const keyOf = (k: Known) => `start:${k.series.id}`;
  try {
    const entries = await ledger.getMany(fresh.map(keyOf));
    const unseen: [string, string][] = [];
    for (const k of fresh) {
      const stored = sentMessage(entries.get(keyOf(k)));
      if (stored !== undefined) k.firstStart = stored;
      else unseen.push([keyOf(k), k.series.start!]);
    }
    if (unseen.length === 0) return;
    const won = await ledger.claimMany(unseen.map(([key]) => key));
    await ledger.markSentMany(unseen.filter(([key]) => won.has(key)));
  } catch (error) {
    // Only the "moved from" note depends on it: this process's own first sight stands in.
    logger.warn({ err: error }, 'first starts could not be read or kept in the ledger');
  }
}
