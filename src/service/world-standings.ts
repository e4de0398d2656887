/**
 * The tournament-side resources of the world at an instant: a substage's known rosters, its
 * standings and resource, and the stage that embeds its substages.
 */
import type { Stage, StandingEntry, Substage } from '../protocol/types.ts';
import { coverageFor, type SeriesPlan, type StagePlan, type SubstagePlan } from './schedule.ts';
import { matchFormat } from './world-series.ts';
import type { WorldView } from './world-view.ts';
import { iso } from './world-window.ts';

/** A standings row as the service serves it: v3 always gives the map and score differences. */
export type ServedStanding = StandingEntry & { match_diff: number; score_diff: number };

/** Ends of the series of a substage (those that count), ascending: the substage's changes. */
export function substageChanges(sub: SubstagePlan): number[] {
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
export function knownSubstageRosters(world: WorldView, sub: SubstagePlan, t: number): number[] {
  if (sub.stage.order === 1) return sub.rosters;
  const known = new Set(sub.series.flatMap((s) => world.knownRosters(s, t)));
  return sub.rosters.filter((r) => known.has(r));
}

function emptyRow(roster: number): ServedStanding {
  return { roster: { id: roster }, points: 0, wins: 0, draws: 0, losses: 0, match_diff: 0, score_diff: 0 };
}

/** A battle-royale lobby's points so far, and its wins and losses once it is over. */
function countLobby(world: WorldView, rows: Map<number, ServedStanding>, plan: SeriesPlan, t: number): void {
  const scores = world.seriesScores(plan, t);
  plan.rosters.forEach((r, i) => {
    // A final lobby's rosters are not in the table before the groups are over.
    const row = rows.get(r);
    if (row) row.points += scores[i]!;
  });
  if (world.lifecycle(plan, t) === 'over') {
    plan.rosters.forEach((r, i) => {
      const row = rows.get(r)!;
      if (i === plan.winner) row.wins++;
      else row.losses++;
    });
  }
}

/** A head-to-head series once it is over: a win and a loss, points, map and score differences. */
function countSeries(
  world: WorldView,
  rows: Map<number, ServedStanding>,
  sub: SubstagePlan,
  plan: SeriesPlan,
  t: number,
): void {
  const lifecycle = world.lifecycle(plan, t);
  if (lifecycle !== 'over' && lifecycle !== 'over-forfeited') return;
  const w = plan.winner;
  const maps = world.seriesScores(plan, t);
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

/** A substage's standings at t, following its points rules; best first. */
export function standingsAt(world: WorldView, sub: SubstagePlan, t: number): ServedStanding[] {
  const rows = new Map<number, ServedStanding>();
  for (const roster of knownSubstageRosters(world, sub, t)) rows.set(roster, emptyRow(roster));
  for (const plan of sub.series) {
    if (plan.deletedAt !== null) continue;
    if (plan.kind === 'battle-royale') countLobby(world, rows, plan, t);
    else countSeries(world, rows, sub, plan, t);
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

/** A substage's advance or descend rule as served. */
function movementRule(rule: SubstagePlan['advance']): Substage['rules']['advance'] {
  return rule
    ? { number: rule.number, substage: rule.substage === null ? null : { id: rule.substage } }
    : null;
}

/** The substage resource at t, of the given version. */
export function buildSubstage(world: WorldView, sub: SubstagePlan, t: number, version: number): Substage {
  const tournament = sub.stage.tournament;
  const info = world.catalog.game(tournament.game)!;
  const release = info.releases.at(-1)!;
  return {
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
    rosters: knownSubstageRosters(world, sub, t).map((id) => ({ id })),
    start: iso(sub.start),
    deleted_at: null,
    standings: world.standingsAt(sub, t),
    rules: { advance: movementRule(sub.advance), descend: movementRule(sub.descend), points: sub.points },
    defaults: {
      game_version: { release },
      series_format: { best_of: sub.bestOf },
      match_format: matchFormat(info),
    },
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
}

/** The stage resource at t (embeds whole substages, as the spec says). */
export function buildStage(world: WorldView, stage: StagePlan, t: number): Stage {
  const substages = stage.substages.map((s) => world.substageAt(s, t));
  const release = world.catalog.game(stage.tournament.game)!.releases.at(-1)!;
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
