/**
 * The window's indexes (the series of the weeks around the clock, by game, tier, tournament, ...)
 * and the small helpers on sorted lists and instants that the world's parts share.
 */
import type { SeriesPlan, StagePlan, SubstagePlan, TournamentPlan, WeekPlan } from './schedule.ts';

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

/** How many of the ascending instants are at or before t. */
export function countAtOrBefore(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Indexes the series of the weeks firstWeek..lastWeek (their plans, in order). */
export function indexWindow(firstWeek: number, lastWeek: number, weeks: WeekPlan[]): WindowIndex {
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
  return index;
}
