/**
 * Daily digests: each channel's schedule for its local day, at its digest time in its time zone
 * (`dueDigest`: sent late only within a few hours of the slot). Channels sharing a time zone and a
 * time share one slot computation; a day with nothing for a channel is skipped (recorded in the
 * ledger, so a restart does not reconsider it) unless the channel asked to hear "nothing today".
 * A digest held back by failures until its late window closes is dropped and logged with its key.
 */
import type { Series } from '../../protocol/types.ts';
import { digestReply } from '../cards.ts';
import { type Outgoing, target, targetKey } from '../dispatcher.ts';
import { ledgerKey } from '../ledger.ts';
import { DIGEST_LATE_WINDOW_MS, digestSeries, dueDigest } from '../plan.ts';
import type { JobContext } from './context.ts';

/** Lateness rule 3, as logged (with the keys). */
export const DIGEST_DROPPED = 'digest dropped: its slot passed more than 3 hours ago';

/** Plans this tick's digests and posts them. */
export async function runDigests(ctx: JobContext, now: number): Promise<void> {
  const { source, subs, dispatcher, drops } = ctx;
  // Held back (429s, backoff) until 3 hours after their slot: dropped by that rule, each logged.
  await drops.dropStale(now, DIGEST_DROPPED);
  const out: Outgoing[] = [];
  const skipped: string[] = [];
  for (const [group, members] of subs.digestGroups) {
    const [timezone, time] = group.split('|') as [string, string];
    const slot = dueDigest(now, timezone, time);
    if (!slot) continue;
    const groupKey = `d:${group}:${slot.localDate}`;
    if (dispatcher.groupsDone.has(groupKey)) continue;
    const known = [...source.known()].map((k) => k.series);
    const day = digestSeries(known, slot);
    // A bracket round is named by its place among its substage's series (all known, not the day's).
    const bySubstage = new Map<number, Series[]>();
    for (const s of known) bySubstage.set(s.substage.id, [...(bySubstage.get(s.substage.id) ?? []), s]);
    const stageSeries = (substageId: number) => bySubstage.get(substageId) ?? [];
    let pending = false;
    for (const sub of members) {
      const key = ledgerKey('digest', slot.localDate, sub.digestTime, sub);
      if (dispatcher.done.has(key) || dispatcher.disabled.has(targetKey(sub))) continue;
      // A channel subscribed after the slot gets its first digest the next day.
      if (sub.since !== undefined && slot.at < sub.since) continue;
      pending = true;
      const mine = day.filter((s) => subs.subscriberSet(s).has(sub));
      if (mine.length === 0 && sub.digestWhenEmpty === 'skip') {
        skipped.push(key);
        continue;
      }
      drops.dueUntil(key, slot.at + DIGEST_LATE_WINDOW_MS);
      out.push({
        kind: 'digest',
        key,
        sub,
        act: async (delivery, guard) =>
          (
            await delivery.post(
              target(sub),
              digestReply(mine, source.labels, sub, slot.localDate, stageSeries),
              key,
              guard,
            )
          ).messageId,
      });
    }
    if (!pending) dispatcher.groupsDone.add(groupKey);
  }
  // Nothing to say: recorded as skipped (claimed in one batch), so a restart does not reconsider it.
  await dispatcher.skip(skipped, 'skipped: nothing scheduled');
  await dispatcher.dispatch(out);
}
