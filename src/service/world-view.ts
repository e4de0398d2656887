/**
 * The world as the builders of its resources read it (world-series.ts, world-standings.ts,
 * world-tournaments.ts): the catalog, the seed, the window, and the state of a plan at an instant,
 * each cached by the world. `World` (world.ts) is the one implementation: it calls the builders and
 * hands itself to them, so they name this view instead of the class.
 */
import type { Lifecycle, StandingEntry, Stream, Substage } from '../protocol/types.ts';
import type { CasterInfo, Catalog } from './catalog.ts';
import type { MatchPlan, SeriesPlan, SubstagePlan } from './schedule.ts';
import type { WindowIndex } from './world-window.ts';

export interface WorldView {
  readonly catalog: Catalog;
  readonly seed: number;
  window(t?: number): WindowIndex;
  displayedStart(plan: SeriesPlan, t: number): number;
  lifecycle(plan: SeriesPlan, t: number): Lifecycle;
  seriesScores(plan: SeriesPlan, t: number): number[];
  seriesTitle(plan: SeriesPlan, t: number): string;
  knownRosters(plan: SeriesPlan, t: number): number[];
  matchDeletedAt(plan: SeriesPlan, m: MatchPlan, t: number): string | null;
  matchScores(plan: SeriesPlan, m: MatchPlan, t: number): number[];
  standingsAt(sub: SubstagePlan, t: number): StandingEntry[];
  substageAt(sub: SubstagePlan, t: number): Substage;
  streamAt(info: CasterInfo, t: number): Stream;
}
