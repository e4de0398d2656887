/**
 * The look-back after downtime (first tick of a process): notifications whose last moment to go out
 * fell while no notifier ran are never attempted, so no job of a running notifier would see them go
 * by. Here each one is recorded and logged as a drop with its key (`LateDrops`: once, across
 * restarts and instances), by the same lateness rules as while running:
 * - digests (rule 3): each channel's slots whose 3-hour window closed after `from`;
 * - results (rule 2): series that ended while down and more than 3 hours ago, in channels that
 *   want results or had the series' live card (its freeze is the result);
 * - live cards (rule 4): the same series in channels with live cards that never got one;
 * - reminders (rule 1): each lead of each channel whose last moment (the series' start, or the
 *   channel's next shorter lead) passed after `from`.
 * `from` is the last tick any notifier recorded on the ledger (`Ledger.lastRun`); without one (a
 * first start) nothing is looked up. What is still within its window at `now` is left to the jobs,
 * which send it late.
 * - removed series (rule 1): series deleted while down (read once from the service: no listing shows
 *   them any more, so no job would) have each reminder whose moment came after `from` logged as
 *   dropped; they get no live card or result. A failed read is logged and skips only this part.
 */
import { DateTime } from 'luxon';
import type { Series } from '../../protocol/types.ts';
import { targetKey } from '../dispatcher.ts';
import { LEDGER_RETENTION_MS, ledgerKey } from '../ledger.ts';
import {
  announces,
  DIGEST_LATE_WINDOW_MS,
  digestSlot,
  reminderLastMoment,
  type Subscription,
} from '../plan.ts';
import type { JobContext } from './context.ts';
import { DIGEST_DROPPED } from './digest.ts';
import { REMINDER_STARTED } from './reminders.ts';
import { CARD_DROPPED, cardKeyOf, RESULT_DROPPED, wasLive } from './results.ts';

/** Results and live cards are announced within this long after a series' end (as `resultsLateWindowMs`). */
export interface LookBackOptions {
  resultsLateWindowMs: number;
}

/** Records and logs what passed while no notifier ran, between `from` and `now` (see the module comment). */
export async function lookBack(
  ctx: JobContext,
  from: number,
  now: number,
  o: LookBackOptions,
): Promise<void> {
  // Nothing older than the ledger keeps: its entries (and so its record of drops) are gone by then.
  const since = Math.max(from, now - LEDGER_RETENTION_MS);
  if (since >= now) return;
  await missedDigests(ctx, since, now);
  const past = await ctx.source.pastSeries(since - o.resultsLateWindowMs, now);
  await missedSeries(ctx, past, since, now, o.resultsLateWindowMs);
  await removedSeries(ctx, since, now);
}

/** The reminders of series deleted in (since, now] whose moment came after `since`: dropped. */
async function removedSeries(ctx: JobContext, since: number, now: number): Promise<void> {
  let removed: Series[];
  try {
    removed = await ctx.source.removedSeries(since, now);
  } catch (error) {
    ctx.logger.warn(
      { err: error },
      'series deleted while down could not be read; their reminders are not logged',
    );
    return;
  }
  const keys: string[] = [];
  const named: number[] = [];
  for (const series of removed) {
    const start = Date.parse(series.start ?? '');
    const subs = ctx.subs.subscribersOf(series).filter((sub) => sub.kinds.has('reminders'));
    if (subs.length > 0) named.push(series.id);
    for (const sub of subs)
      for (const lead of sub.leads) {
        const at = start - lead * 60_000;
        if (at > since && (sub.since === undefined || at >= sub.since))
          keys.push(ledgerKey('reminder', series.id, `${lead}m@${start / 60_000}`, sub));
      }
  }
  if (named.length > 0)
    ctx.logger.info(
      { series: named },
      'series deleted while no notifier ran: no reminder, live card or result',
    );
  await ctx.drops.log(keys, REMINDER_STARTED);
}

/** Each channel's digest slots whose window closed in (since, now], by time zone and time. */
async function missedDigests(ctx: JobContext, since: number, now: number): Promise<void> {
  const { subs, dispatcher, drops } = ctx;
  for (const [group, members] of subs.digestGroups) {
    const [timezone, time] = group.split('|') as [string, string];
    const keys: string[] = [];
    // From the local day before the earliest slot that can count, to today.
    const first = DateTime.fromMillis(since - DIGEST_LATE_WINDOW_MS, { zone: timezone }).minus({ days: 1 });
    const last = DateTime.fromMillis(now, { zone: timezone }).toISODate()!;
    for (let day = first; day.toISODate()! <= last; day = day.plus({ days: 1 })) {
      const date = day.toISODate()!;
      const slot = digestSlot(date, timezone, time);
      const closed = slot.at + DIGEST_LATE_WINDOW_MS;
      if (closed <= since || closed > now) continue;
      for (const sub of members) {
        if (dispatcher.disabled.has(targetKey(sub))) continue;
        // A channel subscribed after the slot was not owed that digest.
        if (sub.since !== undefined && slot.at < sub.since) continue;
        keys.push(ledgerKey('digest', date, sub.digestTime, sub));
      }
    }
    await drops.log(keys, DIGEST_DROPPED);
  }
}

/** Results, live cards and reminders of finished series that passed in (since, now]. */
async function missedSeries(
  ctx: JobContext,
  past: Series[],
  since: number,
  now: number,
  lateWindowMs: number,
): Promise<void> {
  const { subs, ledger, drops } = ctx;
  const results: string[] = [];
  const cards: string[] = [];
  const reminders: string[] = [];
  const pending: { series: Series; sub: Subscription }[] = [];
  for (const series of past) {
    if (series.start === null) continue;
    const start = Date.parse(series.start);
    const end = Date.parse(series.end ?? series.start);
    for (const sub of subs.subscribersOf(series)) {
      if (sub.kinds.has('reminders'))
        for (const lead of sub.leads) {
          const at = start - lead * 60_000;
          if (reminderLastMoment(start, lead, sub.leads) <= since) continue;
          if (sub.since === undefined || at >= sub.since)
            reminders.push(ledgerKey('reminder', series.id, `${lead}m@${start / 60_000}`, sub));
        }
      if (!(sub.kinds.has('live') || sub.kinds.has('results')) || !announces(sub, series, 'result')) continue;
      // Still within its window: the results job announces it (late, within the rule).
      if (end + lateWindowMs > now || end + lateWindowMs <= since) continue;
      pending.push({ series, sub });
    }
  }
  // Whether each channel had the live card decides what was dropped: the freeze (the result key),
  // or the card itself.
  const entries = await ledger.getMany(pending.map(({ series, sub }) => cardKeyOf(series, sub)));
  for (const { series, sub } of pending) {
    const card = entries.get(cardKeyOf(series, sub))?.state;
    const hadCard = card === 'sent';
    if (sub.kinds.has('results') || hadCard) results.push(ledgerKey('result', series.id, 'over', sub));
    if (
      sub.kinds.has('live') &&
      !hadCard &&
      card !== 'failed' &&
      wasLive(series) &&
      announces(sub, series, 'live')
    )
      cards.push(cardKeyOf(series, sub));
  }
  await drops.log(reminders, REMINDER_STARTED);
  await drops.log(cards, CARD_DROPPED);
  await drops.log(results, RESULT_DROPPED);
}
