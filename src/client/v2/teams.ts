/**
 * Teams, rosters, players and organisations on v2. Rosters, teams and players come embedded in
 * series, rosters and tournaments (`Embedded`): a `getMany` answers from those first and reads the
 * others one request each. v2 has no roster listing: rosters are the ones seen.
 */
import { safeId } from '../../protocol/filter.ts';
import type { Player, Roster, Team } from '../../protocol/types.ts';
import type { QueryParams } from '../query.ts';
import type { CallOptions, ListQuery } from '../types.ts';
import {
  ids,
  many,
  notOnV2,
  paginate,
  type Resources,
  slice,
  take,
  unsupported,
  type V2Reader,
} from './reader.ts';
import { toPlayer, toSeries, toTeam } from './records.ts';
import { seriesParams } from './series.ts';
import type { V2Game, V2Player, V2Roster, V2Series, V2Team } from './shapes.ts';

async function teamGet(r: V2Reader, id: number, options?: CallOptions): Promise<Team> {
  const a = await r.get<V2Team>(`/teams/${safeId(id)}`, { 'with[]': 'game,rosters' }, options);
  for (const x of a.body.rosters ?? []) r.seen.roster(x, a.body.game?.id ?? 0);
  const team = toTeam(a.body);
  r.seen.put(r.seen.teams, id, team);
  return team;
}

async function teamList(r: V2Reader, q: ListQuery<'teams'> | undefined, o?: CallOptions): Promise<Team[]> {
  const params: QueryParams = { 'with[]': 'game' };
  for (const [field, op, value] of q?.filter ?? []) {
    if (field === 'deleted_at' && op === '=' && value === null) continue;
    if (field === 'game.id' && (op === '=' || op === '<=')) params['games[]'] = ids(value);
    else if (field === 'active' && op === '=') params.active = value ? 'true' : 'false';
    // v2 `q` searches name and short name ("contains"), as v3's `name~=` does on the name.
    else if (field === 'name' && op === '~=' && typeof value === 'string') params.q = value;
    else notOnV2(`the team condition ${field} ${op}`);
  }
  const { items } = await r.window<V2Team>('/teams', params, q?.skip ?? 0, take(q), o);
  return items.map((t) => r.seen.teams.get(t.id) ?? toTeam(t));
}

async function rosterGet(r: V2Reader, id: number, options?: CallOptions): Promise<Roster> {
  const a = await r.get<V2Roster & { game?: V2Game }>(
    `/rosters/${safeId(id)}`,
    { 'with[]': 'game' },
    options,
  );
  r.seen.roster(a.body, a.body.game?.id ?? 0);
  return r.seen.rosters.get(a.body.id)!;
}

/** Rosters of one team (read with the team), else the rosters seen. */
async function rosterList(r: V2Reader, q: ListQuery<'rosters'> | undefined, o?: CallOptions) {
  const [field, op, value] = q?.filter?.[0] ?? [];
  if (field === 'team.id' && op === '=' && q?.filter?.length === 1) {
    const team = safeId(value);
    await teamGet(r, team, o);
    return [...r.seen.rosters.values()].filter((x) => x.team.id === team);
  }
  if (q?.filter?.length) notOnV2('filtering rosters other than by team.id');
  return slice([...r.seen.rosters.values()], q);
}

/** Every series of the roster (is_over unset by a starts_after bound), as /rosters/{id}/series. */
async function rosterSeries(r: V2Reader, id: number, q: ListQuery<'series'> | undefined, o?: CallOptions) {
  const params = seriesParams({
    ...q,
    filter: [...(q?.filter ?? []), ['participants.roster.id', '=', id]],
  });
  if (params.is_over === undefined) params.starts_after = '2000-01-01';
  const { at, items } = await r.window<V2Series>('/series', params, q?.skip ?? 0, take(q), o);
  for (const s of items) r.seen.series(s);
  return items.map((s) => toSeries(s, at));
}

async function playerGet(r: V2Reader, id: number, options?: CallOptions): Promise<Player> {
  const a = await r.get<V2Player>(`/players/${safeId(id)}`, { 'with[]': 'game' }, options);
  return toPlayer(a.body);
}

/**
 * The v2 `/players` listing (its active players, with team and game), for a v3 listing with no
 * condition but `deleted_at=null` in id order: what the name index walks for `/player`.
 */
async function playerList(r: V2Reader, query: ListQuery<'players'> | undefined, options?: CallOptions) {
  for (const [field, op, value] of query?.filter ?? []) {
    if (field === 'deleted_at' && op === '=' && value === null) continue;
    notOnV2(`the players condition ${field} ${op}`);
  }
  const order = Array.isArray(query?.order) ? query.order : query?.order ? [query.order] : [];
  if (order.some((o) => o !== 'id-asc')) notOnV2('ordering players other than by id');
  const { items } = await r.window<V2Player>(
    '/players',
    { 'with[]': 'game,team' },
    query?.skip ?? 0,
    take(query),
    options,
  );
  return items.map((p) => {
    const player = toPlayer(p);
    if (!r.seen.players.has(player.id)) r.seen.players.set(player.id, player);
    return player;
  });
}

/** The organisation with its teams (v2 gives neither its region nor a team's organisation). */
async function organisationGet(r: V2Reader, id: number, options?: CallOptions) {
  const a = await r.get<{ id: number; name: string; teams: V2Team[] }>(
    `/organisations/${safeId(id)}`,
    {},
    options,
  );
  return {
    id: a.body.id,
    name: a.body.name,
    region: unknownRegion(),
    teams: a.body.teams.map((t) => ({ id: t.id })),
  };
}

async function organisationList(r: V2Reader, q: ListQuery<'organisations'> | undefined, o?: CallOptions) {
  const { items } = await r.window<{ id: number; name: string }>(
    '/organisations',
    {},
    q?.skip ?? 0,
    take(q),
    o,
  );
  return items.map((x) => ({ id: x.id, name: x.name, region: unknownRegion(), teams: [] }));
}

export function buildTeams(r: V2Reader): Pick<Resources, 'teams' | 'rosters' | 'players' | 'organisations'> {
  const team = (id: number, o?: CallOptions) => teamGet(r, id, o);
  const roster = (id: number, o?: CallOptions) => rosterGet(r, id, o);
  const player = (id: number, o?: CallOptions) => playerGet(r, id, o);
  const organisation = (id: number, o?: CallOptions) => organisationGet(r, id, o);
  return {
    teams: {
      list: (q, o) => teamList(r, q, o),
      paginate: (q, o) => paginate((w, c) => teamList(r, { ...q, ...w }, c), o),
      get: team,
      getMany: many(r.seen.teams, team),
      standingRosters: unsupported('/teams/{id}/standingrosters'),
    },
    rosters: {
      // v2 has no roster listing: rosters come embedded (series, tournaments, teams).
      list: (q, o) => rosterList(r, q, o),
      paginate: (_q, o) =>
        paginate(async (w) => [...r.seen.rosters.values()].slice(w.skip, w.skip + w.take), o),
      get: roster,
      getMany: many(r.seen.rosters, roster),
      series: (id, q, o) => rosterSeries(r, id, q, o),
    },
    players: {
      list: (q, o) => playerList(r, q, o),
      paginate: (q, o) => paginate((w, c) => playerList(r, { ...q, ...w }, c), o),
      get: player,
      getMany: many(r.seen.players, player),
      standingRosters: unsupported('/players/{id}/standingrosters'),
    },
    organisations: {
      list: (q, o) => organisationList(r, q, o),
      paginate: (q, o) => paginate((w, c) => organisationList(r, { ...q, ...w }, c), o),
      get: organisation,
      getMany: many(new Map(), organisation),
    },
  };
}

/** v2 gives no region of an organisation. */
function unknownRegion() {
  return {
    id: 0,
    name: 'Unknown',
    abbreviation: '',
    country: { id: 0, name: 'Unknown', abbreviation: '', images: [] },
  };
}
