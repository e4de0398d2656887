/**
 * Many series by id on v2, in few requests. The v2 series listing has no id filter
 * (the v2 specification, "Series list parameters": `games[]`, `competitors[]`, `tournaments[]`,
 * `substages[]`, dates and flags), so a series read by id alone costs one `/series/{id}` each: the
 * notifier's re-reads (every known series near its start, live or just over, each tick) made the v2
 * notifier cost about six times the v3 one.
 *
 * A series this client has seen before is found again in a listing instead: the wanted series,
 * sorted by the start last seen, are cut into clusters of close starts, and each cluster is one
 * `/series` listing of its tournaments (`tournaments[]`) between its first and last start
 * (`starts_after` ... `starts_before`, which also lifts the `is_over` default, so over and not over
 * alike; `is_deleted` unset, so deleted ones too), every page of it. A series that moved out of its
 * window, was never seen, or stands alone is read by id as before, and so is every series of a
 * cluster whose listing would take more pages than it has series. A cluster of many tournaments is
 * cut into several listings so that no URL is longer than 2,000 characters (`url-limit.ts`). What
 * a listing answers is what `/series/{id}` answers (the same shape with the same `with[]`), so the
 * records are the same.
 */
import type { QueryParams } from '../query.ts';
import type { V2Series } from './shapes.ts';
import { fits, splitIds } from './url-limit.ts';

/** What a series answer told about where to find it again. */
export interface SeriesHint {
  tournament: number;
  /** The start it had (epoch ms). */
  start: number;
}

/** One page of a v2 listing. */
export type ListPage = (
  params: QueryParams,
  page: number,
) => Promise<{ at: number; lastPage: number; data: V2Series[] }>;

export interface Found {
  body: V2Series;
  /** The service clock of the answer (epoch ms). */
  at: number;
}

/** Starts further apart than this begin a new cluster (its own listing). */
export const CLUSTER_GAP_MS = 2 * 3600_000;

/** Clusters of ids whose last seen starts lie within `CLUSTER_GAP_MS` of the previous one. */
export function clusters(ids: readonly number[], hints: ReadonlyMap<number, SeriesHint>): number[][] {
  const sorted = ids
    .filter((id) => hints.has(id))
    .sort((a, b) => hints.get(a)!.start - hints.get(b)!.start || a - b);
  const out: number[][] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const id of sorted) {
    const start = hints.get(id)!.start;
    if (out.length === 0 || start - last > CLUSTER_GAP_MS) out.push([id]);
    else out.at(-1)!.push(id);
    last = start;
  }
  return out;
}

/** The listing parameters of one cluster: its tournaments, from its first start to just after its last. */
export function clusterParams(ids: readonly number[], hints: ReadonlyMap<number, SeriesHint>): QueryParams {
  const starts = ids.map((id) => hints.get(id)!.start);
  const tournaments = [...new Set(ids.map((id) => hints.get(id)!.tournament))].sort((a, b) => a - b);
  return {
    'tournaments[]': tournaments.join(','),
    starts_after: new Date(Math.min(...starts)).toISOString(),
    // starts_before is strict: one second past the last start keeps it in.
    starts_before: new Date(Math.max(...starts) + 1000).toISOString(),
    'with[]': 'casters,matches',
  };
}

/**
 * A cluster whose tournaments would make a listing URL longer than `MAX_URL_CHARS`, cut by
 * tournament into clusters whose listings fit (`url-limit.ts`); a cluster that fits, unchanged.
 * Each part lists fewer tournaments in the same or a narrower window, so it fits as its ids did.
 */
export function fitted(cluster: number[], hints: ReadonlyMap<number, SeriesHint>): number[][] {
  const params = clusterParams(cluster, hints);
  if (fits(params)) return [cluster];
  return splitIds(params, 'tournaments[]').map((part) => {
    const tournaments = new Set(part['tournaments[]']!.split(',').map(Number));
    return cluster.filter((id) => tournaments.has(hints.get(id)!.tournament));
  });
}

/**
 * The series of `ids` found in the listings of their clusters (clusters of two or more, each cut
 * to a URL that fits), by id.
 * Ids not in the answer are for the caller to read one by one.
 */
export async function readClusters(
  ids: readonly number[],
  hints: ReadonlyMap<number, SeriesHint>,
  listPage: ListPage,
): Promise<Map<number, Found>> {
  const found = new Map<number, Found>();
  await Promise.all(
    clusters(ids, hints)
      .flatMap((cluster) => fitted(cluster, hints))
      .filter((cluster) => cluster.length >= 2)
      .map(async (cluster) => {
        const wanted = new Set(cluster);
        const params = clusterParams(cluster, hints);
        const keep = (page: Awaited<ReturnType<ListPage>>) => {
          for (const body of page.data) if (wanted.delete(body.id)) found.set(body.id, { body, at: page.at });
        };
        const first = await listPage(params, 1);
        keep(first);
        // More pages left than series still wanted: reading those one by one is cheaper (the caller does).
        const more = first.lastPage - 1;
        if (wanted.size === 0 || more > wanted.size) return;
        const rest = await Promise.all(Array.from({ length: more }, (_, i) => listPage(params, i + 2)));
        for (const page of rest) keep(page);
      }),
  );
  return found;
}
