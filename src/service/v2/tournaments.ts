/** v2 `/tournaments` and `/tournaments/{id}` (the v2 specification, "Tournament list parameters"). */
import type { Tournament } from '../../protocol/types.ts';
import { readListHead, readStartBounds } from './list-params.ts';
import { matchesQ, notFound, readCode, readIds, readWith } from './params.ts';
import type { V2Context } from './series.ts';
import { type Envelope, envelope, tournamentV2 } from './shapes.ts';

export function listTournaments(c: V2Context): Envelope<unknown> {
  const { query, world, t } = c;
  const { page, withParts, order, desc } = readListHead(
    query,
    ['series', 'casters', 'stages.substages'],
    ['start', 'end', 'game_id'],
  );
  const games = new Set(readIds(query, 'games'));
  const competitors = readIds(query, 'competitors');
  const platforms = new Set(readIds(query, 'platforms'));
  const tiers = new Set(readIds(query, 'tiers'));
  const { before, after, isOver } = readStartBounds(query, t);
  const country = readCode(query, 'country');
  const lang = readCode(query, 'lang');
  const q = query.get('q');
  const plans = world.window(t).tournaments.filter((plan) => {
    if (games.size > 0 && !games.has(plan.game)) return false;
    if (tiers.size > 0 && !tiers.has(plan.tier)) return false;
    if (competitors.length > 0 && !competitors.some((r) => plan.rosters.includes(r))) return false;
    if (before !== undefined && !(plan.start < before)) return false;
    if (after !== undefined && !(plan.start >= after)) return false;
    if (isOver !== undefined && plan.end <= t !== isOver) return false;
    const casters = plan.casters.map((id) => world.catalog.casterById.get(id));
    if (platforms.size > 0 && !casters.some((x) => x && platforms.has(x.platform.id))) return false;
    if (lang !== undefined && !casters.some((x) => x?.region.country.abbreviation.toLowerCase() === lang))
      return false;
    return matchesQ(q, plan.title, plan.shortTitle);
  });
  let tournaments: Tournament[] = plans.map((p) => world.tournamentAt(p));
  if (country !== undefined)
    tournaments = tournaments.filter((x) => x.location.host?.country.abbreviation.toLowerCase() === country);
  const key = (x: Tournament) =>
    order === 'game_id' ? x.game.id : Date.parse(order === 'start' ? x.start : x.end);
  tournaments.sort((a, b) => (key(a) - key(b)) * (desc ? -1 : 1) || a.id - b.id);
  return envelope(tournaments, page, (x) => tournamentV2(world, x, t, withParts, true));
}

export function getTournament(c: V2Context): unknown {
  const withParts = readWith(c.query, ['series', 'casters', 'series.casters', 'rosters', 'stages.substages']);
  const plan = c.world.tournamentPlan(c.ids[0]!) ?? notFound();
  return tournamentV2(c.world, c.world.tournamentAt(plan), c.t, withParts);
}
