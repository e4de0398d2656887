/**
 * How long an answer stays fresh, per resource family (src/protocol/resources.ts). Reference data rarely
 * changes (the spec says assets, maps and layouts "can be cached for hours or days"); schedules move;
 * live data moves every few seconds.
 */
import { type Family, namedSegments, SEGMENTS } from '../protocol/resources.ts';
import type { QueryParams } from './query.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Default freshness per family, in milliseconds. Every value can be overridden through `ClientOptions.ttl`. */
export const DEFAULT_TTL_MS = {
  /** Games with their map pools, races and roles. */
  games: 6 * HOUR,
  maps: 6 * HOUR,
  assets: 6 * HOUR,
  /** Map layouts. */
  layouts: 6 * HOUR,
  /** Game releases (versions). */
  releases: 6 * HOUR,
  /** Countries, regions, languages, streaming and social platforms, broadcasters, images. */
  reference: 6 * HOUR,
  teams: HOUR,
  players: HOUR,
  /** Rosters, lineups and standing rosters. */
  rosters: HOUR,
  organisations: HOUR,
  /** A caster embeds its stream (online state, viewers), which changes as its series go live. */
  casters: 30 * SECOND,
  tournaments: 5 * MINUTE,
  stages: 5 * MINUTE,
  substages: 5 * MINUTE,
  incidents: 5 * MINUTE,
  /** Series listings and series (scoring and draft included). */
  series: 30 * SECOND,
  matches: 30 * SECOND,
  /** A caster's streams: online state and viewer counts. */
  streams: 30 * SECOND,
  /** Live series, live matches and the live summaries. */
  live: 5 * SECOND,
} as const satisfies Record<Family, number>;

export type TtlFamily = Family;

const LIVE_FILTER = /(^|,)lifecycle(=|<=\{|<\{)([^,}]*,)*live([,}]|$)/;

/** The family of a request, from its path and filter (a listing filtered on `lifecycle` live is live). */
export function familyOf(path: string, params: QueryParams): TtlFamily {
  const named = namedSegments(path);
  const family = SEGMENTS[named[named.length - 1] ?? '']?.family ?? 'reference';
  if ((family === 'series' || family === 'matches') && params.filter && LIVE_FILTER.test(params.filter))
    return 'live';
  // v2: a listing of series not over and not bounded to start after now holds the live ones (the
  // live listing reads it by ascending start, `v2/clock-window.ts`).
  if (family === 'series' && params.is_over === 'false' && params.starts_after === undefined) return 'live';
  return family;
}

/** A series or match answer that holds something live is only fresh for the live TTL. */
export function holdsLive(body: unknown): boolean {
  // v2 answers are `{ at, body }`: a series started by `at` and not over is live.
  if (body !== null && typeof body === 'object' && 'at' in body && 'body' in body) {
    const { at, body: inner } = body as { at: number; body: { data?: unknown } | null };
    const list = Array.isArray(inner?.data) ? inner.data : [inner];
    return list.some((s: { start?: unknown; end?: unknown; deleted_at?: unknown } | null) => {
      return (
        !!s &&
        s.end === null &&
        s.deleted_at === null &&
        typeof s.start === 'string' &&
        Date.parse(s.start) <= at
      );
    });
  }
  const items = Array.isArray(body) ? body : [body];
  return items.some(
    (item) =>
      item !== null && typeof item === 'object' && (item as { lifecycle?: unknown }).lifecycle === 'live',
  );
}

/** The endpoint family for counters: the first path segment (`/series/1/matches` -> `series`). */
export function endpointFamily(path: string): string {
  return path.split('/').find((s) => s !== '') ?? '/';
}
