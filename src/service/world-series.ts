/**
 * The series-side resources of the world at an instant: series, matches, their score events and
 * incident reports. Each is built from the plan, the seed and t; the world caches them.
 */
import type { EsoccerFormat, Incident, Lifecycle, Match, Participant, Series } from '../protocol/types.ts';
import type { GameInfo } from './catalog-games.ts';
import { Rng } from './random.ts';
import { shooterRoundTimes } from './rounds.ts';
import type { MatchPlan, SeriesPlan } from './schedule.ts';
import type { WorldView } from './world-view.ts';
import { iso } from './world-window.ts';

const ESOCCER_PERIOD_MS = 6 * 60_000;

/** The match format of a game: e-soccer's period length, null for other games. */
export function matchFormat(info: GameInfo): EsoccerFormat {
  return {
    esoccer: info.kind === 'esoccer' ? { period_duration: { milliseconds: ESOCCER_PERIOD_MS } } : null,
  };
}

/** Battle-royale kills and placements of a series at t (placement by series score, then seed). */
function battleRoyaleTotals(
  plan: SeriesPlan,
  scores: number[],
  t: number,
): { kills: number[]; placement: number[] } {
  const kills = plan.rosters.map(() => 0);
  for (const m of plan.matches)
    if (m.end <= t)
      m.kills!.forEach((k, i) => {
        kills[i]! += k;
      });
  const order = plan.rosters.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const placement = plan.rosters.map(() => 0);
  order.forEach((i, rank) => {
    placement[i] = rank + 1;
  });
  return { kills, placement };
}

/** The series resource at t, of the given version. */
export function buildSeries(world: WorldView, plan: SeriesPlan, t: number, version: number): Series {
  const lifecycle = world.lifecycle(plan, t);
  const over = lifecycle === 'over' || lifecycle === 'over-forfeited';
  const scores = world.seriesScores(plan, t);
  const br = plan.kind === 'battle-royale';
  const { kills, placement } = br ? battleRoyaleTotals(plan, scores, t) : { kills: [], placement: [] };
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
  const release = world.catalog.game(plan.game)!.releases.at(-1)!;
  return {
    id: plan.id,
    title: world.seriesTitle(plan, t),
    start: iso(world.displayedStart(plan, t)),
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

/**
 * Score events of a played match: per participant, the ascending instants at which its score grew
 * by one (kills, rounds, goals; battle-royale kills), generated from the seed.
 */
export function generateMatchEvents(seed: number, plan: SeriesPlan, m: MatchPlan): number[][] {
  // A shooter's rounds come at a steady pace in a plausible order (`rounds.ts`), not at random.
  if (plan.kind === 'shooter') return shooterRoundTimes(seed, m.id, m.start, m.end, m.scores, m.winner);
  const rng = new Rng(seed, 'events', m.id);
  const span = Math.max(1, m.end - m.start);
  const counts = plan.kind === 'battle-royale' ? m.kills! : m.scores;
  return counts.map((count, i) => {
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
}

/** The match resource at t, in the given lifecycle. */
export function buildMatch(
  world: WorldView,
  plan: SeriesPlan,
  m: MatchPlan,
  t: number,
  lifecycle: Lifecycle,
): Match {
  const scores = world.matchScores(plan, m, t);
  const over = lifecycle === 'over' || lifecycle === 'over-forfeited';
  const br = plan.kind === 'battle-royale';
  let version = 1;
  if (lifecycle === 'live') version = 2 + scores.reduce((a, b) => a + b, 0);
  else if (lifecycle !== 'upcoming')
    version = 3 + (lifecycle === 'over' ? m.scores.reduce((a, b) => a + b, 0) : 0);
  const info = world.catalog.game(plan.game)!;
  return {
    id: m.id,
    map: { id: m.map },
    lifecycle,
    order: m.order,
    series: { id: plan.id },
    deleted_at: world.matchDeletedAt(plan, m, t),
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
    format: matchFormat(info),
    resource_version: version,
  };
}

const INCIDENT_COMMENTS = [
  'Technical pause of several minutes after a client crash; the map resumed from a backup.',
  'A player disconnected during the draft; the referee granted a remake.',
  'Broadcast delay lowered by mistake for part of a map.',
  'Admin ruling on a pause taken outside the allowed window.',
];

/** Incident reports of the window's series that exist at t. */
export function incidentsAt(world: WorldView, t: number): Incident[] {
  const out: Incident[] = [];
  for (const plan of world.window(t).series) {
    if (plan.incidentAt === null || plan.incidentAt > t) continue;
    const played = plan.matches.filter((m) => m.winner >= 0 || plan.kind === 'battle-royale');
    const rng = new Rng(world.seed, 'incident', plan.id);
    const match = played.length > 0 ? rng.pick(played) : null;
    out.push({
      id: plan.id,
      series: { id: plan.id },
      match: match ? { id: match.id } : null,
      comment: rng.pick(INCIDENT_COMMENTS),
      game: { id: plan.game },
      tournament: { id: plan.tournament.id },
      created_at: iso(plan.incidentAt),
    });
  }
  return out;
}
