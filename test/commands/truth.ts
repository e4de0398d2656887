/**
 * The truth, read straight from the service's world (not through the client or the commands), so
 * that command tests compare against something computed independently.
 */
import type { Series } from '../../src/protocol/types.ts';
import type { World } from '../../src/service/world.ts';

/** Every listed series at the world's instant, as the service would serve it, deleted ones dropped. */
export function worldSeries(world: World): Series[] {
  const t = world.now();
  return world
    .window(t)
    .series.map((plan) => world.seriesAt(plan, t))
    .filter((s) => s.deleted_at === null && s.lifecycle !== 'deleted');
}

export function teamNameOf(world: World, rosterId: number): string {
  const roster = world.catalog.rosterById.get(rosterId);
  return roster ? (world.catalog.teamById.get(roster.team.id)?.name ?? 'TBD') : 'TBD';
}

/** "A vs B" in seed order. */
export function matchupOf(world: World, series: Series): string {
  return [...series.participants]
    .sort((a, b) => a.seed - b.seed)
    .map((p) => teamNameOf(world, p.roster.id))
    .join(' vs ');
}

export function byStartThenId(a: Series, b: Series): number {
  return Date.parse(a.start!) - Date.parse(b.start!) || a.id - b.id;
}

export function byEndDescThenId(a: Series, b: Series): number {
  return Date.parse(b.end!) - Date.parse(a.end!) || a.id - b.id;
}

export const FINISHED = ['over', 'over-forfeited'];
