/**
 * The resources: each method only builds a path and parameters and hands them to the pipeline
 * (stripe-node style). Which endpoints take list parameters (`L`) or an id space (`IS`) follows the
 * spec's endpoint table and the facts note.
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

type Resources = Omit<EsportsClient, 'forCaller' | 'stats' | 'close'>;

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

export function buildResources(send: Send, peek: Peek): Resources {
  const list =
    <T, R extends ListResource>(resource: R, path: string, space = false) =>
    async (query?: ListQuery<R>, options?: CallOptions): Promise<T[]> =>
      asArray<T>(await send(path, withSpace(listParams(resource, query), options, space, path), options));

  const listEndpoint = <T, R extends ListResource>(
    resource: R,
    path: string,
    space = false,
  ): ListEndpoint<T, R> => {
    const doList = list<T, R>(resource, path, space);
    return {
      list: doList,
      paginate: (query, options) => paginate(doList, query, options),
    };
  };

  const byId = <T>(path: string, space = false): ByIdEndpoint<T> => ({
    get: async (id, options) =>
      (await send(`${path}/${safeId(id)}`, withSpace({}, options, space, path), options)) as T,
  });

  const many = <T extends { id: number }, R extends ListResource>(
    resource: R,
    path: string,
  ): ManyEndpoint<T> => ({
    getMany: async (ids, options) => {
      const unique = [...new Set(ids.map((id) => safeId(id)))].sort((a, b) => a - b);
      const found = new Map<number, T>();
      // Records already cached one by one (by `get` or by a listing that held them) cost nothing.
      let missing = unique;
      if (detailPathOf(path) === path) {
        const cached = await Promise.all(unique.map((id) => peek(`${path}/${id}`)));
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
          const params = listParams(
            resource,
            { take: MAX_TAKE } as ListQuery<R>,
            [['id', '<=', chunk]] as never,
          );
          return asArray<T>(await send(path, withSpace(params, options, false, path), options));
        }),
      );
      for (const item of pages.flat()) found.set(item.id, item);
      return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    },
  });

  const resource = <T extends { id: number }, R extends ListResource>(
    name: R,
    path: string,
    space = false,
  ) => ({
    ...listEndpoint<T, R>(name, path, space),
    ...byId<T>(path, space),
    ...many<T, R>(name, path),
  });

  const sub =
    <T, R extends ListResource>(resource: R, parent: string, child: string, space = false): SubList<T, R> =>
    async (id, query, options) => {
      const path = `${parent}/${safeId(id)}/${child}`;
      return asArray<T>(
        await send(path, withSpace(listParams(resource, query), options, space, path), options),
      );
    };

  const subGet =
    <T>(parent: string, child: string, space = false): SubGet<T> =>
    async (id, options) => {
      const path = `${parent}/${safeId(id)}/${child}`;
      return (await send(path, withSpace({}, options, space, path), options)) as T;
    };

  return {
    games: {
      ...resource('games', '/games'),
      ...byId('/games', true),
      maps: sub('maps', '/games', 'maps', true),
      mappools: subGet('/games', 'mappools', true),
      races: sub('races', '/games', 'races', true),
      roles: sub('roles', '/games', 'roles', true),
      releases: sub('releases', '/games', 'releases', true),
    },
    series: {
      ...resource('series', '/series'),
      ...byId('/series', true),
      casters: sub('casters', '/series', 'casters', true),
      matches: sub('matches', '/series', 'matches', true),
      rosters: sub('rosters', '/series', 'rosters', true),
      scoring: subGet('/series', 'scoring', true),
      draft: subGet('/series', 'draft', true),
    },
    matches: {
      ...resource('matches', '/matches', true),
      rosters: sub('rosters', '/matches', 'rosters', true),
      liveCv: subGet('/matches', 'live/cv/summary', true),
      liveApi: subGet('/matches', 'live/api/summary', true),
    },
    teams: {
      ...resource('teams', '/teams'),
      ...byId('/teams', true),
      standingRosters: sub('standing_rosters', '/teams', 'standingrosters'),
    },
    rosters: { ...resource('rosters', '/rosters'), series: sub('series', '/rosters', 'series') },
    players: {
      ...resource('players', '/players'),
      ...byId('/players', true),
      standingRosters: subGet('/players', 'standingrosters', true),
    },
    tournaments: {
      ...resource('tournaments', '/tournaments', true),
      stages: sub('stages', '/tournaments', 'stages', true),
      substages: sub('substages', '/tournaments', 'substages', true),
      series: sub('series', '/tournaments', 'series', true),
      casters: sub('casters', '/tournaments', 'casters', true),
      participants: subGet('/tournaments', 'participants'),
    },
    stages: { ...resource('stages', '/stages'), substages: sub('substages', '/stages', 'substages') },
    substages: {
      ...resource('substages', '/substages'),
      series: sub('series', '/substages', 'series'),
      rosters: subGet('/substages', 'rosters'),
    },
    casters: { ...resource('casters', '/casters'), streams: subGet('/casters', 'streams') },
    organisations: resource('organisations', '/organisations'),
    lineups: {
      ...resource('lineups', '/lineups'),
      rosters: sub('rosters', '/lineups', 'rosters'),
      series: sub('series', '/lineups', 'series'),
    },
    countries: {
      ...resource('countries', '/countries'),
      ...byId('/countries', true),
      region: subGet('/countries', 'region', true),
    },
    assets: resource('assets', '/assets'),
    broadcasters: resource('broadcasters', '/broadcasters'),
    platforms: resource('platforms', '/platforms'),
    languages: { ...listEndpoint('languages', '/languages'), ...many('languages', '/languages') },
    incidents: { ...listEndpoint('incidents', '/incidents'), ...many('incidents', '/incidents') },
    maps: resource('maps', '/maps'),
    mapLayouts: resource('map_layouts', '/maps/layouts'),
    socialMediaPlatforms: {
      ...listEndpoint('social_media_platforms', '/socialmedia/platforms'),
      ...many('social_media_platforms', '/socialmedia/platforms'),
    },
    regions: { countries: sub('countries', '/regions', 'countries') },
    standingRosters: byId('/standingrosters'),
    images: byId('/images'),
    idSpaces: {
      series: async (space, query, options) => {
        const path = `/id_spaces/${safeId(space)}/series`;
        return asArray(
          await send(path, withSpace(listParams('id_space_series', query), options, false, path), options),
        );
      },
    },
  };
}

/** Walks a listing 50 at a time until `limit` items or a short page (facts note, "Paging"). */
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
