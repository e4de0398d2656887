/**
 * The world: the static catalog plus the weekly plans, and the state of everything at an instant.
 * Every `...At(t)` answer is a pure function of (seed, scale, t): a restarted service, or a second
 * service with the same seed, tells the same story at the same instant.
 *
 * The window of listed series covers the whole weeks overlapping [now - 14 days, now + 14 days]
 * and slides with the clock; detail lookups by id work for any week (ids encode their week).
 */

import type { Clock } from '../core/clock.ts';
import type {
  Caster,
  Incident,
  Lifecycle,
  Match,
  Series,
  Stage,
  Stream,
  Substage,
  Tournament,
  TournamentParticipants,
} from '../protocol/types.ts';
import { type CasterInfo, Catalog } from './catalog.ts';
import {
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
import { externalId, fromExternal } from './world-ids.ts';
import { buildMatch, buildSeries, generateMatchEvents, incidentsAt } from './world-series.ts';
import {
  buildStage,
  buildSubstage,
  type ServedStanding,
  standingsAt,
  substageChanges,
} from './world-standings.ts';
import { buildTournament, casterAt, streamAt, tournamentParticipants } from './world-tournaments.ts';
import type { WorldView } from './world-view.ts';
import { countAtOrBefore, indexWindow, iso, type WindowIndex } from './world-window.ts';

export { TOURNAMENT_IMAGE_BASE, tournamentImage } from './world-tournaments.ts';
export { firstAfter, iso, type WindowIndex } from './world-window.ts';
export { WEEK_MS };

const DAY_MS = 24 * 3600_000;
/** Days of the window on each side of the clock. */
export const WINDOW_DAYS = 14;
/** Weeks kept in memory beyond the window (detail lookups of older or later weeks). */
const WEEK_CACHE = 12;

/** The world of one seed: catalog, weekly plans and state at an instant. */
export class World implements WorldView {
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
    const index = indexWindow(firstWeek, lastWeek, weeks);
    this.#window = index;
    if (this.#seriesCache.size > index.series.length * 2) this.#seriesCache.clear();
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
    const value = buildSeries(this, plan, t, version);
    this.#seriesCache.set(plan.id, { version, value });
    return value;
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
    events = generateMatchEvents(this.seed, plan, m);
    if (this.#events.size > 20_000) this.#events.clear();
    this.#events.set(m.id, events);
    return events;
  }

  /** Participants' scores in a match at t. */
  matchScores(plan: SeriesPlan, m: MatchPlan, t: number): number[] {
    const lifecycle = this.matchLifecycle(plan, m, t);
    if (lifecycle === 'over') return [...m.scores];
    if (lifecycle !== 'live') return m.scores.map(() => 0);
    return this.matchEvents(plan, m).map((list) => countAtOrBefore(list, t));
  }

  /** The match resource at t (cached while it is not live: then it only changes with its lifecycle). */
  matchAt(plan: SeriesPlan, m: MatchPlan, t: number): Match {
    const lifecycle = this.matchLifecycle(plan, m, t);
    if (lifecycle === 'live') return buildMatch(this, plan, m, t, lifecycle);
    const known = this.knownCount(plan, t);
    const cached = this.#matchCache.get(m.id);
    if (cached && cached.lifecycle === lifecycle && cached.known === known) return cached.value;
    const value = buildMatch(this, plan, m, t, lifecycle);
    if (this.#matchCache.size > 200_000) this.#matchCache.clear();
    this.#matchCache.set(m.id, { lifecycle, known, value });
    return value;
  }

  /** A substage's standings at t, following its points rules; best first. */
  standingsAt(sub: SubstagePlan, t: number): ServedStanding[] {
    return standingsAt(this, sub, t);
  }

  /** The substage resource at t (cached per id and version). */
  substageAt(sub: SubstagePlan, t: number): Substage {
    const version = 1 + countAtOrBefore(substageChanges(sub), t);
    const cached = this.#substageCache.get(sub.id);
    if (cached && cached.version === version) return cached.value;
    const value = buildSubstage(this, sub, t, version);
    if (this.#substageCache.size > 20_000) this.#substageCache.clear();
    this.#substageCache.set(sub.id, { version, value });
    return value;
  }

  /** The stage resource at t (embeds whole substages, as the spec says). */
  stageAt(stage: StagePlan, t: number): Stage {
    return buildStage(this, stage, t);
  }

  /** The tournament resource (its fields do not change with the clock). */
  tournamentAt(plan: TournamentPlan): Tournament {
    return buildTournament(this, plan);
  }

  /** Confirmed participants and participants per phase. */
  participantsOf(plan: TournamentPlan, t = this.now()): TournamentParticipants {
    return tournamentParticipants(this, plan, t);
  }

  /** A caster's stream at t: online while one of the caster's series is live. */
  streamAt(info: CasterInfo, t: number): Stream {
    return streamAt(this, info, t);
  }

  /** The caster resource at t. */
  casterAt(info: CasterInfo, t: number): Caster {
    return casterAt(this, info, t);
  }

  /** Incident reports of the window's series that exist at t. */
  incidentsAt(t: number): Incident[] {
    return incidentsAt(this, t);
  }

  // ---- id spaces ----

  /**
   * The external id of a resource in an id space (1-4), or null when that provider does not
   * carry it. External ids are integers (a path `{id}` is an integer), reversible by `fromExternal`.
   */
  externalId(space: number, kind: string, id: number): number | null {
    return externalId(this.seed, space, kind, id);
  }

  /** The native id behind an external id, or null when it is not one of that space's ids. */
  fromExternal(space: number, kind: string, external: number): number | null {
    return fromExternal(this.seed, space, kind, external);
  }
}
