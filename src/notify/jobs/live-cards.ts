/**
 * Live cards: one message per live series and channel, posted when the series goes live and edited
 * in place as it plays (at most one edit per second per channel, `EditPacer`; last write wins), then
 * frozen with the result when it ends (`results.ts`). Keyed `live:<series>:card:<channel>`; the
 * ledger keeps the card's message id, so after a restart the same message is edited. A card whose
 * message was deleted is posted afresh.
 *
 * One tick: the live data of live series (maps, summaries) and their streams are brought up to date
 * by the source; cards are posted or edits scheduled; ended series are settled and frozen or
 * announced. Live posts and results go out in one dispatch.
 */
import type { Reply } from '../../bot/reply.ts';
import type { Series } from '../../protocol/types.ts';
import { liveReply } from '../cards.ts';
import type { Delivery, PostOptions } from '../delivery.ts';
import { DeliveryError } from '../delivery-error.ts';
import { isUnknownMessage, type Outgoing, sentMessage, target, targetKey } from '../dispatcher.ts';
import type { EditPacer } from '../edit-pacer.ts';
import { ledgerKey } from '../ledger.ts';
import { inQuietHours, type Subscription } from '../plan.ts';
import type { Known, LiveData } from '../source.ts';
import { gameReplies, threadName } from '../threads.ts';
import type { JobContext } from './context.ts';
import { type CardIds, cardKeyOf, type ReplyMemo, Results } from './results.ts';

export class LiveCards {
  readonly #ctx: JobContext;
  readonly #pacer: EditPacer;
  readonly #cards: CardIds = new Map();
  /** Card keys whose ledger entry was looked up (batched) and held no message. */
  readonly #cardsChecked = new Set<string>();
  readonly #results: Results;

  constructor(ctx: JobContext, pacer: EditPacer, resultsLateWindowMs: number) {
    this.#ctx = ctx;
    this.#pacer = pacer;
    this.#results = new Results(ctx, this.#cards, resultsLateWindowMs);
  }

  forget(stale: (key: string) => boolean): void {
    for (const key of this.#cardsChecked) if (stale(key)) this.#cardsChecked.delete(key);
    for (const key of this.#cards.keys()) if (stale(key)) this.#cards.delete(key);
    this.#results.forget(stale);
  }

  /** Posts, edits and freezes this tick's live cards, and posts results. */
  async run(now: number): Promise<void> {
    const { source, subs, dispatcher } = this.#ctx;
    const live: Known[] = [];
    const ended: Known[] = [];
    for (const k of source.known()) {
      if (k.series.lifecycle === 'live') live.push(k);
      else if (k.series.lifecycle === 'over' || k.series.lifecycle === 'over-forfeited') ended.push(k);
    }
    if (!subs.anyLiveOrResults) return;
    const wantedLive = live.filter((k) => subs.subscribersOf(k.series).some((s) => s.kinds.has('live')));
    await source.readLive(live, wantedLive, now);
    await source.refreshStreams(wantedLive, now);

    const pendingEnded = await this.#results.pending(ended, now);

    // Card message ids from the ledger (after a restart a card keeps its message): one batched read.
    const unknownCards: string[] = [];
    for (const k of wantedLive)
      for (const sub of subs.subscribersOf(k.series))
        if (sub.kinds.has('live') && subs.announces(sub, k.series, 'live'))
          unknownCards.push(cardKeyOf(k.series, sub));
    await this.#loadCards(
      unknownCards.filter((key) => !this.#cards.has(key) && !this.#cardsChecked.has(key)),
    );
    const settled = await this.#results.settleCards(pendingEnded);

    await source.readFinal(
      pendingEnded
        .filter(([k, members]) => members.some((sub) => this.#cards.has(cardKeyOf(k.series, sub))))
        .map(([k]) => k.series.id),
    );

    const out: Outgoing[] = [];
    // One edit per series and spoiler policy, built once per tick and shared by every channel.
    const memo: ReplyMemo = new Map();
    for (const k of wantedLive) {
      const data = source.liveData(k.series.id) ?? {};
      for (const sub of subs.subscribersOf(k.series)) {
        if (!sub.kinds.has('live') || !subs.announces(sub, k.series, 'live')) continue;
        const posting = this.#updateCard(k.series, sub, data, memo);
        if (posting) out.push(posting);
        if (sub.threads) out.push(...this.#threadReplies(k.series, sub, data));
      }
    }
    for (const [k, members] of pendingEnded)
      for (const sub of members) {
        // A card another holder is posting right now: decided at a later tick, once it is sent or not.
        if (!settled.has(cardKeyOf(k.series, sub))) continue;
        const finishing = this.#results.finish(k.series, sub, memo);
        if (finishing) out.push(finishing);
        if (sub.threads) out.push(...this.#threadReplies(k.series, sub, source.liveData(k.series.id) ?? {}));
      }
    await dispatcher.dispatch(out);
  }

  /** A channel with threads: each finished game as a reply under its live card (`threads.ts`). */
  #threadReplies(series: Series, sub: Subscription, data: LiveData): Outgoing[] {
    const { source, dispatcher } = this.#ctx;
    const card = this.#cards.get(cardKeyOf(series, sub));
    if (!card || !data.matches) return [];
    const thread = { parentId: card.messageId, name: threadName(series, source.labels, sub.t) };
    return gameReplies(series, data.matches, source.labels, sub.spoilers, source.mapName, sub.t)
      .map(({ detail, reply }) => ({ key: ledgerKey('live', series.id, detail, sub), reply }))
      .filter(({ key }) => !dispatcher.done.has(key))
      .map(({ key, reply }) => ({
        kind: 'live' as const,
        key,
        sub,
        act: async (delivery: Delivery, guard: PostOptions) =>
          (await delivery.post(target(sub), reply, key, { ...guard, thread })).messageId,
      }));
  }

  async #loadCards(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const entries = await this.#ctx.ledger.getMany(keys);
    for (const key of keys) {
      const messageId = sentMessage(entries.get(key));
      if (messageId !== undefined) this.#cards.set(key, { messageId, last: '' });
      else this.#cardsChecked.add(key);
    }
  }

  /** Posts a channel's first live card (returned, to dispatch) or schedules an edit of it. */
  #updateCard(series: Series, sub: Subscription, data: LiveData, memo: ReplyMemo): Outgoing | undefined {
    const { source, dispatcher } = this.#ctx;
    const key = cardKeyOf(series, sub);
    if (dispatcher.disabled.has(targetKey(sub))) return undefined;
    const build = (first: boolean) =>
      liveReply(series, source.labels, sub, {
        ...(data.matches ? { matches: data.matches } : {}),
        ...(data.summary ? { summary: data.summary } : {}),
        mapName: source.mapName,
        casters: series.casters.flatMap((c) => {
          const found = source.caster(c.caster.id);
          return found ? [found] : [];
        }),
        first,
      });
    const card = this.#cards.get(key);
    if (!card) {
      if (dispatcher.done.has(key)) return undefined;
      // A person's quiet hours hold the live card: posted when they end if the series still plays.
      if (sub.quiet && inQuietHours(sub.quiet, sub.timezone, this.#ctx.clock.nowMs())) return undefined;
      return {
        kind: 'live',
        key,
        sub,
        act: async (delivery, guard) => {
          const firstKey = `first|${series.id}|${sub.spoilers}|${sub.t.locale}|${sub.role ?? ''}`;
          let first = memo.get(firstKey);
          if (!first) {
            const built = build(true);
            first = { reply: built, json: JSON.stringify(built.cards) };
            memo.set(firstKey, first);
          }
          const posted = await delivery.post(target(sub), first.reply, key, guard);
          this.#cards.set(key, { messageId: posted.messageId, last: first.json });
          return posted.messageId;
        },
      };
    }
    const memoKey = `${series.id}|${sub.spoilers}|${sub.t.locale}`;
    let edit = memo.get(memoKey);
    if (!edit) {
      const built = build(false);
      edit = { reply: built, json: JSON.stringify(built.cards) };
      memo.set(memoKey, edit);
    }
    const { reply, json: content } = edit;
    if (content === card.last) return undefined;
    card.last = content;
    this.#pacer.schedule(targetKey(sub), key, () => this.#edit(sub, key, reply));
    return undefined;
  }

  async #edit(sub: Subscription, cardKey: string, reply: Reply): Promise<void> {
    const { dispatcher, stats } = this.#ctx;
    const delivery = this.#ctx.dispatcher.delivery(sub.platform);
    const card = this.#cards.get(cardKey);
    if (!delivery || !card || dispatcher.disabled.has(targetKey(sub))) return;
    try {
      await delivery.edit(target(sub), card.messageId, reply);
      stats.edits++;
    } catch (error) {
      if (isUnknownMessage(error)) {
        await this.#repost(delivery, sub, cardKey, reply);
        return;
      }
      if (error instanceof DeliveryError && error.kind === 'permanent') await dispatcher.disable(sub, error);
      else stats.transientFailures++;
      // A transient edit failure needs no retry of its own: the next change edits again (last write wins).
    }
  }

  /**
   * The live card's message was deleted (by a moderator, or the platform): post a fresh card and
   * record its id in the ledger, instead of editing a message that is gone forever.
   */
  async #repost(delivery: Delivery, sub: Subscription, cardKey: string, reply: Reply): Promise<void> {
    const { dispatcher, stats, ledger, logger, clock } = this.#ctx;
    const card = this.#cards.get(cardKey);
    try {
      // A key of its own per repost: a platform's dedupe (Discord's nonce) must not return the old message.
      const posted = await delivery.post(target(sub), { ...reply }, `${cardKey}:repost:${clock.nowMs()}`);
      await ledger.markSent(cardKey, posted.messageId);
      this.#cards.set(cardKey, { messageId: posted.messageId, last: card?.last ?? '' });
      stats.sent.live++;
      logger.info({ key: cardKey }, 'live card was deleted; posted a new one');
    } catch (error) {
      if (error instanceof DeliveryError && error.kind === 'permanent') await dispatcher.disable(sub, error);
      else stats.transientFailures++;
      // The card stays on the old id; the next change tries again.
    }
  }
}
