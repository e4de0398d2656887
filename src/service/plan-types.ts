/** The plan of a week (schedule.ts): what each tournament, stage, substage, series and map is. */
import type {
  BracketPart,
  Coverage,
  Phase,
  PointsRules,
  SeriesBroadcasterEntry,
  SeriesCasterEntry,
} from '../protocol/types.ts';
import type { GameKind } from './catalog-defs.ts';

export interface TournamentPlan {
  id: number;
  week: number;
  game: number;
  tier: number;
  title: string;
  shortTitle: string;
  start: number;
  end: number;
  stages: StagePlan[];
  casters: number[];
  rosters: number[];
  prize: number;
  /** Index of the host region in the catalog's regions (an online event: the region it is played for). */
  hostRegion: number;
  /** The host city (places.ts), in the host region's country; the title names it. */
  city: string;
  /** The host region's UTC offset in hours (places.ts): its broadcast days are in its prime time. */
  utcOffsetH: number;
  /** Its broadcast days (timetable.ts): the first (0 Monday .. 6 Sunday), and the group stage's count. */
  firstDay: number;
  groupDays: number;
  /** Group rounds played a day. */
  roundsPerDay: number;
  /** A broadcast day starts this many hours after 00:00 UTC of its date, and lasts `dayHours`. */
  dayStartH: number;
  dayHours: number;
}

export interface StagePlan {
  id: number;
  tournament: TournamentPlan;
  title: string;
  order: number;
  substages: SubstagePlan[];
}

export interface SubstagePlan {
  id: number;
  stage: StagePlan;
  title: string;
  /** 1 round-robin group, 2 double-elimination bracket, 3 battle-royale lobby group. */
  type: number;
  phase: Phase;
  order: number;
  bestOf: number;
  rosters: number[];
  points: PointsRules | null;
  advance: { number: number; substage: number | null } | null;
  descend: { number: number; substage: number | null } | null;
  movements: { position: number; substage: number; type: 'ascend' | 'descend' }[];
  series: SeriesPlan[];
  start: number;
}

export interface MatchPlan {
  id: number;
  order: number;
  map: number;
  start: number;
  end: number;
  /** Index of the winning participant; -1 when the map is never played (deleted at series end). */
  winner: number;
  /** Final score per participant (kills, rounds, goals, or battle-royale points). */
  scores: number[];
  /** Battle royale only: final placement and kills per participant. */
  placements: number[] | null;
  kills: number[] | null;
}

export interface SeriesPlan {
  id: number;
  week: number;
  game: number;
  kind: GameKind;
  tier: number;
  bestOf: number;
  title: string;
  tournament: TournamentPlan;
  substage: SubstagePlan;
  /** Sort key used to schedule within the week (stage order, round). */
  round: number;
  start: number;
  /** When the last played map ends (the series' end once over). */
  end: number;
  /** The original start of a postponed series (`start` is then the new one). */
  postponedFrom: number | null;
  /**
   * When the postponement becomes known (before the original start): until then the series shows
   * its original start and no `postponed_from`, so a client sees a start time move without notice.
   */
  postponedAt: number | null;
  deletedAt: number | null;
  /** Roster ids in seed order. */
  rosters: number[];
  /** Index of the winner among rosters. */
  winner: number;
  /** Index of the forfeiting participant, or -1. */
  forfeit: number;
  matches: MatchPlan[];
  bracket: { part: BracketPart; col: number; offset: number } | null;
  chain: number[];
  /**
   * Where each participant comes from: the feeder series whose winner (or loser) takes the slot,
   * or null for a seed (from the group stage, or a group-stage series' own rosters).
   */
  sources: (number | null)[];
  /**
   * When each participant becomes known (0: from the start). A playoff slot is "TBD" until its
   * feeder series is over, a seed until the group stage is over, as on the real service.
   */
  revealAt: number[];
  streamed: boolean;
  casters: SeriesCasterEntry[];
  broadcasters: SeriesBroadcasterEntry[];
  coverage: Coverage;
  incidentAt: number | null;
  /** Instants at which the series object changes, ascending (for resource_version). */
  changes: number[];
}

export interface WeekPlan {
  week: number;
  tournaments: TournamentPlan[];
  series: SeriesPlan[];
}
