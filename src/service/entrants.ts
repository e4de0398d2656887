/**
 * Which teams enter which tournament of a week. A game's active teams are ordered by strength with
 * a little form of the week (so the line between two tiers moves from week to week): the strongest
 * enter tier 1, the next tier 2, and so on, in three streams (tier 1, tier 2, tiers 3-4).
 *
 * At scale 1 a game's tournaments of a week have a few places fewer than it has active teams
 * (activeTeams, tiers.ts): those teams rest that week, half of them drawn among the strongest
 * (top teams skip some events), the others among the rest; every other team enters one
 * tournament. At a larger scale the places of a stream run out and its teams enter again from its
 * strongest (tier 1, one event a game, never does), and the timetable keeps each of them to one
 * series at a time across its tournaments.
 */
import type { Catalog } from './catalog.ts';
import { Rng } from './random.ts';
import { weekPlaces } from './tiers.ts';

/** How much a week's form moves a team's strength (0..1) when ordering the teams. */
const FORM = 0.15;

export class Entrants {
  /** Roster ids of tier 1, of tier 2, then of tiers 3-4, each strongest first. */
  readonly #streams: [number[], number[], number[]];
  readonly #taken = [0, 0, 0];

  constructor(catalog: Catalog, week: number, game: number) {
    const rng = new Rng(catalog.seed, 'entrants', week, 'game', game);
    const rosters = catalog.activeRosters.get(game)!;
    const rated = rosters.map((r) => ({
      id: r.id,
      rating: (catalog.strength.get(r.id) ?? 0) + rng.next() * FORM,
    }));
    rated.sort((a, b) => b.rating - a.rating || a.id - b.id);
    const battleRoyale = catalog.game(game)!.kind === 'battle-royale';
    const resting = Math.max(0, rated.length - weekPlaces(battleRoyale, 1));
    const top = Math.ceil(resting / 2);
    const topRest = rng.sample(rated.slice(0, weekPlaces(battleRoyale, 1, [1]) + top * 4), top);
    const rest = new Set(
      [...topRest, ...rng.sample(rated.slice(Math.floor(rated.length / 2)), resting - top)].map((r) => r.id),
    );
    const order = rated.map((r) => r.id).filter((id) => !rest.has(id));
    const first = Math.min(order.length, weekPlaces(battleRoyale, 1, [1]));
    const high = Math.min(order.length, weekPlaces(battleRoyale, 1, [1, 2]));
    this.#streams = [order.slice(0, first), order.slice(first, high), order.slice(high)];
  }

  /** The next `count` teams of the tier's stream (fewer only if the stream has fewer teams). */
  take(tier: number, count: number): number[] {
    const s = Math.min(tier, 3) - 1;
    const stream = this.#streams[s]!;
    const n = Math.min(count, stream.length);
    const taken: number[] = [];
    for (let i = 0; i < n; i++) taken.push(stream[(this.#taken[s]! + i) % stream.length]!);
    this.#taken[s]! += n;
    return taken;
  }
}
