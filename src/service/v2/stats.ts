/**
 * The v2 statistics resources (`service-v2.md`, "Statistics resources"): team stats (`streak`,
 * `winrate`, `nemesis`, `dominating`, `play_by_play`), roster stats (the team format without the
 * series scopes) and player stats (`single_player` or `play_by_play`, the other null). Every
 * figure is counted from the results the world has decided by t, over `months_back` months.
 */
import type { GameKind } from '../catalog-defs.ts';
import type { SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';

/** One decided series or map of a roster, oldest first. */
interface Result {
  won: boolean;
  end: number;
  /** The opponent's roster. */
  opponent: number;
  bestOf: number;
  map: number | null;
}

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/** `{ current, best, worst }`: current > 0 is a run of wins, < 0 of losses; best >= 0, worst <= 0. */
export function streakOf(results: readonly Result[]): { current: number; best: number; worst: number } {
  let current = 0;
  let best = 0;
  let worst = 0;
  for (const r of results) {
    current = r.won ? Math.max(0, current) + 1 : Math.min(0, current) - 1;
    best = Math.max(best, current);
    worst = Math.min(worst, current);
  }
  return { current, best, worst };
}

function rate(results: readonly Result[]): { rate: number; history: number } {
  const wins = results.filter((r) => r.won).length;
  return {
    rate: results.length === 0 ? 0 : Math.round((wins / results.length) * 1000) / 1000,
    history: results.length,
  };
}

function groupBy<K>(results: readonly Result[], key: (r: Result) => K): Map<K, Result[]> {
  const out = new Map<K, Result[]>();
  for (const r of results) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

/** The series and maps the rosters decided in (t - monthsBack, t], oldest first. */
function resultsOf(world: World, rosters: ReadonlySet<number>, t: number, monthsBack: number) {
  const from = t - monthsBack * MONTH_MS;
  const plans = new Set<SeriesPlan>();
  for (const id of rosters) for (const p of world.window(t).byRoster.get(id) ?? []) plans.add(p);
  const series: Result[] = [];
  const matches: Result[] = [];
  for (const plan of plans) {
    if (plan.kind === 'battle-royale' || plan.rosters.length !== 2) continue;
    const side = plan.rosters.findIndex((r) => rosters.has(r));
    const opponent = plan.rosters[1 - side]!;
    const lifecycle = world.lifecycle(plan, t);
    if ((lifecycle === 'over' || lifecycle === 'over-forfeited') && plan.end > from)
      series.push({ won: plan.winner === side, end: plan.end, opponent, bestOf: plan.bestOf, map: null });
    for (const m of plan.matches) {
      if (world.matchLifecycle(plan, m, t) !== 'over' || m.winner < 0 || m.end <= from) continue;
      matches.push({ won: m.winner === side, end: m.end, opponent, bestOf: plan.bestOf, map: m.map });
    }
  }
  const byEnd = (a: Result, b: Result) => a.end - b.end;
  return { series: series.sort(byEnd), matches: matches.sort(byEnd) };
}

/** The opponent (a team) that beat the rosters most often, and the one they beat most often. */
function rivals(world: World, results: readonly Result[]) {
  const teamOf = (roster: number) => world.catalog.rosterById.get(roster)?.team.id ?? null;
  const top = (won: boolean) => {
    const counts = groupBy(
      results.filter((r) => r.won === won),
      (r) => teamOf(r.opponent),
    );
    const [id, list] =
      [...counts].sort((a, b) => b[1].length - a[1].length || (a[0] ?? 0) - (b[0] ?? 0))[0] ?? [];
    const team = id === undefined || id === null ? undefined : world.catalog.teamById.get(id);
    return team && list
      ? { competitor: { id: team.id, name: team.name, short_name: team.abbreviation }, count: list.length }
      : null;
  };
  const nemesis = top(false);
  const dominating = top(true);
  return {
    nemesis: nemesis ? { competitor: nemesis.competitor, losses: nemesis.count } : null,
    dominating: dominating ? { competitor: dominating.competitor, wins: dominating.count } : null,
  };
}

function matchScope(world: World, matches: readonly Result[]) {
  const maps = groupBy(matches, (r) => r.map);
  const known = new Map(world.catalog.games.flatMap((g) => g.maps).map((m) => [m.id, m]));
  return {
    ...rate(matches),
    per_map: [...maps]
      .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))
      .map(([id, list]) => {
        const found = known.get(id ?? -1);
        return { map: { id, name: found?.name ?? null }, ...rate(list) };
      }),
  };
}

/** `team_stats` of a team's rosters. */
export function teamStats(world: World, rosters: ReadonlySet<number>, t: number, monthsBack: number) {
  const { series, matches } = resultsOf(world, rosters, t, monthsBack);
  const formats = groupBy(series, (r) => r.bestOf);
  return {
    streak: { series: streakOf(series), match: streakOf(matches) },
    winrate: {
      series: {
        ...rate(series),
        per_format: [...formats]
          .sort((a, b) => a[0] - b[0])
          .map(([bestOf, list]) => ({ best_of: bestOf, ...rate(list) })),
      },
      match: matchScope(world, matches),
    },
    ...rivals(world, series),
    play_by_play: null,
  };
}

/** `roster_stats`: the team format without the series scopes. */
export function rosterStats(world: World, roster: number, t: number, monthsBack: number) {
  const { matches } = resultsOf(world, new Set([roster]), t, monthsBack);
  return {
    streak: { match: streakOf(matches) },
    winrate: { match: matchScope(world, matches) },
    ...rivals(world, matches),
    play_by_play: null,
  };
}

/** Games played one player a side: their player stats are `single_player`. */
const SINGLE_PLAYER: ReadonlySet<GameKind> = new Set(['rts', 'esoccer']);

/** A player's `stats`: the roster figures of the rosters the player plays in. */
export function playerStats(
  world: World,
  kind: GameKind,
  rosters: ReadonlySet<number>,
  t: number,
  monthsBack: number,
) {
  const { matches } = resultsOf(world, rosters, t, monthsBack);
  const figures = { streak: { match: streakOf(matches) }, winrate: { match: matchScope(world, matches) } };
  return SINGLE_PLAYER.has(kind)
    ? { single_player: figures, play_by_play: null }
    : { single_player: null, play_by_play: figures };
}

/**
 * A match's `performance`: the two rosters' map win rates against each other (`over_all`, null
 * before they ever met) and per map, from the maps they decided before t (spec, "Performance
 * resources").
 */
export function matchPerformance(world: World, rosters: readonly number[], t: number, monthsBack = 12) {
  const [a, b] = rosters;
  if (a === undefined || b === undefined) return { winrate: { over_all: null, per_map: [] } };
  const met = resultsOf(world, new Set([a]), t, monthsBack).matches.filter((r) => r.opponent === b);
  const shape = (list: readonly Result[]) => {
    const { rate: ofA, history } = rate(list);
    return {
      [String(a)]: ofA,
      [String(b)]: history === 0 ? 0 : Math.round((1 - ofA) * 1000) / 1000,
      history,
    };
  };
  const known = new Map(world.catalog.games.flatMap((g) => g.maps).map((m) => [m.id, m]));
  return {
    winrate: {
      over_all: met.length === 0 ? null : shape(met),
      per_map: [...groupBy(met, (r) => r.map)]
        .sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0))
        .map(([id, list]) => ({ ...shape(list), map: { id, name: known.get(id ?? -1)?.name ?? null } })),
    },
  };
}

/**
 * A series' `performance`: `past_encounters`, the series its two rosters played against each other
 * over the year before t, and `recent_performance`, each roster's 10 most recent decided series,
 * newest first (spec, "Performance resources").
 */
export function seriesPerformance(world: World, plan: SeriesPlan, t: number) {
  const decided = (roster: number) =>
    [...(world.window(t).byRoster.get(roster) ?? [])]
      .filter((p) => p.id !== plan.id && p.end > t - 12 * MONTH_MS)
      .filter((p) => ['over', 'over-forfeited'].includes(world.lifecycle(p, t)))
      .sort((x, y) => y.end - x.end || x.id - y.id);
  const [a, b] = plan.rosters;
  return {
    past_encounters:
      a === undefined || b === undefined ? [] : decided(a).filter((p) => p.rosters.includes(b)),
    recent_performance: Object.fromEntries(plan.rosters.map((r) => [String(r), decided(r).slice(0, 10)])),
  };
}
