/**
 * Play-by-play in v2 (`service-v2.md`, "Match play-by-play"): which matches have it (their
 * `has_pbpstats` flag), a match's summary through `with[]=summary` (the second game shape for a
 * MOBA, the first for a shooter) and a series' `scoreboard`. The spec shows no third game's shape,
 * so only MOBAs and shooters have play-by-play; a flag that says true always comes with a summary.
 */
import { liveApiSummary } from '../live.ts';
import type { MatchPlan, SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';
import { mobaPlayByPlay } from './moba-summary.ts';
import { shooterPlayByPlay, shooterScoreboard } from './shooter-summary.ts';

/**
 * True when the match has a play-by-play summary at t: a MOBA or shooter map with live API
 * coverage, played (not forfeited, not deleted before its start) and started.
 */
export function hasPlayByPlay(plan: SeriesPlan, m: MatchPlan, t: number): boolean {
  if (plan.kind !== 'moba' && plan.kind !== 'shooter') return false;
  if (plan.coverage.data.live.api.fact !== 'available') return false;
  if (plan.forfeit >= 0 || m.winner < 0 || (plan.deletedAt !== null && plan.deletedAt <= m.start))
    return false;
  return t >= m.start;
}

/** The match's summary at t, or null where it has no play-by-play. */
export function matchPlayByPlay(world: World, plan: SeriesPlan, m: MatchPlan, t: number): unknown {
  if (!hasPlayByPlay(plan, m, t)) return null;
  return plan.kind === 'moba' ? mobaPlayByPlay(world, plan, m, t) : shooterPlayByPlay(world, plan, m, t);
}

interface Totals {
  player: { id: number };
  roster: { id: number };
  kills: number;
  deaths: number;
  assists: number;
}

/**
 * A series' summary: `scoreboard` keyed by seeding (1, 2), each the per-player totals over the
 * maps with play-by-play by t (empty before any).
 */
export function seriesPlayByPlay(world: World, plan: SeriesPlan, t: number) {
  const boards: Record<1 | 2, Map<number, Totals>> = { 1: new Map(), 2: new Map() };
  for (const m of plan.matches) {
    if (!hasPlayByPlay(plan, m, t)) continue;
    let board: Record<1 | 2, Totals[]>;
    if (plan.kind === 'shooter') board = shooterScoreboard(world, plan, m, t);
    else {
      const api = liveApiSummary(world, plan, m, t);
      const rows = (team: typeof api.teams.home) =>
        team.players.map((p) => ({
          player: { id: p.id },
          roster: { id: team.roster.id },
          kills: p.kills.total,
          deaths: p.deaths.total,
          assists: p.assists.total,
        }));
      board = { 1: rows(api.teams.home), 2: rows(api.teams.away) };
    }
    for (const seed of [1, 2] as const)
      for (const row of board[seed]) {
        const sum = boards[seed].get(row.player.id);
        if (!sum) boards[seed].set(row.player.id, { ...row });
        else {
          sum.kills += row.kills;
          sum.deaths += row.deaths;
          sum.assists += row.assists;
        }
      }
  }
  return { scoreboard: { 1: [...boards[1].values()], 2: [...boards[2].values()] } };
}
