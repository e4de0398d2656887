/**
 * Series and matches on v2 (`/series`, `/series/{id}`, `/matches/{id}`), and the maps and casters
 * they embed. A v3 series query becomes v2 `/series` parameters (`seriesParams`); many series by id
 * are found again in listings where that is cheaper (`series-batch.ts`); matches come from the
 * series they belong to, the live listing first (one request for every live series).
 */
import type { ListResource } from '../../protocol/fields.ts';
import { safeId } from '../../protocol/filter.ts';
import type { Match, Series } from '../../protocol/types.ts';
import type { QueryParams } from '../query.ts';
import type { CallOptions, ListQuery, Where } from '../types.ts';
import { isLiveListing, isUpcomingListing, liveWindow, ordered, upcomingWindow } from './clock-window.ts';
import { toLiveSummary } from './light-summary.ts';
import {
  type Envelope,
  ids,
  list,
  many,
  missing,
  notOnV2,
  orderParams,
  paginate,
  type Resources,
  skippable,
  slice,
  take,
  unsupported,
  unsupportedList,
  V2_PAGE,
  type V2Reader,
} from './reader.ts';
import { toCaster, toMatch, toRoster, toSeries } from './records.ts';
import { type Found, readClusters } from './series-batch.ts';
import type { V2LightSummary, V2Match, V2Series } from './shapes.ts';
import { fits, longestArray, splitIds } from './url-limit.ts';

const SERIES_ARRAYS: Record<string, string> = {
  'game.id': 'games[]',
  tier: 'tiers[]',
  'tournament.id': 'tournaments[]',
  'substage.id': 'substages[]',
  'participants.roster.id': 'competitors[]',
};

/** A v3 lifecycle condition as v2 flags (a v3 lifecycle never matches a deleted series). */
function lifecycleParams(op: string, value: Where<ListResource>[2]): QueryParams {
  const wanted = new Set(list(value).map(String));
  const only = (...values: string[]) => [...wanted].every((v) => values.includes(v));
  if (only('upcoming')) return { is_deleted: 'false', starts_after: 'now', is_over: 'false' };
  if (only('live')) return { is_deleted: 'false', starts_before: 'now', is_over: 'false' };
  if (only('upcoming', 'live')) return { is_deleted: 'false', is_over: 'false' };
  if (only('over', 'over-forfeited')) return { is_deleted: 'false', is_over: 'true' };
  return notOnV2(`lifecycle ${op} ${[...wanted].join(',')}`);
}

/** A v3 series query as v2 `/series` parameters (always with matches and casters embedded). */
export function seriesParams(query: ListQuery<'series'> | undefined): QueryParams {
  let params: QueryParams = { 'with[]': 'casters,matches' };
  for (const [field, op, value] of query?.filter ?? []) {
    const array = SERIES_ARRAYS[field];
    if (array && (op === '=' || op === '<=' || op === '^')) {
      // v2 takes one list per field: a second condition (a head-to-head's two sides) would replace
      // the first and silently answer something else.
      if (array in params) notOnV2(`two conditions on ${field}`);
      params[array] = ids(value);
    } else if (field === 'deleted_at' && op === '=' && value === null) params.is_deleted = 'false';
    else if (field === 'lifecycle' && (op === '=' || op === '<='))
      params = { ...params, ...lifecycleParams(op, value) };
    else notOnV2(`the series condition ${field} ${op}`);
  }
  const order = Array.isArray(query?.order) ? query.order : query?.order ? [query.order] : [];
  if (order.length > 1) notOnV2('ordering series by several keys');
  return { ...params, ...orderParams(order[0] as string | undefined, 'series') };
}

export interface SeriesReads {
  /** The v3 series listing (what `tournaments.series` reads too). */
  seriesList(query?: ListQuery<'series'>, options?: CallOptions): Promise<Series[]>;
}

/** The v2 series listing for a v3 query (its `skip`/`take` window), the records seen kept. */
async function seriesList(
  r: V2Reader,
  query: ListQuery<'series'> | undefined,
  options?: CallOptions,
): Promise<Series[]> {
  const params = seriesParams(query);
  const skip = query?.skip ?? 0;
  const count = take(query);
  const upcoming = isUpcomingListing(params);
  const { at, items } = isLiveListing(params)
    ? await liveWindow(r, params, skip, count, options)
    : !fits(params)
      ? await splitWindow(r, params, skip, count, options, upcoming)
      : upcoming
        ? await upcomingWindow(r, params, skip, count, options)
        : await r.window<V2Series>('/series', params, skip, count, options);
  for (const s of items) r.seen.series(s);
  return items.map((s) => toSeries(s, at));
}

/**
 * The first `n` series of a listing: as many pages as that takes (the oldest answer's clock). An
 * upcoming listing leaves out the series starting at the service's clock (`clock-window.ts`).
 */
async function firstRows(
  r: V2Reader,
  params: QueryParams,
  n: number,
  options: CallOptions | undefined,
  upcoming: boolean,
): Promise<{ at: number; items: V2Series[] }> {
  const items: V2Series[] = [];
  let at = Number.POSITIVE_INFINITY;
  for (let page = 1; items.length < n; page++) {
    const a = await r.get<Envelope<V2Series>>('/series', { ...params, page: String(page) }, options);
    at = Math.min(at, a.at);
    items.push(...a.body.data.filter((s) => !upcoming || s.start === null || Date.parse(s.start) > a.at));
    if (page >= a.body.last_page) break;
  }
  return { at, items: items.slice(0, n) };
}

/**
 * The window of a listing whose ids make too long a URL (`url-limit.ts`): the listing of each part
 * of the ids up to the window's end, merged in the listing's order (start or end, ascending or
 * descending, ties by ascending id, as the service orders), each series once.
 */
async function splitWindow(
  r: V2Reader,
  params: QueryParams,
  skip: number,
  count: number,
  options: CallOptions | undefined,
  upcoming: boolean,
): Promise<{ at: number; items: V2Series[] }> {
  const parts = splitIds(params, longestArray(params)!);
  const read = await Promise.all(parts.map((part) => firstRows(r, part, skip + count, options, upcoming)));
  const byId = new Map<number, V2Series>();
  for (const part of read) for (const s of part.items) byId.set(s.id, s);
  const merged = ordered([...byId.values()], params);
  return { at: Math.min(...read.map((p) => p.at)), items: merged.slice(skip, skip + count) };
}

async function seriesDetail(r: V2Reader, id: number, options?: CallOptions) {
  const a = await r.get<V2Series>(`/series/${safeId(id)}`, { 'with[]': 'casters,matches' }, options);
  r.seen.series(a.body);
  return a;
}

/**
 * Many series as v2 answers them, by id: those seen before from the listings of their tournaments
 * around their known starts (`series-batch.ts`), the rest one `/series/{id}` each. Missing ones
 * (404) and those read by id as deleted (410) are left out; a listing answers deleted ones with
 * their `deleted_at`, which the callers skip.
 */
async function seriesRaw(
  r: V2Reader,
  wanted: readonly number[],
  options?: CallOptions,
): Promise<Map<number, Found>> {
  const unique = [...new Set(wanted.map((id) => safeId(id)))];
  const found = await readClusters(unique, r.seen.seriesHints, async (params, page) => {
    const a = await r.get<Envelope<V2Series>>('/series', { ...params, page: String(page) }, options);
    for (const s of a.body.data) r.seen.series(s);
    return { at: a.at, lastPage: a.body.last_page, data: a.body.data };
  });
  await Promise.all(
    unique
      .filter((id) => !found.has(id))
      .map(async (id) => {
        const a = await seriesDetail(r, id, options).catch((e: unknown) =>
          skippable(e) ? null : Promise.reject(e),
        );
        if (a) found.set(id, { body: a.body, at: a.at });
      }),
  );
  return found;
}

/** Missing and deleted ones are skipped (a deleted series answers 410). */
async function seriesMany(r: V2Reader, wanted: readonly number[], options?: CallOptions) {
  const found = await seriesRaw(r, wanted, options);
  return wanted.flatMap((id) => {
    const f = found.get(id);
    return f && f.body.deleted_at === null ? [toSeries(f.body, f.at)] : [];
  });
}

/** Matches from the series they belong to (the live listing first: one request for all live). */
async function matchesOf(r: V2Reader, seriesIds: number[], options?: CallOptions): Promise<Match[]> {
  const out = new Map<number, Match[]>();
  const live = await liveWindow(
    r,
    seriesParams({ filter: [['lifecycle', '=', 'live']] }),
    0,
    V2_PAGE,
    options,
  );
  for (const s of live.items) if (s.matches) out.set(s.id, s.matches.map(toMatch));
  const rest = await seriesRaw(
    r,
    seriesIds.filter((id) => !out.has(id)),
    options,
  );
  for (const [id, f] of rest)
    if (f.body.deleted_at === null) out.set(id, (f.body.matches ?? []).map(toMatch));
  return seriesIds.flatMap((id) => out.get(id) ?? []);
}

async function matchList(
  r: V2Reader,
  query: ListQuery<'matches'> | undefined,
  options?: CallOptions,
): Promise<Match[]> {
  let seriesIds: number[] | null = null;
  for (const [field, op, value] of query?.filter ?? []) {
    if (field === 'series.id' && (op === '=' || op === '<=')) seriesIds = list(value).map((v) => safeId(v));
    else notOnV2(`the match condition ${field} ${op}`);
  }
  if (seriesIds === null) notOnV2('listing matches without series.id');
  const all = (await matchesOf(r, seriesIds, options)).sort(
    (a, b) => a.series.id - b.series.id || a.order - b.order,
  );
  return slice(all, query);
}

/** The live and upcoming series (the pages every reader shares), for the maps they embed. */
async function readMapsFromSeries(r: V2Reader, options?: CallOptions): Promise<void> {
  await Promise.all([
    seriesList(r, { filter: [['lifecycle', '=', 'live']] }, options),
    seriesList(r, { filter: [['lifecycle', '=', 'upcoming']] }, options),
  ]);
}

export function buildSeries(
  r: V2Reader,
): Pick<Resources, 'series' | 'matches' | 'maps' | 'casters'> & SeriesReads {
  const { seen } = r;
  return {
    seriesList: (q, o) => seriesList(r, q, o),
    series: {
      list: (q, o) => seriesList(r, q, o),
      paginate: (q, o) => paginate((w, c) => seriesList(r, { ...q, ...w }, c), o),
      get: async (id, o) => {
        const a = await seriesDetail(r, id, o);
        return toSeries(a.body, a.at);
      },
      getMany: (wanted, o) => seriesMany(r, wanted, o),
      casters: async (id, _q, o) => {
        const a = await seriesDetail(r, id, o);
        return (a.body.casters ?? []).map((c) => toCaster(c, a.body.game.id));
      },
      matches: async (id, _q, o) => matchesOf(r, [safeId(id)], o),
      rosters: async (id, _q, o) => {
        const a = await seriesDetail(r, id, o);
        return a.body.rosters.map((x) => toRoster(x, a.body.game.id));
      },
      scoring: unsupported('/series/{id}/scoring'),
      draft: unsupported('/series/{id}/draft'),
    },
    matches: {
      list: (q, o) => matchList(r, q, o),
      paginate: (q, o) => paginate((w, c) => matchList(r, { ...q, ...w }, c), o),
      get: async (id, o) => toMatch((await r.get<V2Match>(`/matches/${safeId(id)}`, {}, o)).body),
      getMany: unsupported('matches by id'),
      rosters: unsupported('/matches/{id}/rosters'),
      liveApi: async (id, o) => {
        const path = `/matches/${safeId(id)}/light_summary`;
        const a = await r.get<V2LightSummary>(path, {}, o);
        return toLiveSummary(id, a.body, a.at, path);
      },
      liveCv: unsupported('the computer-vision live summary'),
    },
    casters: {
      ...unsupportedList('/casters'),
      get: async (id) => seen.casters.get(id) ?? missing('/casters', id),
      getMany: many(seen.casters, null),
      streams: unsupported('/casters/{id}/streams'),
    },
    maps: {
      // v2 has no map listing: maps come embedded in the matches of series. The listing reads the
      // live and upcoming series first (the pages every reader shares), then answers the maps seen.
      list: async (q, o) => {
        await readMapsFromSeries(r, o);
        return slice([...seen.maps.values()], q);
      },
      paginate: (_q, o) =>
        paginate(async (w, c) => {
          if (w.skip === 0) await readMapsFromSeries(r, c);
          return [...seen.maps.values()].slice(w.skip, w.skip + w.take);
        }, o),
      get: async (id) => seen.maps.get(id) ?? missing('/maps', id),
      getMany: many(seen.maps, null),
    },
  };
}
