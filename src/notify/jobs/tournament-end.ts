/**
 * Tournament ends: when a tournament's last series ends (its grand final, or the last lobby of a
 * final lobby group), every channel that wants results of its series gets one card "<title> is
 * over" with the champion, the top places and the prize of each (`tournamentEndReply`, the lines
 * `/tournament` shows). A channel wants it when it wants any series of the final substage (its
 * games and tiers, or a team placed in it): `wants`, as for a series' result; or when it follows a
 * team entered in the tournament, one knocked out before the final too. People get it by DM when
 * they take results by DM.
 *
 * As results: the channel's spoiler policy (hidden behind spoilers; with `hide` the card says the
 * tournament is over and that its places are hidden), a person's quiet hours hold it, and no card
 * goes out past `resultsLateWindowMs` after the last series ended (a drop this process had
 * pending is logged with its keys). Keyed `tournament:<tournament id>:over:<channel>` in the
 * ledger: exactly once per channel, across restarts and processes.
 */
import { isLobby } from '../../bot/format.ts';
import type { Reply } from '../../bot/reply.ts';
import type { Series } from '../../protocol/types.ts';
import { tournamentEndReply } from '../cards.ts';
import { type Outgoing, target } from '../dispatcher.ts';
import { ledgerKey } from '../ledger.ts';
import { announces, inQuietHours, type Subscription } from '../plan.ts';
import type { TournamentEnd } from '../tournament-reads.ts';
import type { JobContext } from './context.ts';

const over = (s: Series) => s.lifecycle === 'over' || s.lifecycle === 'over-forfeited';

/** The ledger key of a tournament's end card in one channel. */
export function tournamentEndKey(tournamentId: number, sub: Subscription): string {
  return ledgerKey('tournament', tournamentId, 'over', sub);
}

export class TournamentEnds {
  readonly #ctx: JobContext;
  readonly #lateWindowMs: number;
  /** Ends read, by tournament id, with the series whose end revealed it. */
  readonly #ends = new Map<number, { end: TournamentEnd; by: number }>();
  /** Tournaments (`t:<id>`) whose cards this process had pending: a late drop of one is logged. */
  readonly #pending = new Set<string>();

  constructor(ctx: JobContext, lateWindowMs: number) {
    this.#ctx = ctx;
    this.#lateWindowMs = lateWindowMs;
  }

  /** Is this tournament's end forgotten with its series (`forgotten`), or never read here? */
  forgotten(tournamentId: number, series: ReadonlySet<number>): boolean {
    const known = this.#ends.get(tournamentId);
    return known === undefined || series.has(known.by);
  }

  forget(stale: (key: string) => boolean): void {
    for (const key of this.#pending) if (stale(key)) this.#pending.delete(key);
    for (const id of this.#ends.keys()) if (stale(`t:${id}`)) this.#ends.delete(id);
  }

  async run(now: number): Promise<void> {
    const { subs, dispatcher, drops } = this.#ctx;
    if (!subs.anyLiveOrResults) return;
    const out: Outgoing[] = [];
    const tooLate: string[] = [];
    for (const end of await this.#decided(now)) {
      const group = `t:${end.tournament.id}`;
      const members = this.#members(end);
      if (end.endedAt < now - this.#lateWindowMs) {
        dispatcher.groupsDone.add(group);
        // Lateness rule 2, as for results.
        if (this.#pending.has(group))
          tooLate.push(...members.map((sub) => tournamentEndKey(end.tournament.id, sub)));
        continue;
      }
      if (members.length === 0) {
        dispatcher.groupsDone.add(group);
        continue;
      }
      this.#pending.add(group);
      const memo = new Map<string, Reply>();
      for (const sub of members) {
        // A person's quiet hours hold the card: sent when they end, within the late window.
        if (sub.quiet && inQuietHours(sub.quiet, sub.timezone, now)) continue;
        out.push(this.#card(end, sub, memo));
      }
    }
    await drops.log(tooLate, 'tournament card dropped: its last series ended more than 3 hours ago');
    await dispatcher.dispatch(out);
  }

  /**
   * The ends of tournaments whose cards are not all decided: read when a series that may close its
   * tournament is over (a grand final; a lobby with no other lobby of its substage still to play),
   * until its tournament's end is known. A read that fails is tried again next tick.
   */
  async #decided(now: number): Promise<TournamentEnd[]> {
    const { source, dispatcher, logger } = this.#ctx;
    const known = [...source.known()].map((k) => k.series);
    const open = new Set(
      known.filter((s) => !over(s) && s.lifecycle !== 'deleted').map((s) => s.substage.id),
    );
    const ends = new Map<number, TournamentEnd>();
    for (const s of known) {
      const id = s.tournament.id;
      if (!over(s) || dispatcher.groupsDone.has(`t:${id}`) || ends.has(id)) continue;
      const read = this.#ends.get(id);
      if (read) {
        ends.set(id, read.end);
        continue;
      }
      const closes = s.bracket_position?.part === 'GF' || (isLobby(s) && !open.has(s.substage.id));
      // Series that ended during downtime long ago are not looked up.
      if (!closes || Date.parse(s.end ?? s.start ?? '') < now - this.#lateWindowMs) continue;
      try {
        const end = await source.tournamentEnd(s);
        if (!end) continue;
        this.#ends.set(id, { end, by: s.id });
        ends.set(id, end);
      } catch (error) {
        logger.warn(
          { err: error, tournament: id },
          'the end of a tournament could not be read; trying again',
        );
      }
    }
    return [...ends.values()];
  }

  /**
   * The channels and people that want results of any series of the final substage, or follow a
   * team entered in the tournament (one knocked out before the final too), not yet told.
   */
  #members(end: TournamentEnd): Subscription[] {
    const { subs, dispatcher } = this.#ctx;
    const last = end.series.reduce((a, b) => (Date.parse(b.end ?? '') > Date.parse(a.end ?? '') ? b : a));
    const members = new Set<Subscription>();
    const wanting = [
      ...end.series.flatMap((s) => subs.subscribersOf(s)),
      ...subs.followersOf(last, end.entrants),
    ];
    for (const sub of wanting)
      if (
        sub.kinds.has('results') &&
        announces(sub, last, 'result') &&
        !dispatcher.done.has(tournamentEndKey(end.tournament.id, sub))
      )
        members.add(sub);
    return [...members];
  }

  #card(end: TournamentEnd, sub: Subscription, memo: Map<string, Reply>): Outgoing {
    const { source } = this.#ctx;
    const key = tournamentEndKey(end.tournament.id, sub);
    return {
      kind: 'tournament',
      key,
      sub,
      act: async (delivery, guard) => {
        const memoKey = `${sub.spoilers}|${sub.t.locale}|${sub.role ?? ''}`;
        let reply = memo.get(memoKey);
        if (!reply) {
          reply = tournamentEndReply(end.tournament, end.placements, source.labels, sub);
          memo.set(memoKey, reply);
        }
        return (await delivery.post(target(sub), reply, key, guard)).messageId;
      },
    };
  }
}
