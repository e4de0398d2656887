/**
 * What the notifier should deliver over a span, computed from the service's world directly (its
 * series plans: start, end, postponements, deletions, forfeits, rosters), not from the notifier's
 * own reading of the service. Used by the simulated-day test and the bench.
 */
import { DateTime } from 'luxon';
import type { Settings } from '../../src/bot/settings.ts';
import { ledgerKey } from '../../src/notify/ledger.ts';
import { type Subscription, subscriptionsOf } from '../../src/notify/plan.ts';
import type { SeriesPlan, SubstagePlan, TournamentPlan } from '../../src/service/schedule.ts';
import type { World } from '../../src/service/world.ts';

export interface Expected {
  key: string;
  kind: 'reminder' | 'live' | 'result' | 'digest' | 'tournament';
  /** Simulated instant it is due. */
  at: number;
}

/** The start the service shows at `t`: a postponed series keeps its original start until it is announced. */
function startSeenAt(p: SeriesPlan, t: number): number {
  return p.postponedFrom !== null && p.postponedAt !== null && t < p.postponedAt ? p.postponedFrom : p.start;
}

function deletedBy(p: SeriesPlan, t: number): boolean {
  return p.deletedAt !== null && t >= p.deletedAt;
}

/**
 * The plans a subscription wants: its games x tiers, and every plan of a followed team whatever its
 * game or tier. Plans are grouped by game and tier and by team first, so 10,000 tenants cost a lookup
 * each, not a scan of every plan (the rule is the same as scanning).
 */
class PlanIndex {
  readonly byGameTier = new Map<string, SeriesPlan[]>();
  readonly byTeam = new Map<number, SeriesPlan[]>();
  readonly games = new Set<number>();

  constructor(world: World, plans: SeriesPlan[]) {
    for (const p of plans) {
      this.games.add(p.game);
      push(this.byGameTier, `${p.game}|${p.tier}`, p);
      for (const roster of p.rosters) {
        const team = world.catalog.rosterById.get(roster)?.team.id;
        if (team !== undefined) push(this.byTeam, team, p);
      }
    }
  }

  wantedBy(sub: Subscription): SeriesPlan[] {
    const out = new Set<SeriesPlan>();
    for (const game of sub.games ?? this.games)
      for (const tier of sub.tiers) for (const p of this.byGameTier.get(`${game}|${tier}`) ?? []) out.add(p);
    for (const team of sub.teams) for (const p of this.byTeam.get(team) ?? []) out.add(p);
    return [...out];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Every plan whose series is anywhere near [from, to]. */
function plansAround(world: World, from: number, to: number): SeriesPlan[] {
  const seen = new Map<number, SeriesPlan>();
  for (const t of [from, to]) for (const p of world.window(t).series) seen.set(p.id, p);
  return [...seen.values()];
}

/** The substage that decides a tournament's places: its last stage's last bracket or lobby. */
export function finalSubstagePlan(t: TournamentPlan): SubstagePlan | undefined {
  for (const stage of [...t.stages].sort((a, b) => b.order - a.order)) {
    const subs = stage.substages
      .filter((s) => s.type === 2 || s.type === 3)
      .sort((a, b) => b.order - a.order);
    if (subs[0]) return subs[0];
  }
  return undefined;
}

/** A tournament decided in the world: when its last series ends, and the series of its final substage. */
export interface TournamentEndPlan {
  tournament: TournamentPlan;
  at: number;
  series: SeriesPlan[];
}

/**
 * The tournaments whose final substage is decided within [from, to): a bracket when its grand
 * final ends (none when it was deleted), a lobby group when its last lobby ends.
 */
export function tournamentEndsIn(world: World, from: number, to: number): TournamentEndPlan[] {
  const tournaments = new Map<number, TournamentPlan>();
  for (const p of plansAround(world, from - 24 * 3600_000, to))
    tournaments.set(p.tournament.id, p.tournament);
  const out: TournamentEndPlan[] = [];
  for (const tournament of tournaments.values()) {
    const final = finalSubstagePlan(tournament);
    if (!final) continue;
    const series = final.series.filter((p) => !deletedBy(p, p.start));
    if (series.length === 0) continue;
    if (final.type === 2 && !series.some((p) => p.bracket?.part === 'GF')) continue;
    const at = Math.max(...series.map((p) => p.end));
    if (at >= from && at < to) out.push({ tournament, at, series });
  }
  return out;
}

/** Does the subscription want this plan (its game and tier, or a team playing)? As `wants`. */
function wantsPlan(world: World, sub: Subscription, p: SeriesPlan): boolean {
  const teamOf = (roster: number) => world.catalog.rosterById.get(roster)?.team.id;
  if (p.rosters.some((r) => sub.teams.has(teamOf(r) ?? -1))) return true;
  return (sub.games === null || sub.games.has(p.game)) && sub.tiers.has(p.tier);
}

export function expectedNotifications(
  world: World,
  tenants: [string, Settings][],
  from: number,
  to: number,
  options: { horizonMs?: number } = {},
): Expected[] {
  const subs = tenants.flatMap(([tenantId, settings]) => subscriptionsOf(tenantId, settings));
  return expectedFor(world, subs, from, to, options);
}

/** The same for any subscriptions: channels', or people's DMs (`dmSubscriptions`). */
export function expectedFor(
  world: World,
  subs: Subscription[],
  from: number,
  to: number,
  options: { horizonMs?: number } = {},
): Expected[] {
  const horizon = options.horizonMs ?? 26 * 3600_000;
  const plans = plansAround(world, from - 24 * 3600_000, to + horizon);
  const index = new PlanIndex(world, plans);
  const out: Expected[] = [];
  // Tournament ends: one card per channel that takes results of any series of the final substage,
  // also for an end shortly before the run began (within the 3-hour late window).
  const ends = tournamentEndsIn(world, from - 3 * 3600_000, to);
  for (const sub of subs) {
    if (!sub.kinds.has('results')) continue;
    for (const end of ends)
      if (end.series.some((p) => wantsPlan(world, sub, p)))
        out.push({
          key: ledgerKey('tournament', end.tournament.id, 'over', sub),
          kind: 'tournament',
          at: end.at,
        });
  }
  for (const sub of subs) {
    const mine = index.wantedBy(sub);
    for (const p of mine) {
      if (sub.kinds.has('reminders') && p.postponedFrom === null) {
        // On time: each lead whose time falls in the span. At the first tick: the shortest lead already due.
        const dueAtStart = sub.leads.filter((lead) => p.start - lead * 60_000 <= from && from < p.start);
        const shortest = dueAtStart.length > 0 ? Math.min(...dueAtStart) : undefined;
        for (const lead of sub.leads) {
          const at = p.start - lead * 60_000;
          const onTime = at > from && at < to;
          const first = lead === shortest;
          if ((onTime || first) && !deletedBy(p, Math.max(at, from))) {
            out.push({
              key: ledgerKey('reminder', p.id, `${lead}m@${p.start / 60_000}`, sub),
              kind: 'reminder',
              at: Math.max(at, from),
            });
          }
        }
      }
      const played = p.forfeit < 0 && !deletedBy(p, p.start);
      if (sub.kinds.has('live') && played && p.start < to && p.end > from) {
        out.push({ key: ledgerKey('live', p.id, 'card', sub), kind: 'live', at: Math.max(p.start, from) });
      }
      const endsInSpan = p.end >= from && p.end < to && !deletedBy(p, p.start);
      const hasCard = sub.kinds.has('live') && played && p.start < to && p.end > from;
      // Ended shortly before the run began (downtime): a result post, within the 3-hour late window.
      const endedBefore = p.end >= from - 3 * 3600_000 && p.end < from && !deletedBy(p, p.start);
      if (
        (endsInSpan && (sub.kinds.has('results') || hasCard)) ||
        (endedBefore && sub.kinds.has('results'))
      ) {
        out.push({ key: ledgerKey('result', p.id, 'over', sub), kind: 'result', at: p.end });
      }
    }
    if (sub.kinds.has('digest')) {
      let day = DateTime.fromMillis(from - 27 * 3600_000, { zone: sub.timezone }).startOf('day');
      while (day.toMillis() < to) {
        const [h, m] = sub.digestTime.split(':').map(Number) as [number, number];
        const slot = day.set({ hour: h, minute: m }).toMillis();
        const dayEnd = day.plus({ days: 1 }).startOf('day').toMillis();
        const sendAt = Math.max(slot, from);
        if (slot < to && sendAt < slot + 3 * 3600_000) {
          const count = mine.filter(
            (p) =>
              startSeenAt(p, sendAt) >= day.toMillis() &&
              startSeenAt(p, sendAt) < dayEnd &&
              !deletedBy(p, sendAt) &&
              (p.forfeit >= 0 ? p.start > sendAt : p.end > sendAt),
          ).length;
          if (count > 0 || sub.digestWhenEmpty === 'say') {
            out.push({
              key: ledgerKey('digest', day.toISODate()!, sub.digestTime, sub),
              kind: 'digest',
              at: sendAt,
            });
          }
        }
        day = day.plus({ days: 1 }).startOf('day');
      }
    }
  }
  return out;
}
