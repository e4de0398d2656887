/**
 * Results: when a series ends, each channel that had its live card gets the card frozen with the
 * final score (edited in place); a channel with results but no card gets one result post. Results
 * respect each channel's spoiler policy (`announces`) and are not announced past
 * `resultsLateWindowMs` after the end (after downtime). Keyed `result:<series>:over:<channel>`.
 */
import type { Reply } from '../../bot/reply.ts';
import type { Series } from '../../protocol/types.ts';
import { liveReply, resultReply } from '../cards.ts';
import { isUnknownMessage, type Outgoing, runLimited, sentMessage, target } from '../dispatcher.ts';
import { ledgerKey } from '../ledger.ts';
import { inQuietHours, type Subscription } from '../plan.ts';
import type { Known } from '../source.ts';
import type { JobContext } from './context.ts';

/** Live card message ids by card key, and the last content sent to each (shared with `LiveCards`). */
export type CardIds = Map<string, { messageId: string; last: string }>;

/** Replies built once per tick and shared by every channel with the same audience. */
export type ReplyMemo = Map<string, { reply: Reply; json: string }>;

/** Lateness rules 2 and 4, as logged (with the keys). */
export const RESULT_DROPPED = 'result dropped: series ended more than 3 hours ago';
export const CARD_DROPPED = 'live card dropped: series ended before it could be posted';

/**
 * Whether a series that ended was ever live: a series over at its start (forfeited before play) was
 * not, so no live card was ever due and closing its card key drops nothing.
 */
export function wasLive(series: Series): boolean {
  if (series.start === null || series.end === null) return true;
  return Date.parse(series.end) > Date.parse(series.start);
}

export function cardKeyOf(series: Series, sub: Subscription): string {
  return ledgerKey('live', series.id, 'card', sub);
}

export class Results {
  readonly #ctx: JobContext;
  readonly #cards: CardIds;
  readonly #lateWindowMs: number;
  /** Ended series (`o:<id>`) whose results this process had pending: a late drop of one is logged. */
  readonly #endedPending = new Set<string>();

  constructor(ctx: JobContext, cards: CardIds, lateWindowMs: number) {
    this.#ctx = ctx;
    this.#cards = cards;
    this.#lateWindowMs = lateWindowMs;
  }

  /**
   * Ended series with channels still to tell (within the late window), each with those channels.
   * Results this process had pending that fall past the window (held back by failures such as 429s)
   * are logged as dropped, with their keys; series that ended during downtime are not looked up.
   */
  async pending(ended: Known[], now: number): Promise<[Known, Subscription[]][]> {
    const { subs, dispatcher, drops } = this.#ctx;
    const pending: [Known, Subscription[]][] = [];
    const tooLate: string[] = [];
    for (const k of ended) {
      const group = `o:${k.series.id}`;
      if (dispatcher.groupsDone.has(group)) continue;
      const members = subs
        .subscribersOf(k.series)
        .filter(
          (sub) =>
            (sub.kinds.has('live') || sub.kinds.has('results')) &&
            subs.announces(sub, k.series, 'result') &&
            !dispatcher.done.has(ledgerKey('result', k.series.id, 'over', sub)),
        );
      const endAt = Date.parse(k.series.end ?? k.series.start ?? new Date(now).toISOString());
      if (endAt < now - this.#lateWindowMs) {
        dispatcher.groupsDone.add(group);
        // Lateness rule 2.
        if (this.#endedPending.has(group))
          tooLate.push(...members.map((sub) => ledgerKey('result', k.series.id, 'over', sub)));
        continue;
      }
      if (members.length === 0) dispatcher.groupsDone.add(group);
      else {
        pending.push([k, members]);
        this.#endedPending.add(group);
      }
    }
    await drops.log(tooLate, RESULT_DROPPED);
    return pending;
  }

  forget(stale: (key: string) => boolean): void {
    for (const key of this.#endedPending) if (stale(key)) this.#endedPending.delete(key);
  }

  /**
   * At a series' end, whether each channel has a live card is asked of the ledger afresh (any
   * instance may have posted it since this one last looked). A card key nobody ever claimed is
   * closed (claimed and failed as "ended before a card"), so no instance posts a card after the
   * result. Returns the keys decided: sent (the card is frozen) or closed (a result where wanted);
   * a card still claimed by another holder is left for a later tick. A closed card of a series that
   * ended after the drops' floor is a drop (lateness rule 4), logged with its key.
   */
  async settleCards(ended: [Known, Subscription[]][]): Promise<Set<string>> {
    const { ledger, logger, stats, drops } = this.#ctx;
    const settled = new Set<string>();
    const endOf = new Map<string, number>();
    const neverLive = new Set<string>();
    for (const [k, members] of ended)
      for (const sub of members) {
        const key = cardKeyOf(k.series, sub);
        endOf.set(key, Date.parse(k.series.end ?? k.series.start ?? '') || 0);
        if (!wasLive(k.series)) neverLive.add(key);
      }
    const unknown = [...endOf.keys()].filter((key) => {
      if (this.#cards.has(key)) settled.add(key);
      return !this.#cards.has(key);
    });
    if (unknown.length === 0) return settled;
    const entries = await ledger.getMany(unknown);
    const absent: string[] = [];
    for (const key of unknown) {
      const entry = entries.get(key);
      const messageId = sentMessage(entry);
      if (messageId !== undefined) {
        this.#cards.set(key, { messageId, last: '' });
        settled.add(key);
      } else if (entry?.state === 'failed') settled.add(key);
      // Absent, or claimed: a live holder keeps it (decided later); a dead holder's lease lets it close.
      else absent.push(key);
    }
    if (absent.length > 0) {
      const won = await ledger.claimMany(absent);
      await runLimited(
        [...won.keys()].map((key) => async () => {
          await ledger.fail(key, 'series ended before a live card was posted');
          settled.add(key);
        }),
        16,
      );
      // Lateness rule 4: a card not posted while its series was live (held back by failures such as
      // 429s, here or at another instance, or downtime) is replaced by the result. Series that ended
      // before the floor (a first start), or that never were live (`wasLive`), are closed without a word.
      const dropped = [...won.keys()].filter(
        (key) => (endOf.get(key) ?? 0) > drops.floor && !neverLive.has(key),
      );
      stats.dropped += dropped.length;
      if (dropped.length > 0) logger.info({ keys: dropped }, CARD_DROPPED);
    }
    return settled;
  }

  /** Ends a series in one channel: freezes its live card with the result, or posts the result. */
  finish(series: Series, sub: Subscription, memo: ReplyMemo): Outgoing | undefined {
    const { source, dispatcher } = this.#ctx;
    const key = ledgerKey('result', series.id, 'over', sub);
    const cardId = this.#cards.get(cardKeyOf(series, sub))?.messageId;
    if (cardId !== undefined) {
      const frozenKey = `frozen|${series.id}|${sub.spoilers}|${sub.t.locale}`;
      let frozen = memo.get(frozenKey);
      if (!frozen) {
        const data = source.liveData(series.id) ?? {};
        const built = liveReply(series, source.labels, sub, {
          ...(data.matches ? { matches: data.matches } : {}),
          mapName: source.mapName,
          first: false,
        });
        frozen = { reply: built, json: '' };
        memo.set(frozenKey, frozen);
      }
      const reply = frozen.reply;
      return {
        kind: 'result',
        key,
        sub,
        act: async (delivery, guard) => {
          try {
            await delivery.edit(target(sub), cardId, reply);
            return cardId;
          } catch (error) {
            if (!isUnknownMessage(error)) throw error;
            // The card was deleted: the result goes out as a fresh message instead.
            return (await delivery.post(target(sub), reply, key, guard)).messageId;
          }
        },
      };
    }
    if (!sub.kinds.has('results')) {
      dispatcher.done.add(key);
      return undefined;
    }
    // A person's quiet hours hold the result post; sent when they end, within the late window.
    if (sub.quiet && inQuietHours(sub.quiet, sub.timezone, this.#ctx.clock.nowMs())) return undefined;
    return {
      kind: 'result',
      key,
      sub,
      act: async (delivery, guard) => {
        const resultKey = `result|${series.id}|${sub.spoilers}|${sub.t.locale}|${sub.role ?? ''}`;
        let result = memo.get(resultKey);
        if (!result) {
          result = { reply: resultReply(series, source.labels, sub), json: '' };
          memo.set(resultKey, result);
        }
        return (await delivery.post(target(sub), result.reply, key, guard)).messageId;
      },
    };
  }
}
