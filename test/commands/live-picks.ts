/**
 * A live series of each kind of game, picked from the world's plans: for tests and golden
 * snapshots that watch a match being played of a given game.
 */
import { summarySource } from '../../src/feed/reads.ts';
import type { GameKind } from '../../src/protocol/live-summary.ts';
import type { MatchPlan, SeriesPlan } from '../../src/service/schedule.ts';
import type { World } from '../../src/service/world.ts';

export interface LivePick {
  plan: SeriesPlan;
  match: MatchPlan;
  /** An instant 60% into the match. */
  at: Date;
}

/**
 * The first series of the kind in the window around `from` (tier 1 or 2, not forfeited, deleted
 * or postponed, with live coverage and known participants), at an instant 60% into its second map
 * (its first for a single map), so an earlier map has a result.
 */
export function pickLive(world: World, kind: GameKind, from: Date): LivePick {
  for (const plan of world.window(from.getTime()).series) {
    if (plan.kind !== kind || plan.forfeit >= 0 || plan.deletedAt !== null || plan.postponedFrom !== null)
      continue;
    const played = plan.matches.filter((m) => m.end > m.start);
    const match = played[1] ?? played[0];
    if (!match) continue;
    const at = match.start + Math.floor((match.end - match.start) * 0.6);
    if (plan.revealAt.some((r) => r > at) || plan.tier > 2) continue;
    const series = world.seriesAt(plan, at);
    if (series.lifecycle !== 'live' || summarySource(series) === undefined) continue;
    return { plan, match, at: new Date(at) };
  }
  throw new Error(`no ${kind} series to watch`);
}
