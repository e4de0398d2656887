/**
 * The push channels of the local service (`shared/spec/service-v3.md`, "Events"): two per game,
 * `<game>_live_cv_states` and `<game>_live_api_states`, where `<game>` is the game's abbreviation
 * in lower case (`ac_live_api_states`). A match's state changes at its start, at each score event
 * (`world.matchEvents`: kills, rounds, goals), every minute of a MOBA's clock (its structures and
 * gold move with time) and at its end; each change is one message on both channels of its game.
 * A match's `latest_states_channel_index` is the number of its changes so far: 1 at its start, one
 * more per change, so a client sees a gap as a jump of more than 1.
 */
import type { MatchPlan, SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';

export type PushSource = 'cv' | 'api';

export const SOURCES: readonly PushSource[] = ['cv', 'api'];

/** A MOBA's state is also published every minute of its clock. */
export const MOBA_STATE_STEP_MS = 60_000;

/** The channel of a game's live states from a source. */
export function channelName(gameAbbreviation: string, source: PushSource): string {
  return `${gameAbbreviation.toLowerCase()}_live_${source}_states`;
}

/** Every channel name of the world's games, with its game and source. */
export function allChannels(world: World): { name: string; game: number; source: PushSource }[] {
  return world.catalog.games.flatMap((info) =>
    SOURCES.map((source) => ({
      name: channelName(info.game.abbreviation, source),
      game: info.game.id,
      source,
    })),
  );
}

/** True when the match ever has a live summary (it is played: not forfeited, not deleted before its start). */
export function hasLiveStates(plan: SeriesPlan, m: MatchPlan): boolean {
  const played = plan.kind === 'battle-royale' || m.winner >= 0;
  return plan.forfeit < 0 && played && !(plan.deletedAt !== null && plan.deletedAt <= m.start);
}

const cache = new WeakMap<MatchPlan, number[]>();

/** The instants at which the match's live state changes, ascending (empty if it never goes live). */
export function stateInstants(world: World, plan: SeriesPlan, m: MatchPlan): number[] {
  const known = cache.get(m);
  if (known) return known;
  const out = new Set<number>();
  if (hasLiveStates(plan, m)) {
    out.add(m.start);
    for (const list of world.matchEvents(plan, m))
      for (const x of list) if (x > m.start && x <= m.end) out.add(x);
    if (plan.kind === 'moba')
      for (let x = m.start + MOBA_STATE_STEP_MS; x < m.end; x += MOBA_STATE_STEP_MS) out.add(x);
    out.add(m.end);
  }
  const sorted = [...out].sort((a, b) => a - b);
  cache.set(m, sorted);
  return sorted;
}

/** The match's `latest_states_channel_index` at t: its state changes at or before t (0 before its start). */
export function statesIndex(world: World, plan: SeriesPlan, m: MatchPlan, t: number): number {
  const instants = stateInstants(world, plan, m);
  let lo = 0;
  let hi = instants.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (instants[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
