/**
 * The client surface (`EsportsClient`) over v2: each method builds a v2 path and parameters, sends
 * them through the same pipeline (cache, single flight, retry, limiter) and maps the answer to the
 * v3 records (`records.ts`). Callers write the same v3 queries; the conditions v2 can express are
 * translated (lifecycle -> is_over / starts_before / starts_after, game.id -> games[], ...), and a
 * condition it cannot express is an `InvalidQueryError` naming it. Endpoints v2 does not have
 * answer `InvalidQueryError` too ("not available on the v2 interface").
 *
 * Records embedded in series, rosters and tournaments (rosters with their teams and players,
 * casters, maps, substages) are kept in `Embedded`, so the name index's `getMany` of rosters, teams,
 * players, casters and maps costs nothing when a listing already carried them.
 */
import type { ListResource } from '../../protocol/fields.ts';
import { safeId } from '../../protocol/filter.ts';
import type {
  Caster,
  GameMap,
  Match,
  Player,
  Roster,
  Series,
  Substage,
  Team,
  Tournament,
} from '../../protocol/types.ts';
import { InvalidQueryError, NotFoundError } from '../errors.ts';
import type { QueryParams } from '../query.ts';
import type { Peek, Send } from '../resources.ts';
import type { CallOptions, EsportsClient, ListQuery, PaginateOptions, Where } from '../types.ts';
import { toLiveSummary } from './light-summary.ts';
import {
  toCaster,
  toGame,
  toMatch,
  toPlayer,
  toRoster,
  toSeries,
  toStage,
  toSubstage,
  toTeam,
  toTournament,
  type V2Game,
  type V2LightSummary,
  type V2Roster,
  type V2Series,
  type V2Substage,
  type V2Team,
  type V2Tournament,
} from './records.ts';
import { type Found, readClusters, type SeriesHint } from './series-batch.ts';
import type { V2Answer } from './transport.ts';

type Resources = Omit<EsportsClient, 'forCaller' | 'stats' | 'close'>;

/** Rows of a v2 page (the local service's; the spec does not give it). */
export const V2_PAGE = 50;
const MAX_KEPT = 20_000;

/** Records seen embedded in answers, by kind and id (bounded: oldest dropped first). */
export class Embedded {
  readonly rosters = new Map<number, Roster>();
  readonly teams = new Map<number, Team>();
  readonly players = new Map<number, Player>();
  readonly casters = new Map<number, Caster>();
  readonly maps = new Map<number, GameMap>();
  readonly substages = new Map<number, Substage>();
  /** Where each series seen was (its tournament and start): found again in a listing (`series-batch.ts`). */
  readonly seriesHints = new Map<number, SeriesHint>();

  put<T>(map: Map<number, T>, id: number, value: T): void {
    map.delete(id);
    map.set(id, value);
    if (map.size > MAX_KEPT) map.delete(map.keys().next().value!);
  }

  /**
   * A roster seen in an answer; a team known without its standing roster takes this one (the
   * roster it plays with now: v2 team listings carry no rosters).
   */
  roster(r: V2Roster, gameId: number): void {
    this.put(this.rosters, r.id, toRoster(r, gameId));
    for (const team of r.teams)
      if (!this.teams.get(team.id)?.standing_roster)
        this.put(this.teams, team.id, toTeam({ ...team, rosters: team.rosters ?? [r] }, gameId));
    for (const p of r.players)
      this.put(this.players, p.id, toPlayer({ ...p, team: r.teams[0] ?? null }, gameId));
  }

  series(s: V2Series): void {
    const start = s.start === null ? Number.NaN : Date.parse(s.start);
    if (Number.isFinite(start)) this.put(this.seriesHints, s.id, { tournament: s.tournament_id, start });
    else this.seriesHints.delete(s.id);
    for (const r of s.rosters) this.roster(r, s.game.id);
    for (const c of s.casters ?? []) this.put(this.casters, c.id, toCaster(c, s.game.id));
    for (const m of s.matches ?? [])
      if (m.map)
        this.put(this.maps, m.map.id, {
          id: m.map.id,
          name: m.map.name,
          external_name: m.map.name,
          official: m.map.official,
          game: { id: s.game.id },
        });
  }
}

interface Envelope<T> {
  last_page: number;
  current_page: number;
  data: T[];
}

const list = (value: Where<ListResource>[2]): (string | number)[] =>
  Array.isArray(value) ? [...(value as (string | number)[])] : [value as string | number];

function ids(value: Where<ListResource>[2]): string {
  return list(value)
    .map((v) => String(safeId(v)))
    .join(',');
}

function notOnV2(what: string): never {
  throw new InvalidQueryError(`${what} is not available on the v2 interface.`);
}

const SERIES_ARRAYS: Record<string, string> = {
  'game.id': 'games[]',
  tier: 'tiers[]',
  'tournament.id': 'tournaments[]',
  'substage.id': 'substages[]',
  'participants.roster.id': 'competitors[]',
};

/** A v3 series query as v2 `/series` parameters (always with matches and casters embedded). */
export function seriesParams(query: ListQuery<'series'> | undefined): QueryParams {
  const params: QueryParams = { 'with[]': 'casters,matches' };
  for (const [field, op, value] of query?.filter ?? []) {
    const array = SERIES_ARRAYS[field];
    if (array && (op === '=' || op === '<=' || op === '^')) {
      // v2 takes one list per field: a second condition (a head-to-head's two sides) would replace
      // the first and silently answer something else.
      if (array in params) notOnV2(`two conditions on ${field}`);
      params[array] = ids(value);
      continue;
    }
    if (field === 'deleted_at' && op === '=' && value === null) {
      params.is_deleted = 'false';
      continue;
    }
    if (field === 'lifecycle' && (op === '=' || op === '<=')) {
      // A v3 lifecycle never matches a deleted series (its lifecycle is "deleted").
      params.is_deleted = 'false';
      const wanted = new Set(list(value).map(String));
      const only = (...values: string[]) => [...wanted].every((v) => values.includes(v));
      if (only('upcoming')) {
        params.starts_after = 'now';
        params.is_over = 'false';
      } else if (only('live')) {
        params.starts_before = 'now';
        params.is_over = 'false';
      } else if (only('upcoming', 'live')) params.is_over = 'false';
      else if (only('over', 'over-forfeited')) params.is_over = 'true';
      else notOnV2(`lifecycle ${op} ${[...wanted].join(',')}`);
      continue;
    }
    notOnV2(`the series condition ${field} ${op}`);
  }
  const order = Array.isArray(query?.order) ? query.order : query?.order ? [query.order] : [];
  if (order.length > 1) notOnV2('ordering series by several keys');
  const key = order[0] as string | undefined;
  if (key !== undefined) {
    const m = /^(start|end)-(asc|desc)$/.exec(key);
    if (!m) notOnV2(`ordering series by ${key}`);
    params.order = m[1]!;
    params.sort = m[2]!.toUpperCase();
  }
  return params;
}

export function buildV2Resources(send: Send, _peek: Peek, seen: Embedded): Resources {
  const get = async <T>(path: string, params: QueryParams, options?: CallOptions) =>
    (await send(path, params, options)) as V2Answer & { body: T };

  /** The v3 `skip`/`take` window over v2 pages of 50. */
  const window = async <T>(
    path: string,
    params: QueryParams,
    skip: number,
    take: number,
    options: CallOptions | undefined,
  ): Promise<{ at: number; items: T[] }> => {
    const first = Math.floor(skip / V2_PAGE) + 1;
    const offset = skip % V2_PAGE;
    const a = await get<Envelope<T>>(path, { ...params, page: String(first) }, options);
    let items = a.body.data;
    if (offset + take > V2_PAGE && a.body.last_page > first) {
      const b = await get<Envelope<T>>(path, { ...params, page: String(first + 1) }, options);
      items = items.concat(b.body.data);
    }
    return { at: a.at, items: items.slice(offset, offset + take) };
  };

  const take = (query?: { take?: number }) => Math.min(V2_PAGE, Math.max(0, query?.take ?? V2_PAGE));

  async function* paginate<T>(
    listFn: (q: { skip: number; take: number }, o: CallOptions) => Promise<T[]>,
    options: PaginateOptions,
  ): AsyncGenerator<T> {
    const { limit, ...call } = options;
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new InvalidQueryError(
        `paginate needs a limit: a whole number of 1 or more (got ${String(limit)}).`,
      );
    let n = 0;
    for (let skip = 0; ; skip += V2_PAGE) {
      const page = await listFn({ skip, take: V2_PAGE }, call);
      for (const item of page) {
        yield item;
        if (++n >= limit) return;
      }
      if (page.length < V2_PAGE) return;
    }
  }

  // ---- series ----
  const seriesList = async (query?: ListQuery<'series'>, options?: CallOptions): Promise<Series[]> => {
    const { at, items } = await window<V2Series>(
      '/series',
      seriesParams(query),
      query?.skip ?? 0,
      take(query),
      options,
    );
    for (const s of items) seen.series(s);
    return items.map((s) => toSeries(s, at));
  };
  const seriesDetail = async (id: number, options?: CallOptions) => {
    const a = await get<V2Series>(`/series/${safeId(id)}`, { 'with[]': 'casters,matches' }, options);
    seen.series(a.body);
    return a;
  };
  const seriesGet = async (id: number, options?: CallOptions) => {
    const a = await seriesDetail(id, options);
    return toSeries(a.body, a.at);
  };
  /**
   * Many series as v2 answers them, by id: those seen before from the listings of their tournaments
   * around their known starts (`series-batch.ts`), the rest one `/series/{id}` each. Missing ones
   * (404) and those read by id as deleted (410) are left out; a listing answers deleted ones with
   * their `deleted_at`, which the callers skip.
   */
  const seriesRaw = async (wanted: readonly number[], options?: CallOptions): Promise<Map<number, Found>> => {
    const unique = [...new Set(wanted.map((id) => safeId(id)))];
    const found = await readClusters(unique, seen.seriesHints, async (params, page) => {
      const a = await get<Envelope<V2Series>>('/series', { ...params, page: String(page) }, options);
      for (const s of a.body.data) seen.series(s);
      return { at: a.at, lastPage: a.body.last_page, data: a.body.data };
    });
    await Promise.all(
      unique
        .filter((id) => !found.has(id))
        .map(async (id) => {
          const a = await seriesDetail(id, options).catch((e: unknown) =>
            skippable(e) ? null : Promise.reject(e),
          );
          if (a) found.set(id, { body: a.body, at: a.at });
        }),
    );
    return found;
  };
  /** Missing and deleted ones are skipped (a deleted series answers 410). */
  const seriesMany = async (wanted: readonly number[], options?: CallOptions) => {
    const found = await seriesRaw(wanted, options);
    return wanted.flatMap((id) => {
      const f = found.get(id);
      return f && f.body.deleted_at === null ? [toSeries(f.body, f.at)] : [];
    });
  };

  // ---- matches: from the series they belong to (the live listing first: one request for all live) ----
  const matchesOf = async (seriesIds: number[], options?: CallOptions): Promise<Match[]> => {
    const out = new Map<number, Match[]>();
    const live = await window<V2Series>(
      '/series',
      seriesParams({ filter: [['lifecycle', '=', 'live']] }),
      0,
      V2_PAGE,
      options,
    );
    for (const s of live.items) if (s.matches) out.set(s.id, s.matches.map(toMatch));
    const rest = await seriesRaw(
      seriesIds.filter((id) => !out.has(id)),
      options,
    );
    for (const [id, f] of rest)
      if (f.body.deleted_at === null) out.set(id, (f.body.matches ?? []).map(toMatch));
    return seriesIds.flatMap((id) => out.get(id) ?? []);
  };
  const matchList = async (query?: ListQuery<'matches'>, options?: CallOptions): Promise<Match[]> => {
    let seriesIds: number[] | null = null;
    for (const [field, op, value] of query?.filter ?? []) {
      if (field === 'series.id' && (op === '=' || op === '<=')) seriesIds = list(value).map((v) => safeId(v));
      else notOnV2(`the match condition ${field} ${op}`);
    }
    if (seriesIds === null) notOnV2('listing matches without series.id');
    const all = (await matchesOf(seriesIds, options)).sort(
      (a, b) => a.series.id - b.series.id || a.order - b.order,
    );
    const skip = query?.skip ?? 0;
    return all.slice(skip, skip + take(query));
  };

  // ---- tournaments ----
  const tournamentDetail = (id: number, options?: CallOptions) =>
    get<V2Tournament>(`/tournaments/${safeId(id)}`, { 'with[]': 'rosters,stages.substages' }, options).then(
      (a) => {
        for (const r of a.body.rosters ?? []) seen.roster(r, a.body.game.id);
        for (const stage of a.body.stages ?? [])
          for (const sub of stage.substages)
            if (!seen.substages.has(sub.id))
              seen.put(seen.substages, sub.id, toSubstage(sub, a.body.game.id));
        return a.body;
      },
    );
  const tournamentList = async (
    query?: ListQuery<'tournaments'>,
    options?: CallOptions,
  ): Promise<Tournament[]> => {
    const params: QueryParams = {};
    for (const [field, op, value] of query?.filter ?? []) {
      if (field === 'deleted_at' && op === '=' && value === null) continue;
      if (field === 'game.id' && (op === '=' || op === '<=')) params['games[]'] = ids(value);
      else if (field === 'tier' && (op === '=' || op === '<=')) params['tiers[]'] = ids(value);
      else notOnV2(`the tournament condition ${field} ${op}`);
    }
    // Every tournament of the service's window, not only the running ones (is_over unset).
    params.starts_after = '2000-01-01';
    const key = (Array.isArray(query?.order) ? query.order[0] : query?.order) as string | undefined;
    if (key) {
      const m = /^(start|end)-(asc|desc)$/.exec(key);
      if (!m) notOnV2(`ordering tournaments by ${key}`);
      params.order = m[1]!;
      params.sort = m[2]!.toUpperCase();
    }
    const { items } = await window<V2Tournament>(
      '/tournaments',
      params,
      query?.skip ?? 0,
      take(query),
      options,
    );
    return items.map(toTournament);
  };
  const tournamentMany = async (wanted: readonly number[], options?: CallOptions) => {
    const found = await Promise.all(
      [...new Set(wanted)].map((id) =>
        tournamentDetail(id, options).then(toTournament, (e: unknown) =>
          skippable(e) ? null : Promise.reject(e),
        ),
      ),
    );
    const byId = new Map(found.flatMap((t) => (t ? [[t.id, t] as const] : [])));
    return wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  };
  const substagesOf = async (tournamentId: number, options?: CallOptions): Promise<Substage[]> => {
    const t = await tournamentDetail(tournamentId, options);
    return (t.stages ?? []).flatMap((s) => s.substages.map((sub) => toSubstage(sub, t.game.id)));
  };

  // ---- substages ----
  const substageGet = async (id: number, options?: CallOptions) => {
    const a = await get<V2Substage>(`/substages/${safeId(id)}`, { 'with[]': 'rosters,standings' }, options);
    const game = a.body.rosters?.[0]?.teams[0]?.game?.id ?? seen.substages.get(id)?.game.id ?? 0;
    for (const r of a.body.rosters ?? []) seen.roster(r, game);
    return toSubstage(a.body, game);
  };

  // ---- teams, players, rosters: embedded records first, else one request each ----
  const teamGet = async (id: number, options?: CallOptions) => {
    const a = await get<V2Team>(`/teams/${safeId(id)}`, { 'with[]': 'game,rosters' }, options);
    for (const r of a.body.rosters ?? []) seen.roster(r, a.body.game?.id ?? 0);
    const team = toTeam(a.body);
    seen.put(seen.teams, id, team);
    return team;
  };
  const rosterGet = async (id: number, options?: CallOptions) => {
    const a = await get<V2Roster & { game?: V2Game }>(
      `/rosters/${safeId(id)}`,
      { 'with[]': 'game' },
      options,
    );
    seen.roster(a.body, a.body.game?.id ?? 0);
    return seen.rosters.get(a.body.id)!;
  };
  const playerGet = async (id: number, options?: CallOptions) => {
    const a = await get<Parameters<typeof toPlayer>[0]>(`/players/${safeId(id)}`, {}, options);
    return toPlayer(a.body);
  };
  /**
   * The v2 `/players` listing (its active players, with team and game), for a v3 listing with no
   * condition but `deleted_at=null` in id order: what the name index walks for `/player`.
   */
  const playerList = async (query: ListQuery<'players'> | undefined, options?: CallOptions) => {
    for (const [field, op, value] of query?.filter ?? []) {
      if (field === 'deleted_at' && op === '=' && value === null) continue;
      notOnV2(`the players condition ${field} ${op}`);
    }
    const order = Array.isArray(query?.order) ? query.order : query?.order ? [query.order] : [];
    if (order.some((o) => o !== 'id-asc')) notOnV2('ordering players other than by id');
    const { items } = await window<Parameters<typeof toPlayer>[0]>(
      '/players',
      { 'with[]': 'game,team' },
      query?.skip ?? 0,
      take(query),
      options,
    );
    return items.map((p) => {
      const player = toPlayer(p);
      if (!seen.players.has(player.id)) seen.players.set(player.id, player);
      return player;
    });
  };
  const many =
    <T extends { id: number }>(
      kept: Map<number, T>,
      fetch: ((id: number, o?: CallOptions) => Promise<T>) | null,
    ) =>
    async (wanted: readonly number[], options?: CallOptions): Promise<T[]> => {
      const missing = [...new Set(wanted)].filter((id) => !kept.has(safeId(id)));
      const fetched = new Map<number, T>();
      if (fetch)
        await Promise.all(
          missing.map(async (id) => {
            const value = await fetch(id, options).catch((e: unknown) =>
              skippable(e) ? null : Promise.reject(e),
            );
            if (value) fetched.set(id, value);
          }),
        );
      return wanted.flatMap((id) => {
        const value = kept.get(id) ?? fetched.get(id);
        return value ? [value] : [];
      });
    };

  const organisationGet = async (id: number, options?: CallOptions) => {
    const a = await get<{ id: number; name: string; teams: V2Team[] }>(
      `/organisations/${safeId(id)}`,
      {},
      options,
    );
    return {
      id: a.body.id,
      name: a.body.name,
      region: toRegionUnknown(),
      teams: a.body.teams.map((t) => ({ id: t.id })),
    };
  };

  const readMapsFromSeries = async (options?: CallOptions) => {
    await Promise.all([
      seriesList({ filter: [['lifecycle', '=', 'live']] }, options),
      seriesList({ filter: [['lifecycle', '=', 'upcoming']] }, options),
    ]);
  };
  const games = async (options?: CallOptions) =>
    (await get<Envelope<V2Game>>('/games', { page: '1' }, options)).body.data.map(toGame);
  const unsupported =
    (what: string) =>
    async (..._args: unknown[]): Promise<never> =>
      notOnV2(what);
  const unsupportedList = (what: string) => ({
    list: unsupported(what),
    // biome-ignore lint/correctness/useYield: it only throws, as an iterator (the caller uses for await)
    paginate: async function* (): AsyncGenerator<never> {
      notOnV2(what);
    },
  });
  const unsupportedAll = (what: string) => ({
    ...unsupportedList(what),
    get: unsupported(what),
    getMany: unsupported(what),
  });

  return {
    games: {
      list: async (q) => (await games()).slice(q?.skip ?? 0, (q?.skip ?? 0) + take(q)),
      paginate: (_q, o) => paginate((q) => games().then((g) => g.slice(q.skip, q.skip + q.take)), o),
      get: async (id, o) => (await games(o)).find((g) => g.id === id) ?? missing('/games', id),
      getMany: async (wanted, o) => {
        const all = await games(o);
        return wanted.flatMap((id) => all.filter((g) => g.id === id));
      },
      maps: unsupported('/games/{id}/maps'),
      mappools: unsupported('/games/{id}/mappools'),
      races: unsupported('/games/{id}/races'),
      roles: unsupported('/games/{id}/roles'),
      releases: unsupported('/games/{id}/releases'),
    },
    series: {
      list: seriesList,
      paginate: (q, o) => paginate((w, c) => seriesList({ ...q, ...w }, c), o),
      get: seriesGet,
      getMany: seriesMany,
      casters: async (id, _q, o) => {
        const a = await seriesDetail(id, o);
        return (a.body.casters ?? []).map((c) => toCaster(c, a.body.game.id));
      },
      matches: async (id, _q, o) => matchesOf([safeId(id)], o),
      rosters: async (id, _q, o) => {
        const a = await seriesDetail(id, o);
        return a.body.rosters.map((r) => toRoster(r, a.body.game.id));
      },
      scoring: unsupported('/series/{id}/scoring'),
      draft: unsupported('/series/{id}/draft'),
    },
    matches: {
      list: matchList,
      paginate: (q, o) => paginate((w, c) => matchList({ ...q, ...w }, c), o),
      get: async (id, o) =>
        toMatch((await get<Parameters<typeof toMatch>[0]>(`/matches/${safeId(id)}`, {}, o)).body),
      getMany: unsupported('matches by id'),
      rosters: unsupported('/matches/{id}/rosters'),
      liveApi: async (id, o) => {
        const path = `/matches/${safeId(id)}/light_summary`;
        const a = await get<V2LightSummary>(path, {}, o);
        return toLiveSummary(id, a.body, a.at, path);
      },
      liveCv: unsupported('the computer-vision live summary'),
    },
    teams: {
      list: async (q, o) => {
        const params: QueryParams = {};
        for (const [field, op, value] of q?.filter ?? []) {
          if (field === 'deleted_at' && op === '=' && value === null) continue;
          if (field === 'game.id' && (op === '=' || op === '<=')) params['games[]'] = ids(value);
          else if (field === 'active' && op === '=') params.active = value ? 'true' : 'false';
          // v2 `q` searches name and short name ("contains"), as v3's `name~=` does on the name.
          else if (field === 'name' && op === '~=' && typeof value === 'string') params.q = value;
          else notOnV2(`the team condition ${field} ${op}`);
        }
        const { items } = await window<V2Team>('/teams', params, q?.skip ?? 0, take(q), o);
        return items.map((t) => seen.teams.get(t.id) ?? toTeam(t));
      },
      paginate(q, o) {
        return paginate((w, c) => this.list({ ...q, ...w }, c), o);
      },
      get: teamGet,
      getMany: many(seen.teams, teamGet),
      standingRosters: unsupported('/teams/{id}/standingrosters'),
    },
    rosters: {
      // v2 has no roster listing: rosters come embedded (series, tournaments, teams).
      list: async (q, o) => {
        const [field, op, value] = q?.filter?.[0] ?? [];
        if (field === 'team.id' && op === '=' && q?.filter?.length === 1) {
          const team = safeId(value);
          await teamGet(team, o);
          return [...seen.rosters.values()].filter((r) => r.team.id === team);
        }
        if (q?.filter?.length) notOnV2('filtering rosters other than by team.id');
        return [...seen.rosters.values()].slice(q?.skip ?? 0, (q?.skip ?? 0) + take(q));
      },
      paginate: (_q, o) =>
        paginate(async (w) => [...seen.rosters.values()].slice(w.skip, w.skip + w.take), o),
      get: rosterGet,
      getMany: many(seen.rosters, rosterGet),
      // Every series of the roster (is_over unset by a starts_after bound), as /rosters/{id}/series.
      series: async (id, q, o) => {
        const params = seriesParams({
          ...q,
          filter: [...(q?.filter ?? []), ['participants.roster.id', '=', id]],
        });
        if (params.is_over === undefined) params.starts_after = '2000-01-01';
        const { at, items } = await window<V2Series>('/series', params, q?.skip ?? 0, take(q), o);
        for (const s of items) seen.series(s);
        return items.map((s) => toSeries(s, at));
      },
    },
    players: {
      list: playerList,
      paginate: (q, o) => paginate((w, c) => playerList({ ...q, ...w }, c), o),
      get: playerGet,
      getMany: many(seen.players, playerGet),
      standingRosters: unsupported('/players/{id}/standingrosters'),
    },
    tournaments: {
      list: tournamentList,
      paginate: (q, o) => paginate((w, c) => tournamentList({ ...q, ...w }, c), o),
      get: async (id, o) => toTournament(await tournamentDetail(id, o)),
      getMany: tournamentMany,
      stages: async (id, _q, o) => {
        const t = await tournamentDetail(id, o);
        return (t.stages ?? []).map((s) => toStage(s, t.id, t.game.id)).sort((a, b) => a.order - b.order);
      },
      substages: async (id, _q, o) => substagesOf(id, o),
      series: async (id, q, o) =>
        seriesList({ ...q, filter: [...(q?.filter ?? []), ['tournament.id', '=', id]] }, o),
      casters: unsupported('/tournaments/{id}/casters'),
      participants: async (id, o) => {
        const t = await tournamentDetail(id, o);
        const rosters = (t.rosters ?? []).map((r) => ({ roster: { id: r.id } }));
        // v2 does not say which phase a roster plays in: every confirmed roster is "regular".
        return {
          confirmed_participants: rosters,
          phase_participants: { qualifier: [], regular: rosters, final: [], other: [] },
        };
      },
    },
    stages: { ...unsupportedAll('/stages'), substages: unsupported('/stages/{id}/substages') },
    substages: {
      // The substages of many tournaments: the tournament listing embeds them, 50 tournaments a page.
      list: async (q, o) => {
        const [field, op, value] = q?.filter?.find((w) => w[0] === 'tournament.id') ?? [];
        if (field !== 'tournament.id' || (op !== '=' && op !== '<='))
          notOnV2('listing substages without tournament.id');
        const wanted = new Set(list(value ?? []).map((id) => safeId(id)));
        const all: Substage[] = [];
        const params = { starts_after: '2000-01-01', 'with[]': 'stages.substages' };
        for (let page = 1; ; page++) {
          const a = await get<Envelope<V2Tournament>>('/tournaments', { ...params, page: String(page) }, o);
          for (const t of a.body.data)
            if (wanted.has(t.id))
              for (const stage of t.stages ?? [])
                all.push(...stage.substages.map((sub) => toSubstage(sub, t.game.id)));
          if (page >= a.body.last_page) break;
        }
        return all.sort((a, b) => a.id - b.id).slice(q?.skip ?? 0, (q?.skip ?? 0) + take(q));
      },
      paginate(q, o) {
        return paginate((w, c) => this.list({ ...q, ...w }, c), o);
      },
      get: substageGet,
      getMany: many(seen.substages, substageGet),
      series: async (id, q, o) => {
        const a = await get<V2Substage>(`/substages/${safeId(id)}`, { 'with[]': 'series' }, o);
        const series = (a.body.series ?? []).map((s) => toSeries(s, a.at));
        const desc = (Array.isArray(q?.order) ? q.order[0] : q?.order) === 'start-desc';
        series.sort(
          (x, y) => (Date.parse(x.start ?? '') - Date.parse(y.start ?? '')) * (desc ? -1 : 1) || x.id - y.id,
        );
        return series.slice(q?.skip ?? 0, (q?.skip ?? 0) + take(q));
      },
      rosters: async (id, o) => {
        const a = await get<V2Substage>(`/substages/${safeId(id)}`, { 'with[]': 'rosters,standings' }, o);
        return (a.body.rosters ?? []).map((r) => toRoster(r));
      },
    },
    casters: {
      ...unsupportedList('/casters'),
      get: async (id) => seen.casters.get(id) ?? missing('/casters', id),
      getMany: many(seen.casters, null),
      streams: unsupported('/casters/{id}/streams'),
    },
    organisations: {
      list: async (q, o) => {
        const { items } = await window<{ id: number; name: string }>(
          '/organisations',
          {},
          q?.skip ?? 0,
          take(q),
          o,
        );
        return items.map((x) => ({ id: x.id, name: x.name, region: toRegionUnknown(), teams: [] }));
      },
      paginate(q, o) {
        return paginate((w, c) => this.list({ ...q, ...w }, c), o);
      },
      // The organisation with its teams (v2 gives neither its region nor a team's organisation).
      get: organisationGet,
      getMany: many(new Map(), organisationGet),
    },
    lineups: {
      ...unsupportedAll('/lineups'),
      rosters: unsupported('/lineups'),
      series: unsupported('/lineups'),
    },
    countries: { ...unsupportedAll('/countries'), region: unsupported('/countries/{id}/region') },
    assets: unsupportedAll('/assets'),
    broadcasters: unsupportedAll('/broadcasters'),
    platforms: unsupportedAll('/platforms'),
    languages: { ...unsupportedList('/languages'), getMany: unsupported('/languages') },
    incidents: { ...unsupportedList('/incidents as v3 records'), getMany: unsupported('/incidents') },
    maps: {
      // v2 has no map listing: maps come embedded in the matches of series. The listing reads the
      // live and upcoming series first (the pages every reader shares), then answers the maps seen.
      list: async (q, o) => {
        await readMapsFromSeries(o);
        return [...seen.maps.values()].slice(q?.skip ?? 0, (q?.skip ?? 0) + take(q));
      },
      paginate: (_q, o) =>
        paginate(async (w, c) => {
          if (w.skip === 0) await readMapsFromSeries(c);
          return [...seen.maps.values()].slice(w.skip, w.skip + w.take);
        }, o),
      get: async (id) => seen.maps.get(id) ?? missing('/maps', id),
      getMany: many(seen.maps, null),
    },
    mapLayouts: unsupportedAll('/maps/layouts'),
    socialMediaPlatforms: {
      ...unsupportedList('/socialmedia/platforms'),
      getMany: unsupported('/socialmedia/platforms'),
    },
    regions: { countries: unsupported('/regions/{id}/countries') },
    standingRosters: { get: unsupported('/standingrosters') },
    images: { get: unsupported('/images') },
    idSpaces: { series: unsupported('/id_spaces') },
  };
}

function toRegionUnknown() {
  return {
    id: 0,
    name: 'Unknown',
    abbreviation: '',
    country: { id: 0, name: 'Unknown', abbreviation: '', images: [] },
  };
}

/** A record v2 does not answer (404) or answers as deleted (410) is left out of a `getMany`. */
function skippable(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return status === 404 || status === 410;
}

function missing(path: string, id: number): never {
  throw new NotFoundError({
    status: 404,
    method: 'GET',
    path: `${path}/${id}`,
    msg: 'not known on the v2 interface',
  });
}
