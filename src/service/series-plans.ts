/**
 * The series of a tournament and their outcomes, decided up front: round-robin groups,
 * double-elimination brackets, battle-royale lobbies, map scores and final group tables. Timing
 * comes later (series-timing.ts, timetable.ts).
 */
import type { BracketPart, Coverage, CoverageValue, Phase, PointsRules } from '../protocol/types.ts';
import type { Catalog } from './catalog.ts';
import type { GameKind } from './catalog-defs.ts';
import type { MatchPlan, SeriesPlan, StagePlan, SubstagePlan, TournamentPlan } from './plan-types.ts';
import { Rng } from './random.ts';

/** Battle-royale placement points (index = placement - 1). */
export const PLACEMENT_POINTS = [12, 9, 7, 5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0, 0];
export const KILL_MULTIPLIER = 1;

const COVERAGE_BY_TIER: Coverage[] = [1, 2, 3, 4].map((tier) => {
  const leaf = (expectation: CoverageValue, fact: CoverageValue) => ({ expectation, fact });
  const good: CoverageValue =
    tier <= 1 ? 'available' : tier === 2 ? 'available' : tier === 3 ? 'partial' : 'possible';
  const cv: CoverageValue = tier <= 2 ? 'available' : tier === 3 ? 'partial' : 'unlikely';
  return {
    data: {
      live: {
        api: leaf(good, good === 'possible' ? 'unknown' : good),
        cv: leaf(cv, cv === 'unlikely' ? 'unavailable' : cv),
      },
      realtime: {
        api: leaf(good, good === 'possible' ? 'unknown' : good),
        server: leaf(tier <= 2 ? 'available' : 'partial', tier <= 2 ? 'available' : 'partial'),
      },
      postgame: {
        api: leaf('available', 'available'),
        server: leaf(tier <= 3 ? 'available' : 'deferred', tier <= 3 ? 'available' : 'deferred'),
      },
    },
  };
});

/** Coverage of an entity of a tier (shared objects: never mutate). */
export function coverageFor(tier: number): Coverage {
  return COVERAGE_BY_TIER[Math.min(4, Math.max(1, tier)) - 1]!;
}

export function substage(
  stage: StagePlan,
  order: number,
  title: string,
  type: number,
  phase: Phase,
  bestOf: number,
  points: PointsRules | null,
): SubstagePlan {
  return {
    id: stage.id * 10 + order,
    stage,
    title,
    type,
    phase,
    order,
    bestOf,
    rosters: [],
    points,
    advance: null,
    descend: null,
    movements: [],
    series: [],
    start: 0,
  };
}

/** Circle-method rounds: each roster plays every other once. */
export function roundRobin(members: number[]): [number, number][][] {
  const list: (number | null)[] = [...members];
  if (list.length % 2 === 1) list.push(null);
  const n = list.length;
  const rounds: [number, number][][] = [];
  for (let r = 0; r < n - 1; r++) {
    const round: [number, number][] = [];
    for (let i = 0; i < n / 2; i++) {
      const a = list[i];
      const b = list[n - 1 - i];
      if (a != null && b != null) round.push(r % 2 === 0 ? [a, b] : [b, a]);
    }
    rounds.push(round);
    list.splice(1, 0, list.pop()!);
  }
  return rounds;
}

export interface Ctx {
  catalog: Catalog;
  rng: Rng;
  tournament: TournamentPlan;
  nextSeriesId: () => number;
}

/** Plans one series' outcome (timing comes later, in finishPlan). */
export function addSeries(
  ctx: Ctx,
  sub: SubstagePlan,
  rosters: number[],
  bestOf: number,
  round: number,
  label: string | null,
  bracket: SeriesPlan['bracket'],
  chain: number[],
): SeriesPlan {
  const { catalog, tournament } = ctx;
  const id = ctx.nextSeriesId();
  const rng = new Rng(catalog.seed, 'series', id);
  const info = catalog.game(tournament.game)!;
  const kind = info.kind;
  const teamName = (roster: number) => catalog.teamById.get(catalog.rosterById.get(roster)!.team.id)!.name;
  const title = label
    ? `${tournament.shortTitle} ${sub.title} ${label}`
    : `${teamName(rosters[0]!)} vs ${teamName(rosters[1]!)}`;
  const isGroup = sub.type === 1;
  const forfeit = isGroup && rng.chance(0.02) ? rng.int(0, 1) : -1;
  const matches: MatchPlan[] = [];
  const maps = info.maps.length > 1 ? rng.shuffle(info.maps.filter((m) => m.official)) : info.maps;
  const draw = { id, rng, maps: maps.map((m) => m.id), bestOf, matches };
  const winner =
    kind === 'battle-royale'
      ? lobbyMatches(draw, rosters)
      : teamMatches(draw, kind, forfeit, [
          catalog.strength.get(rosters[0]!) ?? 0.5,
          catalog.strength.get(rosters[1]!) ?? 0.5,
        ]);
  const plan: SeriesPlan = {
    id,
    week: tournament.week,
    game: tournament.game,
    kind,
    tier: tournament.tier,
    bestOf,
    title,
    tournament,
    substage: sub,
    round: sub.stage.order * 100 + round,
    start: 0,
    end: 0,
    postponedFrom: null,
    postponedAt: null,
    deletedAt: null,
    rosters,
    winner,
    forfeit,
    matches,
    bracket,
    chain,
    sources: rosters.map(() => null),
    revealAt: rosters.map(() => 0),
    streamed: false,
    casters: [],
    broadcasters: [],
    coverage: coverageFor(tournament.tier),
    incidentAt: null,
    changes: [],
  };
  sub.series.push(plan);
  return plan;
}

/** What the maps of a series are drawn with: its id and generator, map ids in order, the maps. */
interface Draw {
  id: number;
  rng: Rng;
  maps: number[];
  bestOf: number;
  matches: MatchPlan[];
}

/** A battle-royale series' maps (placements, kills, points); returns the index of the winner. */
function lobbyMatches(draw: Draw, rosters: number[]): number {
  const { id, rng, maps, bestOf, matches } = draw;
  const totals = rosters.map(() => 0);
  for (let order = 1; order <= bestOf; order++) {
    const placements = rng.shuffle(rosters.map((_, i) => i + 1));
    const kills = rosters.map((_, i) => rng.int(0, 6) + Math.max(0, 8 - placements[i]!));
    const scores = rosters.map((_, i) => PLACEMENT_POINTS[placements[i]! - 1]! + kills[i]! * KILL_MULTIPLIER);
    scores.forEach((s, i) => {
      totals[i]! += s;
    });
    matches.push({
      id: id * 8 + order,
      order,
      map: maps[(order - 1) % maps.length]!,
      start: 0,
      end: 0,
      winner: placements.indexOf(1),
      scores,
      placements,
      kills,
    });
  }
  return totals.indexOf(Math.max(...totals));
}

/** A two-team series' maps, won by strength, until one has the majority; returns the winner. */
function teamMatches(draw: Draw, kind: GameKind, forfeit: number, strength: number[]): number {
  const { id, rng, maps, bestOf, matches } = draw;
  const pA = 0.5 + (strength[0]! - strength[1]!) * 0.35;
  const need = Math.ceil(bestOf / 2);
  const won = [0, 0];
  for (let order = 1; order <= bestOf; order++) {
    const decided = won[0] === need || won[1] === need || forfeit >= 0;
    let w = -1;
    if (forfeit >= 0) w = 1 - forfeit;
    else if (!decided) {
      w = rng.next() < pA ? 0 : 1;
      won[w]!++;
    }
    const scores = [0, 0];
    if (w >= 0 && forfeit < 0) {
      const [hi, lo] = mapScore(kind, rng);
      scores[w] = hi;
      scores[1 - w] = lo;
    }
    matches.push({
      id: id * 8 + order,
      order,
      map: maps[(order - 1) % maps.length]!,
      start: 0,
      end: 0,
      winner: forfeit >= 0 ? -1 : w,
      scores,
      placements: null,
      kills: null,
    });
  }
  return forfeit >= 0 ? 1 - forfeit : won[0]! > won[1]! ? 0 : 1;
}

function mapScore(kind: GameKind, rng: Rng): [number, number] {
  switch (kind) {
    case 'moba': {
      const hi = rng.int(14, 42);
      return [hi, rng.int(4, hi - 3)];
    }
    case 'shooter':
      return [13, rng.int(0, 11)];
    case 'esoccer': {
      const hi = rng.int(1, 6);
      return [hi, rng.int(0, hi - 1)];
    }
    default:
      return [1, 0];
  }
}

/** Final group table by planned results: points, then map difference, then roster id. */
export function finalStandings(sub: SubstagePlan): number[] {
  const rows = new Map<number, { points: number; diff: number }>();
  for (const r of sub.rosters) rows.set(r, { points: 0, diff: 0 });
  for (const s of sub.series) {
    if (s.kind === 'battle-royale') {
      s.matches.forEach((m) => {
        m.scores.forEach((score, i) => {
          rows.get(s.rosters[i]!)!.points += score;
        });
      });
      continue;
    }
    const w = s.rosters[s.winner]!;
    rows.get(w)!.points += sub.points?.win ?? 1;
    const wonMaps = s.matches.filter((m) => m.winner === s.winner).length;
    const lostMaps = s.matches.filter((m) => m.winner === 1 - s.winner).length;
    rows.get(w)!.diff += wonMaps - lostMaps;
    rows.get(s.rosters[1 - s.winner]!)!.diff -= wonMaps - lostMaps;
  }
  return [...rows.entries()]
    .sort((a, b) => b[1].points - a[1].points || b[1].diff - a[1].diff || a[0] - b[0])
    .map(([r]) => r);
}

/** A double-elimination bracket for 4 or 8 seeds: UB, LB and a grand final (GF, best of 5). */
export function doubleElimination(ctx: Ctx, sub: SubstagePlan, seeds: number[]): void {
  const play = (
    a: SeriesPlan | number,
    b: SeriesPlan | number,
    part: BracketPart,
    col: number,
    offset: number,
    round: number,
    useLoser: [boolean, boolean],
  ) => {
    const pick = (x: SeriesPlan | number, loser: boolean) =>
      typeof x === 'number' ? x : x.rosters[loser ? 1 - x.winner : x.winner]!;
    const chain = [a, b].filter((x): x is SeriesPlan => typeof x !== 'number').map((x) => x.id);
    const plan = addSeries(
      ctx,
      sub,
      [pick(a, useLoser[0]), pick(b, useLoser[1])],
      part === 'GF' ? 5 : 3,
      round,
      null,
      { part, col, offset },
      chain,
    );
    plan.sources = [a, b].map((x) => (typeof x === 'number' ? null : x.id));
    return plan;
  };
  const W: [boolean, boolean] = [false, false];
  if (seeds.length === 4) {
    const s1 = play(seeds[0]!, seeds[3]!, 'UB', 1, 0, 1, W);
    const s2 = play(seeds[1]!, seeds[2]!, 'UB', 1, 1, 1, W);
    const ubf = play(s1, s2, 'UB', 2, 0, 2, W);
    const lb1 = play(s1, s2, 'LB', 1, 0, 2, [true, true]);
    const lbf = play(ubf, lb1, 'LB', 2, 0, 3, [true, false]);
    play(ubf, lbf, 'GF', 1, 0, 4, W);
    return;
  }
  const qf = [0, 1, 2, 3].map((i) => play(seeds[i]!, seeds[7 - i]!, 'UB', 1, i, 1, W));
  const sf = [0, 1].map((i) => play(qf[i]!, qf[3 - i]!, 'UB', 2, i, 2, W));
  const lb1 = [0, 1].map((i) => play(qf[i]!, qf[3 - i]!, 'LB', 1, i, 2, [true, true]));
  const ubf = play(sf[0]!, sf[1]!, 'UB', 3, 0, 3, W);
  const lb2 = [0, 1].map((i) => play(sf[1 - i]!, lb1[i]!, 'LB', 2, i, 3, [true, false]));
  const lb3 = play(lb2[0]!, lb2[1]!, 'LB', 3, 0, 4, W);
  const lbf = play(ubf, lb3, 'LB', 4, 0, 5, [true, false]);
  play(ubf, lbf, 'GF', 1, 0, 6, W);
}
