/**
 * The world: the static catalog plus the weekly plans, and the state of everything at an instant.
 * Every `...At(t)` answer is a pure function of (seed, scale, t): a restarted service, or a second
 * service with the same seed, tells the same story at the same instant.
 *
 * The window of listed series covers the whole weeks overlapping [now - 14 days, now + 14 days]
 * and slides with the clock; detail lookups by id work for any week (ids encode their week).
 */

import type { Clock } from '../core/clock.ts';
import { ID_SPACES } from '../protocol/fields.ts';
import type {
  Caster,
  Image,
  Incident,
  Lifecycle,
  Match,
  Participant,
  Series,
  Stage,
  StandingEntry,
  Stream,
  Substage,
  Tournament,
  TournamentParticipants,
} from '../protocol/types.ts';
import { type CasterInfo, Catalog } from './catalog.ts';
import { hash32, Rng } from './random.ts';
import { shooterRoundTimes } from './rounds.ts';
import {
  coverageFor,
  type MatchPlan,
  planWeek,
  type SeriesPlan,
  type StagePlan,
  type SubstagePlan,
  type TournamentPlan,
  WEEK_MS,
  type WeekPlan,
  weekOf,
} from './schedule.ts';

const DAY_MS = 24 * 3600_000;
/** Days of the window on each side of the clock. */

/** A standings row as the service serves it: v3 always gives the score difference. */
export type ServedStanding = StandingEntry & { score_diff: number };

export const WINDOW_DAYS = 14;
const ESOCCER_PERIOD_MS = 6 * 60_000;
/** Weeks kept in memory beyond the window (detail lookups of older or later weeks). */
const WEEK_CACHE = 12;

/** The indexes of the series in the window, each list sorted by (start, id). */
export interface WindowIndex {
  firstWeek: number;
  lastWeek: number;
  weeks: WeekPlan[];
  series: SeriesPlan[];
  byId: Map<number, SeriesPlan>;
  byGame: Map<number, SeriesPlan[]>;
  byTier: Map<number, SeriesPlan[]>;
  byTournament: Map<number, SeriesPlan[]>;
  bySubstage: Map<number, SeriesPlan[]>;
  byRoster: Map<number, SeriesPlan[]>;
  byCaster: Map<number, SeriesPlan[]>;
  tournaments: TournamentPlan[];
  stages: StagePlan[];
  substages: SubstagePlan[];
  /** The longest series duration in the window: bounds the start range of live series. */
  maxDuration: number;
  /** Postponed series, by original start: until announced they show that start, not their index position. */
  postponed: SeriesPlan[];
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Index of the first element with start > t in a list sorted by start. */
export function firstAfter(list: readonly SeriesPlan[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countAtOrBefore(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const MASK = 1n << 40n;
const SPACE_KEYS = ID_SPACES.map((s) => ({
  id: s.id as number,
  name: s.name as string,
  mul: BigInt((hash32(`mul${s.name}`) | 1) >>> 0),
  xor: BigInt(hash32(`xor${s.name}`)) * 97n,
}));

function inverseOdd(a: bigint): bigint {
  // Newton iteration for the inverse of an odd number modulo 2^40.
  let x = a;
  for (let i = 0; i < 6; i++) x = (x * (2n - a * x)) % MASK;
  return ((x % MASK) + MASK) % MASK;
}
const SPACE_INVERSES = SPACE_KEYS.map((k) => inverseOdd(k.mul));

/** The world of one seed: catalog, weekly plans and state at an instant. */
export class World {
  readonly catalog: Catalog;
  #weeks = new Map<number, WeekPlan>();
  #window: WindowIndex | null = null;
  #seriesCache = new Map<number, { version: number; value: Series }>();
  #substageCache = new Map<number, { version: number; value: Substage }>();
  #events = new Map<number, number[][]>();
  #matchCache = new Map<number, { lifecycle: Lifecycle; known: number; value: Match }>();

  constructor(
    readonly seed: number,
    readonly scale: number,
    readonly clock: Clock,
  ) {
    this.catalog = new Catalog(seed);
  }

  /** The current instant of the world's clock, in epoch ms. */
  now(): number {
    return this.clock.nowMs();
  }

  /** The plan of one week (generated on first use, then cached). */
  week(week: number): WeekPlan {
    let plan = this.#weeks.get(week);
    if (!plan) {
      plan = planWeek(this.catalog, week, this.scale);
      this.#weeks.set(week, plan);
      if (this.#weeks.size > WEEK_CACHE) {
        const keep = this.#window ? [this.#window.firstWeek, this.#window.lastWeek] : [week, week];
        for (const key of this.#weeks.keys()) {
          if (this.#weeks.size <= WEEK_CACHE) break;
          if (key !== week && (key < keep[0]! || key > keep[1]!)) this.#weeks.delete(key);
        }
      }
    }
    return plan;
  }

  /** The window at instant `t` (default: now): the weeks overlapping [t - 14 days, t + 14 days]. */
  window(t = this.now()): WindowIndex {
    const firstWeek = weekOf(t - WINDOW_DAYS * DAY_MS);
    const lastWeek = weekOf(t + WINDOW_DAYS * DAY_MS);
    if (this.#window && this.#window.firstWeek === firstWeek && this.#window.lastWeek === lastWeek)
      return this.#window;
    const weeks: WeekPlan[] = [];
    for (let w = firstWeek; w <= lastWeek; w++) weeks.push(this.week(w));
    const series = weeks.flatMap((w) => w.series).sort((a, b) => a.start - b.start || a.id - b.id);
    const index: WindowIndex = {
      firstWeek,
      lastWeek,
      weeks,
      series,
      byId: new Map(),
      byGame: new Map(),
      byTier: new Map(),
      byTournament: new Map(),
      bySubstage: new Map(),
      byRoster: new Map(),
      byCaster: new Map(),
      tournaments: weeks.flatMap((w) => w.tournaments),
      stages: [],
      substages: [],
      maxDuration: 0,
      postponed: series
        .filter((p) => p.postponedFrom !== null)
        .sort((a, b) => a.postponedFrom! - b.postponedFrom! || a.id - b.id),
    };
    for (const plan of series) {
      index.byId.set(plan.id, plan);
      push(index.byGame, plan.game, plan);
      push(index.byTier, plan.tier, plan);
      push(index.byTournament, plan.tournament.id, plan);
      push(index.bySubstage, plan.substage.id, plan);
      for (const roster of new Set(plan.rosters)) push(index.byRoster, roster, plan);
      for (const c of plan.casters) push(index.byCaster, c.caster.id, plan);
      index.maxDuration = Math.max(index.maxDuration, plan.end - plan.start);
    }
    index.stages = index.tournaments.flatMap((t) => t.stages);
    index.substages = index.stages.flatMap((s) => s.substages);
    this.#window = index;
    if (this.#seriesCache.size > series.length * 2) this.#seriesCache.clear();
    return index;
  }

  /** Every series of the window at t, as `/series` answers them, by start then id (for tests' expectations). */
  seriesInWindow(t = this.now()): Series[] {
    return this.window(t).series.map((plan) => this.seriesAt(plan, t));
  }

  // ---- lookups by id (any week) ----

  /** The plan of a series by id, from any week; undefined if no such series. */
  seriesPlan(id: number): SeriesPlan | undefined {
    const inWindow = this.window().byId.get(id);
    if (inWindow) return inWindow;
    const week = Math.floor(id / 1_000_000);
    if (!this.#plausibleWeek(week)) return undefined;
    return this.week(week).series.find((s) => s.id === id);
  }

  /** A match by id with its series plan. */
  matchPlan(id: number): { series: SeriesPlan; match: MatchPlan } | undefined {
    const series = this.seriesPlan(Math.floor(id / 8));
    const match = series?.matches.find((m) => m.id === id);
    return series && match ? { series, match } : undefined;
  }

  tournamentPlan(id: number): TournamentPlan | undefined {
    const week = Math.floor(id / 1000);
    if (!this.#plausibleWeek(week)) return undefined;
    return this.week(week).tournaments.find((t) => t.id === id);
  }

  stagePlan(id: number): StagePlan | undefined {
    return this.tournamentPlan(Math.floor(id / 10))?.stages.find((s) => s.id === id);
  }

  substagePlan(id: number): SubstagePlan | undefined {
    return this.stagePlan(Math.floor(id / 10))?.substages.find((s) => s.id === id);
  }

  /** Weeks within ten years of the clock can be generated on demand; anything else is not an id. */
  #plausibleWeek(week: number): boolean {
    const now = weekOf(this.now());
    return Number.isSafeInteger(week) && week >= 0 && Math.abs(week - now) <= 520;
  }

  // ---- state at an instant ----

  /** The start a series shows at t: its original start until a postponement is announced. */
  displayedStart(plan: SeriesPlan, t: number): number {
    return plan.postponedAt !== null && t < plan.postponedAt ? plan.postponedFrom! : plan.start;
  }

  /** A series' lifecycle at t. */
  lifecycle(plan: SeriesPlan, t: number): Lifecycle {
    if (plan.deletedAt !== null && t >= plan.deletedAt) return 'deleted';
    if (t < plan.start) return 'upcoming';
    if (plan.forfeit >= 0) return 'over-forfeited';
    if (t < plan.end) return 'live';
    return 'over';
  }

  /** The series object's version at t: 1 + the number of its changes so far. */
  seriesVersion(plan: SeriesPlan, t: number): number {
    return 1 + countAtOrBefore(plan.changes, t);
  }

  /** Participants' series scores at t (maps won; battle-royale points). */
  seriesScores(plan: SeriesPlan, t: number): number[] {
    const scores = plan.rosters.map(() => 0);
    if (plan.deletedAt !== null && t >= plan.deletedAt) return scores;
    if (plan.forfeit >= 0) {
      if (t >= plan.start) scores[plan.winner] = Math.ceil(plan.bestOf / 2);
      return scores;
    }
    for (const m of plan.matches) {
      if (m.end > t || m.end === m.start) continue;
      if (plan.kind === 'battle-royale')
        m.scores.forEach((s, i) => {
          scores[i]! += s;
        });
      else if (m.winner >= 0) scores[m.winner]!++;
    }
    return scores;
  }

  /** The series resource at t (cached per id and version). */
  seriesAt(plan: SeriesPlan, t: number): Series {
    const version = this.seriesVersion(plan, t);
    const cached = this.#seriesCache.get(plan.id);
    if (cached && cached.version === version) return cached.value;
    const value = this.#buildSeries(plan, t, version);
    this.#seriesCache.set(plan.id, { version, value });
    return value;
  }

  #buildSeries(plan: SeriesPlan, t: number, version: number): Series {
    const lifecycle = this.lifecycle(plan, t);
    const over = lifecycle === 'over' || lifecycle === 'over-forfeited';
    const scores = this.seriesScores(plan, t);
    const br = plan.kind === 'battle-royale';
    let kills: number[] = [];
    let placement: number[] = [];
    if (br) {
      kills = plan.rosters.map(() => 0);
      for (const m of plan.matches)
        if (m.end <= t)
          m.kills!.forEach((k, i) => {
            kills[i]! += k;
          });
      const order = plan.rosters.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
      placement = plan.rosters.map(() => 0);
      order.forEach((i, rank) => {
        placement[i] = rank + 1;
      });
    }
    const participants: Participant[] = plan.rosters
      .map((roster, i) => ({
        seed: i + 1,
        score: scores[i]!,
        forfeit: plan.forfeit === i && t >= plan.start,
        roster: { id: roster },
        winner: over && plan.winner === i,
        stats: br ? { kills: kills[i]!, placement: t >= plan.start ? placement[i]! : 0 } : null,
      }))
      .filter((_, i) => plan.revealAt[i]! <= t);
    const release = this.catalog.game(plan.game)!.releases.at(-1)!;
    return {
      id: plan.id,
      title: this.seriesTitle(plan, t),
      start: iso(this.displayedStart(plan, t)),
      end: over ? iso(plan.end) : null,
      lifecycle,
      tier: plan.tier,
      best_of: plan.bestOf,
      chain: plan.chain.map((id) => ({ id })),
      streamed: plan.streamed,
      bracket_position: plan.bracket,
      tournament: { id: plan.tournament.id },
      substage: { id: plan.substage.id },
      game: { id: plan.game },
      format: { best_of: plan.bestOf },
      postponed_from: plan.postponedFrom === null || t < plan.postponedAt! ? null : iso(plan.postponedFrom),
      deleted_at: plan.deletedAt !== null && t >= plan.deletedAt ? iso(plan.deletedAt) : null,
      participants,
      matches: plan.matches.map((m) => ({ id: m.id })),
      casters: plan.casters,
      broadcasters: plan.broadcasters,
      has_incident_report: plan.incidentAt !== null && t >= plan.incidentAt,
      game_version: { release },
      coverage: plan.coverage,
      resource_version: version,
    };
  }

  /** The rosters of a series known at t (a playoff slot is unknown until its feeder is over). */
  knownRosters(plan: SeriesPlan, t: number): number[] {
    return plan.rosters.filter((_, i) => plan.revealAt[i]! <= t);
  }

  /** How many participants of a series are known at t. */
  knownCount(plan: SeriesPlan, t: number): number {
    return plan.revealAt.filter((at) => at <= t).length;
  }

  /** A head-to-head series is titled by its teams, "TBD" for one not yet known. */
  seriesTitle(plan: SeriesPlan, t: number): string {
    if (plan.kind === 'battle-royale' || plan.revealAt.every((at) => at <= t)) return plan.title;
    const name = (i: number) => {
      if (plan.revealAt[i]! > t) return 'TBD';
      const roster = this.catalog.rosterById.get(plan.rosters[i]!)!;
      return this.catalog.teamById.get(roster.team.id)!.name;
    };
    return `${name(0)} vs ${name(1)}`;
  }

  /** A match's lifecycle at t. */
  matchLifecycle(plan: SeriesPlan, m: MatchPlan, t: number): Lifecycle {
    if (plan.deletedAt !== null && t >= plan.deletedAt) return 'deleted';
    if (t < m.start) return 'upcoming';
    if (plan.forfeit >= 0) return 'over-forfeited';
    const played = plan.kind === 'battle-royale' || m.winner >= 0;
    if (!played) return t >= plan.end ? 'deleted' : 'upcoming';
    if (t < m.end) return 'live';
    return 'over';
  }

  /** When a match was soft-deleted, if it is at t. */
  matchDeletedAt(plan: SeriesPlan, m: MatchPlan, t: number): string | null {
    if (plan.deletedAt !== null && t >= plan.deletedAt) return iso(plan.deletedAt);
    if (this.matchLifecycle(plan, m, t) === 'deleted') return iso(plan.end);
    return null;
  }

  /**
   * Score events of a played match: per participant, the ascending instants at which its score
   * grew by one (kills, rounds, goals; battle-royale kills). Generated from the seed on demand.
   */
  matchEvents(plan: SeriesPlan, m: MatchPlan): number[][] {
    let events = this.#events.get(m.id);
    if (events) return events;
    // A shooter's rounds come at a steady pace in a plausible order (`rounds.ts`), not at random.
    if (plan.kind === 'shooter') {
      events = shooterRoundTimes(this.seed, m.id, m.start, m.end, m.scores, m.winner);
      if (this.#events.size > 20_000) this.#events.clear();
      this.#events.set(m.id, events);
      return events;
    }
    const rng = new Rng(this.seed, 'events', m.id);
    const span = Math.max(1, m.end - m.start);
    const counts = plan.kind === 'battle-royale' ? m.kills! : m.scores;
    events = counts.map((count, i) => {
      const times = Array.from(
        { length: count },
        () => m.start + 60_000 + Math.floor(rng.next() * (span - 61_000)),
      );
      times.sort((a, b) => a - b);
      // The deciding point (last round, last goal) of a shooter or esoccer map comes at its end.
      if (i === m.winner && count > 0 && plan.kind !== 'moba' && plan.kind !== 'battle-royale')
        times[count - 1] = m.end - 1000;
      return times;
    });
    if (this.#events.size > 20_000) this.#events.clear();
    this.#events.set(m.id, events);
    return events;
  }

  /** Participants' scores in a match at t. */
  matchScores(plan: SeriesPlan, m: MatchPlan, t: number): number[] {
    const lifecycle = this.matchLifecycle(plan, m, t);
    if (lifecycle === 'over') return [...m.scores];
    if (lifecycle !== 'live') return m.scores.map(() => 0);
    const events = this.matchEvents(plan, m);
    if (plan.kind === 'battle-royale') {
      return events.map((list) => countAtOrBefore(list, t) * 1);
    }
    return events.map((list) => countAtOrBefore(list, t));
  }

  /** The match resource at t (cached while it is not live: then it only changes with its lifecycle). */
  matchAt(plan: SeriesPlan, m: MatchPlan, t: number): Match {
    const lifecycle = this.matchLifecycle(plan, m, t);
    if (lifecycle === 'live') return this.#buildMatch(plan, m, t, lifecycle);
    const known = this.knownCount(plan, t);
    const cached = this.#matchCache.get(m.id);
    if (cached && cached.lifecycle === lifecycle && cached.known === known) return cached.value;
    const value = this.#buildMatch(plan, m, t, lifecycle);
    if (this.#matchCache.size > 200_000) this.#matchCache.clear();
    this.#matchCache.set(m.id, { lifecycle, known, value });
    return value;
  }

  #buildMatch(plan: SeriesPlan, m: MatchPlan, t: number, lifecycle: Lifecycle): Match {
    const scores = this.matchScores(plan, m, t);
    const over = lifecycle === 'over' || lifecycle === 'over-forfeited';
    const br = plan.kind === 'battle-royale';
    let version = 1;
    if (lifecycle === 'live') version = 2 + scores.reduce((a, b) => a + b, 0);
    else if (lifecycle !== 'upcoming')
      version = 3 + (lifecycle === 'over' ? m.scores.reduce((a, b) => a + b, 0) : 0);
    const info = this.catalog.game(plan.game)!;
    return {
      id: m.id,
      map: { id: m.map },
      lifecycle,
      order: m.order,
      series: { id: plan.id },
      deleted_at: this.matchDeletedAt(plan, m, t),
      game: { id: plan.game },
      participants: plan.rosters
        .map((roster, i) => ({
          seed: i + 1,
          score: scores[i]!,
          forfeit: plan.forfeit === i && t >= plan.start,
          roster: { id: roster },
          winner: over && (plan.forfeit >= 0 ? plan.winner === i : m.winner === i),
          stats: br
            ? {
                kills: lifecycle === 'over' ? m.kills![i]! : lifecycle === 'live' ? scores[i]! : 0,
                placement: lifecycle === 'over' ? m.placements![i]! : 0,
              }
            : null,
        }))
        .filter((_, i) => plan.revealAt[i]! <= t),
      coverage: plan.coverage,
      format: {
        esoccer: info.kind === 'esoccer' ? { period_duration: { milliseconds: ESOCCER_PERIOD_MS } } : null,
      },
      resource_version: version,
    };
  }

  /** Ends of the series of a substage (those that count), ascending: the substage's changes. */
  #substageChanges(sub: SubstagePlan): number[] {
    const cache = sub as SubstagePlan & { _changes?: number[] };
    if (!cache._changes) {
      cache._changes = sub.series
        .filter((s) => s.deletedAt === null)
        .flatMap((s) => [
          ...(s.kind === 'battle-royale' ? s.matches.map((m) => m.end) : [s.end]),
          // A playoff substage's rosters appear as its participants become known.
          ...s.revealAt.filter((at) => at > 0),
        ])
        .sort((a, b) => a - b);
    }
    return cache._changes;
  }

  /** A substage's rosters known at t: a playoff substage's seeds only once the groups are over. */
  #knownSubstageRosters(sub: SubstagePlan, t: number): number[] {
    if (sub.stage.order === 1) return sub.rosters;
    const known = new Set(sub.series.flatMap((s) => this.knownRosters(s, t)));
    return sub.rosters.filter((r) => known.has(r));
  }

  /** A substage's standings at t, following its points rules; best first. */
  standingsAt(sub: SubstagePlan, t: number): ServedStanding[] {
    const rows = new Map<number, ServedStanding>();
    for (const roster of this.#knownSubstageRosters(sub, t)) {
      rows.set(roster, {
        roster: { id: roster },
        points: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        match_diff: 0,
        score_diff: 0,
      });
    }
    for (const plan of sub.series) {
      if (plan.deletedAt !== null) continue;
      const lifecycle = this.lifecycle(plan, t);
      if (plan.kind === 'battle-royale') {
        const scores = this.seriesScores(plan, t);
        plan.rosters.forEach((r, i) => {
          // A final lobby's rosters are not in the table before the groups are over.
          const row = rows.get(r);
          if (row) row.points += scores[i]!;
        });
        if (lifecycle === 'over') {
          plan.rosters.forEach((r, i) => {
            const row = rows.get(r)!;
            if (i === plan.winner) row.wins++;
            else row.losses++;
          });
        }
        continue;
      }
      if (lifecycle !== 'over' && lifecycle !== 'over-forfeited') continue;
      const w = plan.winner;
      const maps = this.seriesScores(plan, t);
      const winnerRow = rows.get(plan.rosters[w]!)!;
      const loserRow = rows.get(plan.rosters[1 - w]!)!;
      winnerRow.wins++;
      loserRow.losses++;
      const points = sub.points;
      if (points) {
        winnerRow.points += points.win;
        loserRow.points += points.loss;
      }
      const mapDiff = maps[w]! - maps[1 - w]!;
      winnerRow.match_diff += mapDiff;
      loserRow.match_diff -= mapDiff;
      let scoreDiff = 0;
      for (const m of plan.matches) if (m.winner >= 0) scoreDiff += m.scores[w]! - m.scores[1 - w]!;
      winnerRow.score_diff += scoreDiff;
      loserRow.score_diff -= scoreDiff;
    }
    return [...rows.values()].sort(
      (a, b) =>
        b.points - a.points ||
        b.wins - a.wins ||
        b.match_diff - a.match_diff ||
        b.score_diff - a.score_diff ||
        a.roster.id - b.roster.id,
    );
  }

  /** The substage resource at t (cached per id and version). */
  substageAt(sub: SubstagePlan, t: number): Substage {
    const version = 1 + countAtOrBefore(this.#substageChanges(sub), t);
    const cached = this.#substageCache.get(sub.id);
    if (cached && cached.version === version) return cached.value;
    const tournament = sub.stage.tournament;
    const info = this.catalog.game(tournament.game)!;
    const release = info.releases.at(-1)!;
    const esoccer = {
      esoccer: info.kind === 'esoccer' ? { period_duration: { milliseconds: ESOCCER_PERIOD_MS } } : null,
    };
    const value: Substage = {
      id: sub.id,
      stage: { id: sub.stage.id },
      tournament: { id: tournament.id },
      game: { id: tournament.game },
      title: sub.title,
      tier: tournament.tier,
      type: sub.type,
      phase: sub.phase,
      default_series_format: { best_of: sub.bestOf },
      order: sub.order,
      rosters: this.#knownSubstageRosters(sub, t).map((id) => ({ id })),
      start: iso(sub.start),
      deleted_at: null,
      standings: this.standingsAt(sub, t),
      rules: {
        advance: sub.advance
          ? {
              number: sub.advance.number,
              substage: sub.advance.substage === null ? null : { id: sub.advance.substage },
            }
          : null,
        descend: sub.descend
          ? {
              number: sub.descend.number,
              substage: sub.descend.substage === null ? null : { id: sub.descend.substage },
            }
          : null,
        points: sub.points,
      },
      defaults: { game_version: { release }, series_format: { best_of: sub.bestOf }, match_format: esoccer },
      format: {
        points: sub.points,
        movements: sub.movements.map((m) => ({
          position: m.position,
          substage: { id: m.substage },
          type: m.type,
        })),
      },
      coverage: coverageFor(tournament.tier),
      resource_version: version,
    };
    if (this.#substageCache.size > 20_000) this.#substageCache.clear();
    this.#substageCache.set(sub.id, { version, value });
    return value;
  }

  /** The stage resource at t (embeds whole substages, as the spec says). */
  stageAt(stage: StagePlan, t: number): Stage {
    const substages = stage.substages.map((s) => this.substageAt(s, t));
    const release = this.catalog.game(stage.tournament.game)!.releases.at(-1)!;
    return {
      id: stage.id,
      title: stage.title,
      tournament: { id: stage.tournament.id },
      order: stage.order,
      substages,
      deleted_at: null,
      defaults: { game_version: { release } },
      coverage: coverageFor(stage.tournament.tier),
      resource_version: 1 + substages.reduce((sum, s) => sum + s.resource_version - 1, 0),
    };
  }

  /** The tournament resource (its fields do not change with the clock, apart from nothing). */
  tournamentAt(plan: TournamentPlan): Tournament {
    const info = this.catalog.game(plan.game)!;
    const prize = (n: number) => `$${n.toLocaleString('en-US')}`;
    const host = this.catalog.regions[plan.hostRegion]!;
    return {
      id: plan.id,
      title: plan.title,
      short_title: plan.shortTitle,
      tier: plan.tier,
      copy: {
        general_description: `${plan.title}: a tier ${plan.tier} ${info.game.title} tournament.`,
        short_description: `Tier ${plan.tier} ${info.game.abbreviation}`,
        format_description: plan.stages
          .map((s) => `${s.title} (${s.substages.length} substage${s.substages.length === 1 ? '' : 's'})`)
          .join(', then '),
      },
      links: {
        website: `https://tournaments.matchday.invalid/${plan.id}`,
        wiki: plan.tier <= 2 ? `https://wiki.matchday.invalid/${plan.id}` : null,
      },
      start: iso(plan.start),
      end: iso(plan.end),
      game: { id: plan.game },
      string_prize_pool: {
        total: prize(plan.prize),
        first: prize(Math.round(plan.prize * 0.5)),
        second: prize(Math.round(plan.prize * 0.25)),
        third: prize(Math.round(plan.prize * 0.12)),
      },
      location: {
        host: plan.tier <= 2 ? host : null,
        participants: [...new Set(plan.rosters.map((r) => this.#rosterRegion(r)))].map(
          (id) => this.catalog.regions.find((x) => x.id === id)!,
        ),
      },
      deleted_at: null,
      coverage: coverageFor(plan.tier),
      images: [tournamentImage(plan.id)],
      stages: plan.stages.map((s) => ({ id: s.id })),
      casters: plan.casters.map((id, i) => ({ primary: i === 0, caster: { id } })),
    };
  }

  #rosterRegion(roster: number): number {
    const r = this.catalog.rosterById.get(roster)!;
    return this.catalog.teamById.get(r.team.id)!.region.id;
  }

  /** Confirmed participants and participants per phase. */
  participantsOf(plan: TournamentPlan, t = this.now()): TournamentParticipants {
    const phases: TournamentParticipants['phase_participants'] = {
      qualifier: [],
      regular: [],
      final: [],
      other: [],
    };
    for (const stage of plan.stages) {
      for (const sub of stage.substages) {
        for (const r of this.#knownSubstageRosters(sub, t))
          if (!phases[sub.phase].some((x) => x.roster.id === r))
            phases[sub.phase].push({ roster: { id: r } });
      }
    }
    return {
      confirmed_participants: plan.rosters.map((id) => ({ roster: { id } })),
      phase_participants: phases,
    };
  }

  /** A caster's stream at t: online while one of the caster's series is live. */
  streamAt(info: CasterInfo, t: number): Stream {
    const window = this.window(t);
    const list = window.byCaster.get(info.id) ?? [];
    let online = false;
    let lastEnd: number | null = null;
    for (const plan of list) {
      const lifecycle = this.lifecycle(plan, t);
      if (lifecycle === 'live') online = true;
      else if (lifecycle === 'over' && (lastEnd === null || plan.end > lastEnd)) lastEnd = plan.end;
    }
    const minute = Math.floor(t / 60_000);
    const wobble = (hash32(`${this.seed}|viewers|${info.id}|${minute}`) % 1000) / 1000;
    return {
      id: info.streamId,
      username: info.username,
      display_name: info.display_name,
      status_text: info.statusText,
      viewer_count: online ? Math.round(info.baseViewers * (0.7 + 0.6 * wobble)) : 0,
      online,
      last_online: online ? iso(minute * 60_000) : lastEnd === null ? null : iso(lastEnd),
      images: info.streamImages,
      platform: info.platform,
    };
  }

  /** The caster resource at t. */
  casterAt(info: CasterInfo, t: number): Caster {
    return {
      id: info.id,
      display_name: info.display_name,
      username: info.username,
      game: info.game,
      deleted_at: info.deleted_at,
      platform: info.platform,
      stream: this.streamAt(info, t),
      region: info.region,
    };
  }

  /** Incident reports of the window's series that exist at t. */
  incidentsAt(t: number): Incident[] {
    const out: Incident[] = [];
    for (const plan of this.window(t).series) {
      if (plan.incidentAt === null || plan.incidentAt > t) continue;
      const played = plan.matches.filter((m) => m.winner >= 0 || plan.kind === 'battle-royale');
      const rng = new Rng(this.seed, 'incident', plan.id);
      const match = played.length > 0 ? rng.pick(played) : null;
      out.push({
        id: plan.id,
        series: { id: plan.id },
        match: match ? { id: match.id } : null,
        comment: rng.pick([
          'Technical pause of several minutes after a client crash; the map resumed from a backup.',
          'A player disconnected during the draft; the referee granted a remake.',
          'Broadcast delay lowered by mistake for part of a map.',
          'Admin ruling on a pause taken outside the allowed window.',
        ]),
        game: { id: plan.game },
        tournament: { id: plan.tournament.id },
        created_at: iso(plan.incidentAt),
      });
    }
    return out;
  }

  // ---- id spaces ----

  /**
   * The external id of a resource in an id space (1-4), or null when that provider does not
   * carry it. External ids are integers (a path `{id}` is an integer), reversible by `fromExternal`.
   */
  externalId(space: number, kind: string, id: number): number | null {
    const key = SPACE_KEYS[space - 1];
    if (!key) return null;
    if ((kind === 'series' || kind === 'match') && hash32(`${this.seed}|${space}|${kind}|${id}`) % 100 >= 80)
      return null;
    return Number(((BigInt(id) * key.mul) % MASK) ^ key.xor);
  }

  /** The native id behind an external id, or null when it is not one of that space's ids. */
  fromExternal(space: number, kind: string, external: number): number | null {
    const key = SPACE_KEYS[space - 1];
    const inverse = SPACE_INVERSES[space - 1];
    if (!key || inverse === undefined || !Number.isSafeInteger(external) || external < 0) return null;
    const native = Number(((BigInt(external) ^ key.xor) * inverse) % MASK);
    return this.externalId(space, kind, native) === external ? native : null;
  }
}

/** Images of tournaments (which come and go with the window) have ids derived from the tournament id. */
export const TOURNAMENT_IMAGE_BASE = 100_000_000;

export function tournamentImage(id: number): Image {
  return {
    id: TOURNAMENT_IMAGE_BASE + id,
    url: `https://images.matchday.invalid/tournaments/${id}.png`,
    thumbnail: `https://images.matchday.invalid/tournaments/${id}.thumb.png`,
    fallback: false,
    type: 'default',
  };
}

export { WEEK_MS };
