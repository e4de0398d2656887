/**
 * Tournaments, their stages and substages on v2 (`/tournaments`, `/tournaments/{id}` with
 * `with[]=rosters,stages.substages`, `/substages/{id}`). v2 lists neither tournaments nor substages
 * by id: a tournament is one request each, and the substages of many tournaments come from the
 * tournament listing, which embeds them.
 *
 * Standings: v2 gives a substage's standings only by id (`/substages/{id}` with `with[]=standings`).
 * A substage read by id (`get`, `getMany`) always has them, fresh as the `substages` cache family
 * allows, as on v3; substages embedded in a tournament (`stages`, `tournaments.substages`,
 * `substages.list`) have none (`standings: []`) and never answer a read by id.
 */
import { safeId } from '../../protocol/filter.ts';
import type { Substage, Tournament } from '../../protocol/types.ts';
import type { QueryParams } from '../query.ts';
import type { CallOptions, ListQuery } from '../types.ts';
import {
  type Envelope,
  ids,
  list,
  many,
  notOnV2,
  orderParams,
  paginate,
  type Resources,
  skippable,
  slice,
  take,
  unsupported,
  type V2Reader,
} from './reader.ts';
import { toRoster, toSeries, toStage, toSubstage, toTournament } from './records.ts';
import type { SeriesReads } from './series.ts';
import type { V2Substage, V2Tournament } from './shapes.ts';

/** A tournament with its rosters and its stages' substages (embedded rosters kept). */
async function tournamentDetail(r: V2Reader, id: number, options?: CallOptions): Promise<V2Tournament> {
  const a = await r.get<V2Tournament>(
    `/tournaments/${safeId(id)}`,
    { 'with[]': 'rosters,stages.substages' },
    options,
  );
  for (const x of a.body.rosters ?? []) r.seen.roster(x, a.body.game.id);
  for (const stage of a.body.stages ?? [])
    for (const sub of stage.substages) r.seen.put(r.seen.substageGames, sub.id, a.body.game.id);
  return a.body;
}

async function tournamentList(
  r: V2Reader,
  query: ListQuery<'tournaments'> | undefined,
  options?: CallOptions,
): Promise<Tournament[]> {
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
  const { items } = await r.window<V2Tournament>(
    '/tournaments',
    { ...params, ...orderParams(key || undefined, 'tournaments') },
    query?.skip ?? 0,
    take(query),
    options,
  );
  return items.map(toTournament);
}

/** Tournaments by id, one request each (404 and 410 left out). */
async function tournamentMany(r: V2Reader, wanted: readonly number[], options?: CallOptions) {
  const found = await Promise.all(
    [...new Set(wanted)].map((id) =>
      tournamentDetail(r, id, options).then(toTournament, (e: unknown) =>
        skippable(e) ? null : Promise.reject(e),
      ),
    ),
  );
  const byId = new Map(found.flatMap((t) => (t ? [[t.id, t] as const] : [])));
  return wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

async function substageGet(r: V2Reader, id: number, options?: CallOptions): Promise<Substage> {
  const a = await r.get<V2Substage>(`/substages/${safeId(id)}`, { 'with[]': 'rosters,standings' }, options);
  const game = a.body.rosters?.[0]?.teams[0]?.game?.id ?? r.seen.substageGames.get(id) ?? 0;
  for (const x of a.body.rosters ?? []) r.seen.roster(x, game);
  return toSubstage(a.body, game);
}

/** The substages of many tournaments: the tournament listing embeds them, 50 tournaments a page. */
async function substageList(r: V2Reader, q: ListQuery<'substages'> | undefined, o?: CallOptions) {
  const [field, op, value] = q?.filter?.find((w) => w[0] === 'tournament.id') ?? [];
  if (field !== 'tournament.id' || (op !== '=' && op !== '<='))
    notOnV2('listing substages without tournament.id');
  const wanted = new Set(list(value ?? []).map((id) => safeId(id)));
  const all: Substage[] = [];
  const params = { starts_after: '2000-01-01', 'with[]': 'stages.substages' };
  for (let page = 1; ; page++) {
    const a = await r.get<Envelope<V2Tournament>>('/tournaments', { ...params, page: String(page) }, o);
    for (const t of a.body.data)
      if (wanted.has(t.id))
        for (const stage of t.stages ?? [])
          all.push(...stage.substages.map((sub) => toSubstage(sub, t.game.id)));
    if (page >= a.body.last_page) break;
  }
  return slice(
    all.sort((a, b) => a.id - b.id),
    q,
  );
}

/** The series of a substage in start order (v2 embeds them in the substage). */
async function substageSeries(r: V2Reader, id: number, q: ListQuery<'series'> | undefined, o?: CallOptions) {
  const a = await r.get<V2Substage>(`/substages/${safeId(id)}`, { 'with[]': 'series' }, o);
  const series = (a.body.series ?? []).map((s) => toSeries(s, a.at));
  const desc = (Array.isArray(q?.order) ? q.order[0] : q?.order) === 'start-desc';
  series.sort(
    (x, y) => (Date.parse(x.start ?? '') - Date.parse(y.start ?? '')) * (desc ? -1 : 1) || x.id - y.id,
  );
  return slice(series, q);
}

export function buildTournaments(
  r: V2Reader,
  { seriesList }: SeriesReads,
): Pick<Resources, 'tournaments' | 'substages'> {
  const get = (id: number, o?: CallOptions) => substageGet(r, id, o);
  return {
    tournaments: {
      list: (q, o) => tournamentList(r, q, o),
      paginate: (q, o) => paginate((w, c) => tournamentList(r, { ...q, ...w }, c), o),
      get: async (id, o) => toTournament(await tournamentDetail(r, id, o)),
      getMany: (wanted, o) => tournamentMany(r, wanted, o),
      stages: async (id, _q, o) => {
        const t = await tournamentDetail(r, id, o);
        return (t.stages ?? []).map((s) => toStage(s, t.id, t.game.id)).sort((a, b) => a.order - b.order);
      },
      substages: async (id, _q, o) => {
        const t = await tournamentDetail(r, id, o);
        return (t.stages ?? []).flatMap((s) => s.substages.map((sub) => toSubstage(sub, t.game.id)));
      },
      series: async (id, q, o) =>
        seriesList({ ...q, filter: [...(q?.filter ?? []), ['tournament.id', '=', id]] }, o),
      casters: unsupported('/tournaments/{id}/casters'),
      participants: async (id, o) => {
        const t = await tournamentDetail(r, id, o);
        const rosters = (t.rosters ?? []).map((x) => ({ roster: { id: x.id } }));
        // v2 does not say which phase a roster plays in: every confirmed roster is "regular".
        return {
          confirmed_participants: rosters,
          phase_participants: { qualifier: [], regular: rosters, final: [], other: [] },
        };
      },
    },
    substages: {
      list: (q, o) => substageList(r, q, o),
      paginate: (q, o) => paginate((w, c) => substageList(r, { ...q, ...w }, c), o),
      get,
      // Always by id, with standings: never from a tournament's embedded substages (`Embedded`).
      getMany: many(new Map(), get),
      series: (id, q, o) => substageSeries(r, id, q, o),
      rosters: async (id, o) => {
        const a = await r.get<V2Substage>(`/substages/${safeId(id)}`, { 'with[]': 'rosters,standings' }, o);
        return (a.body.rosters ?? []).map((x) => toRoster(x));
      },
    },
  };
}
