/** v2 `/teams`, `/players`, `/rosters/{id}` and `/organisations` (the v2 specification, "Endpoints"). */
import type { Player, Team } from '../../protocol/types.ts';
import type { World } from '../world.ts';
import {
  badInput,
  matchesQ,
  notFound,
  readBool,
  readCode,
  readIds,
  readInt,
  readPage,
  readWith,
  V2Gone,
} from './params.ts';
import type { V2Context } from './series.ts';
import {
  countryV2,
  type Envelope,
  envelope,
  gameV2,
  playerV2,
  rosterV2,
  seriesV2,
  teamV2,
} from './shapes.ts';
import { playerStats, rosterStats, teamStats } from './stats.ts';

/** A team or player with its `game` only when `with[]=game` asked for it (the spec's optional part). */
function withGame<T extends { game: unknown }>(body: T, withParts: Set<string>): Record<string, unknown> {
  if (withParts.has('game')) return body;
  const { game: _game, ...rest } = body;
  return rest;
}

/** Rosters of teams that play in the given tournaments (window's tournaments). */
function tournamentRosters(world: World, ids: number[]): Set<number> {
  const rosters = new Set<number>();
  for (const id of ids) for (const r of world.tournamentPlan(id)?.rosters ?? []) rosters.add(r);
  return rosters;
}

export function listTeams(c: V2Context): Envelope<unknown> {
  const { query, world } = c;
  const page = readPage(query);
  const withParts = readWith(query, ['game']);
  const games = new Set(readIds(query, 'games'));
  const tournaments = readIds(query, 'tournaments');
  const active = readBool(query, 'active') ?? true;
  const country = readCode(query, 'country');
  const q = query.get('q');
  const inTournaments = tournamentRosters(world, tournaments);
  const teams = world.catalog.teams.filter((team) => {
    if (games.size > 0 && !games.has(team.game.id)) return false;
    if (active && !team.active) return false;
    if (country !== undefined && team.region.country.abbreviation.toLowerCase() !== country) return false;
    if (
      tournaments.length > 0 &&
      !world.catalog.rosters.some((r) => r.team.id === team.id && inTournaments.has(r.id))
    )
      return false;
    return matchesQ(q, team.name, team.abbreviation);
  });
  return envelope(
    teams.sort((a, b) => a.id - b.id),
    page,
    (team) => withGame(teamV2(world, team), withParts),
  );
}

/** `months_back` (default 3): 1 or more. */
function readMonthsBack(query: URLSearchParams): number {
  const months = readInt(query, 'months_back', 3);
  if (months < 1) throw badInput(`months_back "${months}" must be 1 or more.`);
  return months;
}

/**
 * The 5 closest upcoming (closest first) and the last 5 over series of some rosters, those ended
 * within the last `monthsBack` months.
 */
function schedule(c: V2Context, rosters: Set<number>, monthsBack: number) {
  const from = c.t - monthsBack * 30 * 24 * 60 * 60 * 1000;
  const plans = [...rosters].flatMap((id) => c.world.window(c.t).byRoster.get(id) ?? []);
  const series = [...new Set(plans)]
    .map((p) => c.world.seriesAt(p, c.t))
    .filter((s) => s.deleted_at === null);
  const upcoming = series
    .filter((s) => s.end === null)
    .sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!) || a.id - b.id)
    .slice(0, 5);
  const recent = series
    .filter((s) => s.end !== null && Date.parse(s.end) > from)
    .sort((a, b) => Date.parse(b.end!) - Date.parse(a.end!) || a.id - b.id)
    .slice(0, 5);
  const none = new Set<string>();
  return {
    upcoming_series: upcoming.map((s) => seriesV2(c.world, s, c.t, none)),
    recent_series: recent.map((s) => seriesV2(c.world, s, c.t, none)),
  };
}

export function getTeam(c: V2Context): unknown {
  const withParts = readWith(c.query, ['game', 'team_stats', 'schedule', 'rosters', 'players']);
  const monthsBack = readMonthsBack(c.query);
  const team: Team = c.world.catalog.teamById.get(c.ids[0]!) ?? notFound();
  const body: Record<string, unknown> = withGame(teamV2(c.world, team), withParts);
  // Most recent default (standing) roster first.
  const rosters = c.world.catalog.rosters
    .filter((r) => r.team.id === team.id)
    .sort(
      (a, b) =>
        Number(b.id === team.standing_roster?.roster.id) - Number(a.id === team.standing_roster?.roster.id) ||
        b.id - a.id,
    );
  if (withParts.has('rosters')) body.rosters = rosters.map((r) => rosterV2(c.world, r));
  if (withParts.has('players')) {
    const current = rosters[0];
    body.players = current ? rosterV2(c.world, current).players : null;
  }
  if (withParts.has('schedule'))
    Object.assign(body, schedule(c, new Set(rosters.map((r) => r.id)), monthsBack));
  if (withParts.has('team_stats'))
    body.team_stats = teamStats(c.world, new Set(rosters.map((r) => r.id)), c.t, monthsBack);
  if (team.deleted_at !== null) throw new V2Gone(body);
  return body;
}

export function listPlayers(c: V2Context): Envelope<unknown> {
  const { query, world } = c;
  const page = readPage(query);
  const withParts = readWith(query, ['game', 'team']);
  const games = new Set(readIds(query, 'games'));
  const tournaments = readIds(query, 'tournaments');
  const active = readBool(query, 'active') ?? true;
  const country = readCode(query, 'country');
  const q = query.get('q');
  const inTournaments = tournamentRosters(world, tournaments);
  const players = world.catalog.players.filter((p) => {
    if (games.size > 0 && !games.has(p.game.id)) return false;
    if (active && !p.active) return false;
    if (country !== undefined && p.region.country.abbreviation.toLowerCase() !== country) return false;
    if (
      tournaments.length > 0 &&
      !world.catalog.rosters.some(
        (r) => inTournaments.has(r.id) && r.line_up.players.some((x) => x.id === p.id),
      )
    )
      return false;
    return matchesQ(q, p.nick_name, p.first_name, p.last_name);
  });
  return envelope(
    players.sort((a, b) => a.id - b.id),
    page,
    (p) => {
      const body: Record<string, unknown> = withGame(playerV2(world, p), withParts);
      if (!withParts.has('team')) body.team = undefined;
      return body;
    },
  );
}

export function getPlayer(c: V2Context): unknown {
  const withParts = readWith(c.query, ['game', 'rosters', 'player_stats', 'schedule']);
  const monthsBack = readMonthsBack(c.query);
  const player: Player = c.world.catalog.playerById.get(c.ids[0]!) ?? notFound();
  const body: Record<string, unknown> = withGame(playerV2(c.world, player), withParts);
  const rosters = c.world.catalog.rosters.filter((r) => r.line_up.players.some((x) => x.id === player.id));
  if (withParts.has('rosters')) body.rosters = rosters.map((r) => rosterV2(c.world, r));
  if (withParts.has('schedule'))
    Object.assign(body, schedule(c, new Set(rosters.map((r) => r.id)), monthsBack));
  if (withParts.has('player_stats')) {
    const kind = c.world.catalog.game(player.game.id)!.kind;
    body.stats = playerStats(c.world, kind, new Set(rosters.map((r) => r.id)), c.t, monthsBack);
  }
  if (player.deleted_at !== null) throw new V2Gone(body);
  return body;
}

export function getRoster(c: V2Context): unknown {
  const withParts = readWith(c.query, ['game', 'roster_stats']);
  const monthsBack = readMonthsBack(c.query);
  const roster = c.world.catalog.rosterById.get(c.ids[0]!) ?? notFound();
  const body: Record<string, unknown> = rosterV2(c.world, roster);
  if (withParts.has('game')) body.game = gameV2(c.world.catalog.game(roster.game.id)!.game);
  if (withParts.has('roster_stats')) body.roster_stats = rosterStats(c.world, roster.id, c.t, monthsBack);
  return body;
}

export function listOrganisations(c: V2Context): Envelope<unknown> {
  const page = readPage(c.query);
  const list = [...c.world.catalog.organisations].sort((a, b) => a.id - b.id);
  return envelope(list, page, (o) => ({ id: o.id, name: o.name }));
}

export function getOrganisation(c: V2Context): unknown {
  const org = c.world.catalog.organisations.find((o) => o.id === c.ids[0]) ?? notFound();
  return {
    id: org.id,
    name: org.name,
    teams: org.teams.flatMap((ref) => {
      const team = c.world.catalog.teamById.get(ref.id);
      if (!team) return [];
      return [
        {
          ...teamV2(c.world, team),
          country: countryV2(team.region.country),
          social_media_accounts: team.social_media_accounts.map((a) => ({
            name: a.platform.name,
            slug: a.handle,
            url: a.url,
          })),
        },
      ];
    }),
  };
}
