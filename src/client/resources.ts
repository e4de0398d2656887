/**
 * The resources: each method only builds a path and parameters and hands them to the pipeline
 * (stripe-node style). Which endpoints take list parameters (`L`) or an id space (`IS`) follows the
 * spec's endpoint table and what the real service answers (docs/local-service.md, "The interface").
 */

import { ID_SPACES, type ListResource } from '../protocol/fields.ts';
import { safeId } from '../protocol/filter.ts';
import { detailPathOf } from './cache-policy.ts';
import { InvalidQueryError } from './errors.ts';
import { listParams, MAX_TAKE, type QueryParams } from './query.ts';
import type {
  ByIdEndpoint,
  CallOptions,
  EsportsClient,
  ListEndpoint,
  ListQuery,
  ManyEndpoint,
  PaginateOptions,
  SubGet,
  SubList,
} from './types.ts';

/** What a resource hands to the pipeline. */
export type Send = (path: string, params: QueryParams, options: CallOptions | undefined) => Promise<unknown>;
/** A fresh cached answer for a path without query, or undefined; never goes upstream. */
export type Peek = (path: string) => Promise<unknown>;

export type Resources = Omit<EsportsClient, 'forCaller' | 'stats' | 'close'>;

const SPACE_NAMES: readonly string[] = ID_SPACES.map((s) => s.name);

/** Adds `id_space` for `IS` endpoints; refuses it elsewhere (the service would ignore it silently). */
function withSpace(
  params: QueryParams,
  options: CallOptions | undefined,
  allowed: boolean,
  path: string,
): QueryParams {
  const space = options?.idSpace;
  if (space === undefined) return params;
  if (!allowed) throw new InvalidQueryError(`${path} does not take an id space.`);
  if (!SPACE_NAMES.includes(space)) {
    throw new InvalidQueryError(`"${space}" is not an id space; use one of: ${SPACE_NAMES.join(', ')}.`);
  }
  return { ...params, id_space: space };
}

/** Lists are JSON arrays; the spec's samples show `/maps` and `/maps/layouts` as one object, so accept both. */
function asArray<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  return body === null || body === undefined ? [] : [body as T];
}

/**
 * The batched read of records by id: those already cached one by one cost nothing; the rest go as
 * `id<=` listings of sorted ids, 50 a request, so the same set always costs the same (cacheable)
 * requests. Answers in the order of `ids`, without the ones the service does not hold.
 */
async function getMany<T extends { id: number }, R extends ListResource>(
  io: { send: Send; peek: Peek },
  resource: R,
  path: string,
  ids: readonly number[],
  options: CallOptions | undefined,
): Promise<T[]> {
  const unique = [...new Set(ids.map((id) => safeId(id)))].sort((a, b) => a - b);
  const found = new Map<number, T>();
  // Records already cached one by one (by `get` or by a listing that held them) cost nothing.
  let missing = unique;
  if (detailPathOf(path) === path) {
    const cached = await Promise.all(unique.map((id) => io.peek(`${path}/${id}`)));
    unique.forEach((id, i) => {
      if (cached[i] !== undefined) found.set(id, cached[i] as T);
    });
    missing = unique.filter((id) => !found.has(id));
  }
  // Sorted ids in chunks of 50: the same set always costs the same (cacheable) requests.
  const chunks: number[][] = [];
  for (let i = 0; i < missing.length; i += MAX_TAKE) chunks.push(missing.slice(i, i + MAX_TAKE));
  const pages = await Promise.all(
    chunks.map(async (chunk) => {
      const params = listParams(resource, { take: MAX_TAKE } as ListQuery<R>, [['id', '<=', chunk]] as never);
      return asArray<T>(await io.send(path, withSpace(params, options, false, path), options));
    }),
  );
  for (const item of pages.flat()) found.set(item.id, item);
  return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
}

/**
 * The shapes an endpoint takes (a listing, a record by id, records by ids, a sub-listing or a
 * sub-record of a parent), each building its path and handing it to one view's `send`. `space`:
 * the endpoint takes an id space (`IS`).
 */
class Endpoints {
  constructor(
    readonly send: Send,
    readonly peek: Peek,
  ) {}

  listEndpoint<T, R extends ListResource>(resource: R, path: string, space = false): ListEndpoint<T, R> {
    const list = async (query?: ListQuery<R>, options?: CallOptions): Promise<T[]> =>
      asArray<T>(
        await this.send(path, withSpace(listParams(resource, query), options, space, path), options),
      );
    return {
      list,
      paginate: (query, options) => paginate(list, query, options),
    };
  }

  byId<T>(path: string, space = false): ByIdEndpoint<T> {
    return {
      get: async (id, options) =>
        (await this.send(`${path}/${safeId(id)}`, withSpace({}, options, space, path), options)) as T,
    };
  }

  many<T extends { id: number }, R extends ListResource>(resource: R, path: string): ManyEndpoint<T> {
    return { getMany: (ids, options) => getMany<T, R>(this, resource, path, ids, options) };
  }

  /** A listing, a record by id and records by ids. */
  resource<T extends { id: number }, R extends ListResource>(name: R, path: string, space = false) {
    return {
      ...this.listEndpoint<T, R>(name, path, space),
      ...this.byId<T>(path, space),
      ...this.many<T, R>(name, path),
    };
  }

  sub<T, R extends ListResource>(resource: R, parent: string, child: string, space = false): SubList<T, R> {
    return async (id, query, options) => {
      const path = `${parent}/${safeId(id)}/${child}`;
      return asArray<T>(
        await this.send(path, withSpace(listParams(resource, query), options, space, path), options),
      );
    };
  }

  subGet<T>(parent: string, child: string, space = false): SubGet<T> {
    return async (id, options) => {
      const path = `${parent}/${safeId(id)}/${child}`;
      return (await this.send(path, withSpace({}, options, space, path), options)) as T;
    };
  }
}

/** The series and what they belong to: games, tournaments, their stages and substages, matches. */
function competitionResources(
  e: Endpoints,
): Pick<Resources, 'games' | 'series' | 'matches' | 'tournaments' | 'stages' | 'substages'> {
  return {
    games: {
      ...e.resource('games', '/games'),
      ...e.byId('/games', true),
      maps: e.sub('maps', '/games', 'maps', true),
      mappools: e.subGet('/games', 'mappools', true),
      races: e.sub('races', '/games', 'races', true),
      roles: e.sub('roles', '/games', 'roles', true),
      releases: e.sub('releases', '/games', 'releases', true),
    },
    series: {
      ...e.resource('series', '/series'),
      ...e.byId('/series', true),
      casters: e.sub('casters', '/series', 'casters', true),
      matches: e.sub('matches', '/series', 'matches', true),
      rosters: e.sub('rosters', '/series', 'rosters', true),
      scoring: e.subGet('/series', 'scoring', true),
      draft: e.subGet('/series', 'draft', true),
    },
    matches: {
      ...e.resource('matches', '/matches', true),
      rosters: e.sub('rosters', '/matches', 'rosters', true),
      liveCv: e.subGet('/matches', 'live/cv/summary', true),
      liveApi: e.subGet('/matches', 'live/api/summary', true),
    },
    tournaments: {
      ...e.resource('tournaments', '/tournaments', true),
      stages: e.sub('stages', '/tournaments', 'stages', true),
      substages: e.sub('substages', '/tournaments', 'substages', true),
      series: e.sub('series', '/tournaments', 'series', true),
      casters: e.sub('casters', '/tournaments', 'casters', true),
      participants: e.subGet('/tournaments', 'participants'),
    },
    stages: { ...e.resource('stages', '/stages'), substages: e.sub('substages', '/stages', 'substages') },
    substages: {
      ...e.resource('substages', '/substages'),
      series: e.sub('series', '/substages', 'series'),
      rosters: e.subGet('/substages', 'rosters'),
    },
  };
}

/** Who plays and who casts: teams, rosters, players, lineups, organisations, casters. */
function participantResources(
  e: Endpoints,
): Pick<
  Resources,
  'teams' | 'rosters' | 'players' | 'lineups' | 'organisations' | 'casters' | 'standingRosters'
> {
  return {
    teams: {
      ...e.resource('teams', '/teams'),
      ...e.byId('/teams', true),
      standingRosters: e.sub('standing_rosters', '/teams', 'standingrosters'),
    },
    rosters: { ...e.resource('rosters', '/rosters'), series: e.sub('series', '/rosters', 'series') },
    players: {
      ...e.resource('players', '/players'),
      ...e.byId('/players', true),
      standingRosters: e.subGet('/players', 'standingrosters', true),
    },
    lineups: {
      ...e.resource('lineups', '/lineups'),
      rosters: e.sub('rosters', '/lineups', 'rosters'),
      series: e.sub('series', '/lineups', 'series'),
    },
    organisations: e.resource('organisations', '/organisations'),
    casters: { ...e.resource('casters', '/casters'), streams: e.subGet('/casters', 'streams') },
    standingRosters: e.byId('/standingrosters'),
  };
}

/** The reference data: places, languages, maps, platforms, images and the id spaces. */
function referenceResources(
  e: Endpoints,
): Omit<
  Resources,
  keyof ReturnType<typeof competitionResources> | keyof ReturnType<typeof participantResources>
> {
  return {
    countries: {
      ...e.resource('countries', '/countries'),
      ...e.byId('/countries', true),
      region: e.subGet('/countries', 'region', true),
    },
    regions: { countries: e.sub('countries', '/regions', 'countries') },
    languages: { ...e.listEndpoint('languages', '/languages'), ...e.many('languages', '/languages') },
    incidents: { ...e.listEndpoint('incidents', '/incidents'), ...e.many('incidents', '/incidents') },
    maps: e.resource('maps', '/maps'),
    mapLayouts: e.resource('map_layouts', '/maps/layouts'),
    assets: e.resource('assets', '/assets'),
    broadcasters: e.resource('broadcasters', '/broadcasters'),
    platforms: e.resource('platforms', '/platforms'),
    socialMediaPlatforms: {
      ...e.listEndpoint('social_media_platforms', '/socialmedia/platforms'),
      ...e.many('social_media_platforms', '/socialmedia/platforms'),
    },
    images: e.byId('/images'),
    idSpaces: {
      series: async (space, query, options) => {
        const path = `/id_spaces/${safeId(space)}/series`;
        return asArray(
          await e.send(path, withSpace(listParams('id_space_series', query), options, false, path), options),
        );
      },
    },
  };
}

/** Every v3 resource of one view, each sending through its `send` (and peeking its cache). */
export function buildResources(send: Send, peek: Peek): Resources {
  const e = new Endpoints(send, peek);
  return { ...competitionResources(e), ...participantResources(e), ...referenceResources(e) };
}

/** Walks a listing 50 at a time (the real service's largest page) until `limit` items or a short page. */
async function* paginate<T, R extends ListResource>(
  list: (query: ListQuery<R>, options: CallOptions) => Promise<T[]>,
  query: Omit<ListQuery<R>, 'skip' | 'take'>,
  options: PaginateOptions,
): AsyncGenerator<T> {
  const { limit, ...callOptions } = options ?? ({} as PaginateOptions);
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidQueryError(
      `paginate needs a limit: a whole number of 1 or more (got ${String(limit)}).`,
    );
  }
  let yielded = 0;
  for (let skip = 0; ; skip += MAX_TAKE) {
    const page = await list({ ...query, skip, take: MAX_TAKE } as ListQuery<R>, callOptions);
    for (const item of page) {
      yield item;
      if (++yielded >= limit) return;
    }
    if (page.length < MAX_TAKE) return;
  }
}
