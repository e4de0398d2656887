/**
 * What the pipeline stores and for how long: the time to live of an answer (a series or match that
 * is live keeps the short live TTL), whether an old entry may answer now, and which listings hold
 * whole records that can answer a later `/x/{id}` (priming, from the registry in
 * src/protocol/resources.ts).
 */
import { SEGMENTS } from '../protocol/resources.ts';
import type { CacheEntry } from './cache.ts';
import { isRetryable, QueueFullError, TimeoutError } from './errors.ts';
import { familyOf, holdsLive, type TtlFamily } from './ttl.ts';

/** How long `value`, the answer of a `family` request, stays fresh. */
export function ttlOf(ttl: Record<TtlFamily, number>, family: TtlFamily, value: unknown): number {
  return (family === 'series' || family === 'matches') && holdsLive(value) ? ttl.live : ttl[family];
}

/**
 * How a stored entry of age `ageMs` may answer: `fresh` as it is, `revalidate` at once while it is
 * refreshed in the background (stale-while-revalidate), or `miss`.
 */
export function freshness(
  entry: CacheEntry,
  ageMs: number,
  revalidateFactor: number,
): 'fresh' | 'revalidate' | 'miss' {
  if (ageMs <= entry.ttl) return 'fresh';
  if (ageMs <= entry.ttl * (1 + revalidateFactor)) return 'revalidate';
  return 'miss';
}

/** Errors after which a stored entry may be served stale (the service failed, not the question). */
export function allowsStale(error: unknown): boolean {
  return isRetryable(error) || error instanceof TimeoutError || error instanceof QueueFullError;
}

/** `/teams` and `/organisations/{id}/teams`-like paths -> `/teams`; undefined when not a record listing. */
export function detailPathOf(path: string): string | undefined {
  if (path === '/platforms') return '/platforms';
  const segments = path.split('/').filter((s) => s !== '');
  const last = segments[segments.length - 1];
  if (last === undefined || /^\d+$/.test(last) || segments[0] === 'id_spaces') return undefined;
  if (last === 'layouts' && path !== '/maps/layouts') return undefined;
  return SEGMENTS[last]?.records;
}

/**
 * A listing holds whole records, the same shape `/x/{id}` answers (spec: "Team (as listed)"; the
 * real service's team detail is the team as listed). Each item as a `/x/{id}` path with its record and
 * TTL, so storing them lets a later `get` or `getMany` of one cost nothing. Own id space only.
 */
export function primedItems(
  pathAndQuery: string,
  body: unknown,
  ttl: Record<TtlFamily, number>,
): { path: string; value: unknown; ttl: number }[] {
  if (!Array.isArray(body) || pathAndQuery.includes('id_space=')) return [];
  const detail = detailPathOf(pathAndQuery.split('?')[0]!);
  if (!detail) return [];
  const items: { path: string; value: unknown; ttl: number }[] = [];
  for (const item of body) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') continue;
    const path = `${detail}/${id}`;
    items.push({ path, value: item, ttl: ttlOf(ttl, familyOf(path, {}), item) });
  }
  return items;
}
