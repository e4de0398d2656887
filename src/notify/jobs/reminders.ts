/**
 * Reminders: "X vs Y starts in 15 minutes", per channel and lead. For each known series with a lead
 * due (`planReminders`), each subscriber whose own leads make this one due gets one post, keyed
 * `reminder:<series>:<lead>m@<start minute>:<channel>` (a moved series gets reminders for its new
 * start). A reminder is never sent late: one whose series started or was removed is dropped and
 * logged once; one due in a person's quiet hours waits for them to end.
 */
import type { Preview } from '../../bot/preview.ts';
import type { Reply } from '../../bot/reply.ts';
import type { Series } from '../../protocol/types.ts';
import { reminderReply } from '../cards.ts';
import { type Outgoing, target, targetKey } from '../dispatcher.ts';
import { reminderBatch } from '../grouping.ts';
import { ledgerKey } from '../ledger.ts';
import { inQuietHours, planReminders, reminderLastMoment, type Subscription } from '../plan.ts';
import type { Known } from '../source.ts';
import type { JobContext } from './context.ts';

/** Lateness rule 1, as logged (with the keys). */
export const REMINDER_STARTED = 'reminder dropped: series started or removed';
export const REMINDER_SUPERSEDED = 'reminder dropped: a shorter lead was due before it went out';

/** The group of one reminder (series, lead, start): every subscriber has had it once it is done. */
function groupOf(series: Series, lead: number): string {
  return `r:${series.id}:${lead}:${series.start}`;
}

export class Reminders {
  readonly #ctx: JobContext;
  /** Reminders held in a person's quiet hours, already logged (each once). */
  readonly #loggedHolds = new Set<string>();
  /** Previews of series with a first reminder going out, by `<series>@<start>` (read once). */
  readonly #previews = new Map<string, Preview | null>();

  constructor(ctx: JobContext) {
    this.#ctx = ctx;
  }

  /** Does a reminder of this series fall due before it starts, and is it not yet done? (The source re-reads it fresh.) */
  dueSoon(series: Series, now: number): boolean {
    if (series.start === null || series.lifecycle !== 'upcoming') return false;
    const start = Date.parse(series.start);
    for (const lead of this.#ctx.subs.leadsOf(series)) {
      const at = start - lead * 60_000;
      if (at <= now && now < start && !this.#ctx.dispatcher.groupsDone.has(groupOf(series, lead)))
        return true;
    }
    return false;
  }

  /** Hourly, with the other in-memory marks (`Notifier`): the logged holds and previews kept stay few. */
  forget(stale: (key: string) => boolean): void {
    for (const key of this.#loggedHolds) if (stale(key)) this.#loggedHolds.delete(key);
    // Previews are wanted for minutes only (the first reminder's tick, and a retry of its post).
    if (this.#previews.size > 1000) this.#previews.clear();
  }

  /**
   * Reads the previews of the series whose first reminder goes out this tick. A preview that cannot
   * be read is left out (the reminder goes without it, never later) and logged.
   */
  async #readPreviews(wanted: Map<string, Series>): Promise<void> {
    const { source, logger } = this.#ctx;
    await Promise.all(
      [...wanted].map(async ([key, series]) => {
        if (this.#previews.has(key)) return;
        try {
          this.#previews.set(key, await source.preview(series));
        } catch (error) {
          this.#previews.set(key, null);
          logger.warn(
            { err: error, series: series.id },
            'match preview could not be read; reminder sent without it',
          );
        }
      }),
    );
  }

  /** Plans this tick's reminders and posts them. */
  async run(now: number): Promise<void> {
    const { source, dispatcher, drops } = this.#ctx;
    const tick: TickReminders = {
      now,
      out: [],
      superseded: [],
      started: [],
      replies: new Map(),
      previews: new Map(),
    };
    for (const known of source.known()) this.#plan(known, tick);
    await this.#readPreviews(tick.previews);
    await drops.log(tick.started, REMINDER_STARTED);
    await drops.log(tick.superseded, REMINDER_SUPERSEDED);
    await dispatcher.dispatch(tick.out);
  }

  /** One series' due reminders, per lead and channel, into `tick`. */
  #plan(known: Known, tick: TickReminders): void {
    const { subs, dispatcher, drops } = this.#ctx;
    const { now, out, superseded } = tick;
    const { series } = known;
    if (series.start === null) return;
    // The pooled leads are cached per subscriber list: a series with nothing due costs no scan of
    // its subscribers (most series, most ticks).
    const leads = subs.leadsOf(series);
    if (leads.length === 0) return;
    const plans = planReminders(series, leads, now, { supersede: false }).filter(
      (p) => p.action !== 'wait' && !dispatcher.groupsDone.has(groupOf(series, p.lead)),
    );
    if (plans.length === 0) return;
    const subscribers = subs.subscribersOf(series).filter((s) => s.kinds.has('reminders'));
    // Leads pooled from several channels are planned independently; each channel's own leads decide
    // below which of its due reminders supersede the others.
    for (const plan of plans) {
      const group = groupOf(series, plan.lead);
      const members = subscribers.filter((s) => s.leads.includes(plan.lead));
      const at = `${plan.lead}m@${Date.parse(series.start) / 60_000}`;
      if (plan.action === 'drop') {
        // Never sent late (lateness rule 1): recorded and logged once, unless its last moment (its
        // series' start, or its channel's next shorter lead) was before the drops' floor, when a
        // notifier that ran then decided it.
        dispatcher.groupsDone.add(group);
        const start = Date.parse(series.start);
        for (const sub of members)
          if (
            Math.min(reminderLastMoment(start, plan.lead, sub.leads), now) > drops.floor &&
            (sub.since === undefined || plan.at >= sub.since)
          )
            tick.started.push(ledgerKey('reminder', series.id, at, sub));
        continue;
      }
      // Each member's own decision for this lead (a shorter due lead of theirs supersedes it).
      let pending = false;
      for (const sub of members) {
        const ownPlans = planReminders(series, sub.leads, now);
        const own = ownPlans.find((p) => p.lead === plan.lead);
        const key = ledgerKey('reminder', series.id, at, sub);
        // Lateness rule 1: a shorter lead now due replaces this one (logged if it never went out, and
        // if that shorter lead came due after the drops' floor: a first start logs no past).
        const replacedAt = ownPlans.find((p) => p.action === 'send')?.at ?? now;
        if (own?.action === 'superseded' && !dispatcher.done.has(key) && replacedAt > drops.floor)
          superseded.push(key);
        if (own?.action !== 'send') continue;
        if (dispatcher.done.has(key)) continue;
        pending = true;
        // Quiet hours hold it: a later tick sends it once they end, unless it is stale by then (a
        // shorter lead due instead, or the series started: dropped and logged as such above).
        if (this.#held(sub, key, now)) continue;
        out.push(this.#outgoing(known, series.start, plan.lead, sub, key, tick));
      }
      if (!pending) dispatcher.groupsDone.add(group);
    }
  }

  /** Is this reminder held by the person's quiet hours? Logged once per reminder. */
  #held(sub: Subscription, key: string, now: number): boolean {
    if (!sub.quiet || !inQuietHours(sub.quiet, sub.timezone, now)) return false;
    if (!this.#loggedHolds.has(key)) {
      this.#loggedHolds.add(key);
      this.#ctx.logger.info({ key, quiet: sub.quiet, timezone: sub.timezone }, 'reminder held: quiet hours');
    }
    return true;
  }

  /** One channel's reminder of a series at `lead`: its post, the reply built once per audience. */
  #outgoing(
    known: Known,
    start: string,
    lead: number,
    sub: Subscription,
    key: string,
    tick: TickReminders,
  ): Outgoing {
    const { source, dispatcher } = this.#ctx;
    const { replies } = tick;
    const { series } = known;
    const movedFrom = known.firstStart !== null && known.firstStart !== start ? known.firstStart : undefined;
    // The first reminder this channel gets of the series (no longer lead of its went out) carries
    // the match preview.
    const first = !sub.leads.some(
      (longer) =>
        longer > lead &&
        dispatcher.done.has(
          ledgerKey('reminder', series.id, `${longer}m@${Date.parse(start) / 60_000}`, sub),
        ),
    );
    const previewKey = `${series.id}@${start}`;
    if (first) tick.previews.set(previewKey, series);
    const reply = () => {
      const memoKey = `${series.id}|${lead}|${sub.spoilers}|${sub.t.locale}|${sub.role ?? ''}|${first}`;
      let made = replies.get(memoKey);
      if (!made) {
        const casters = series.casters.flatMap((c) => {
          const found = source.caster(c.caster.id);
          return found ? [found] : [];
        });
        const preview = first ? this.#previews.get(previewKey) : undefined;
        made = reminderReply(series, source.labels, sub, {
          lead,
          casters,
          ...(movedFrom ? { movedFrom } : {}),
          ...(preview ? { preview } : {}),
        });
        replies.set(memoKey, made);
      }
      return made;
    };
    return {
      kind: 'reminder',
      key,
      sub,
      // Reminders of one channel due in the same minute are posted as one message (the dispatcher).
      batch: reminderBatch(targetKey(sub), Date.parse(start) - lead * 60_000),
      reply,
      act: async (delivery, guard) => (await delivery.post(target(sub), reply(), key, guard)).messageId,
    };
  }
}

/** What one tick's planning gathers: the posts, the superseded keys, the replies built once. */
interface TickReminders {
  now: number;
  out: Outgoing[];
  superseded: string[];
  /** Keys of reminders whose series started (or was removed) before they went out. */
  started: string[];
  /** One reply per series, lead and audience (spoilers, role), shared by every channel that gets it. */
  replies: Map<string, Reply>;
  /** Series whose first reminder goes out: their previews are read before anything is posted. */
  previews: Map<string, Series>;
}
