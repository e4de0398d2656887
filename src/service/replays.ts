/**
 * Cancelled group series, handled as organisers do: a series of a round-robin group cancelled
 * before it is played (deleted, series-timing.ts) is replayed, a new series between the same teams
 * with the outcome the group's table was planned with (finalStandings, series-plans.ts), played
 * after the group's last round (timetable.ts). So every team of a finished group has played the
 * same number of series, and no cancellation decides who advances.
 */
import type { Catalog } from './catalog.ts';
import type { SeriesPlan, TournamentPlan } from './plan-types.ts';

/** Round (within its stage) of a replay: after every round of the group. */
export const REPLAY_ROUND = 50;

/** Adds a replay to its group for each cancelled series of the tournament's round-robin groups. */
export function replayCancelled(catalog: Catalog, t: TournamentPlan, nextId: () => number): void {
  for (const stage of t.stages) {
    for (const sub of stage.substages) {
      if (sub.type !== 1) continue;
      const cancelled = sub.series.filter((s) => s.deletedAt !== null);
      for (const s of cancelled) sub.series.push(replayOf(catalog, s, nextId()));
    }
  }
}

/** The replay of a cancelled series (timed relative to its own start, as finishPlan leaves it). */
function replayOf(catalog: Catalog, plan: SeriesPlan, id: number): SeriesPlan {
  const matches = plan.matches.map((m) => ({ ...m, id: id * 8 + m.order }));
  const played = matches.filter((m) => m.winner >= 0);
  const broadcasters = plan.broadcasters.map((b) => ({
    ...b,
    broadcasts: b.broadcasts.map((x) => ({ ...x, external_id: `${b.broadcaster.external_id}-${id}` })),
  }));
  return {
    ...plan,
    id,
    round: plan.substage.stage.order * 100 + REPLAY_ROUND,
    deletedAt: null,
    postponedFrom: null,
    postponedAt: null,
    incidentAt: null,
    matches,
    rosters: [...plan.rosters],
    sources: plan.rosters.map(() => null),
    revealAt: plan.rosters.map(() => 0),
    streamed: plan.streamed || plan.tier === 1,
    broadcasters: plan.streamed ? broadcasters : defaultBroadcast(catalog, id),
    casters: [],
    changes: [plan.start, ...played.map((m) => m.end)].sort((a, b) => a - b),
  };
}

/** The official broadcast of a replay whose cancelled series was not to be streamed. */
function defaultBroadcast(catalog: Catalog, id: number): SeriesPlan['broadcasters'] {
  const b = catalog.broadcasters[id % catalog.broadcasters.length]!;
  return [
    {
      broadcaster: b,
      broadcasts: [{ external_id: `${b.external_id}-${id}`, language: b.broadcast_defaults.language }],
      official: true,
    },
  ];
}
