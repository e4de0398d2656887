/**
 * The v2 listings of live and of upcoming series, as v3 draws the line between them. v3 calls a
 * series live from its start on (`start <= now`); v2's bounds are `starts_before` (strictly before)
 * and `starts_after` (at or after, `service-v2.md`). So at the instant a series starts (every quarter
 * hour of the local world, and every tick of a clock that stands on whole minutes) v2's
 * `starts_before=now` leaves it out of the live listing and `starts_after=now` lists it as upcoming.
 * Here the line is drawn with the service's own clock (the `at` of its answer):
 * - live: the listing of series not over, by ascending start, read until a start past `at`, the rows
 *   started by `at` kept, then ordered and windowed as asked (in the common case one page, as the
 *   `starts_before=now` listing was);
 * - upcoming: the `starts_after=now` listing without the series starting at `at` (first in ascending
 *   order, so the window moves past them; last in descending order, so they are only dropped).
 */

import type { QueryParams } from '../query.ts';
import type { CallOptions } from '../types.ts';
import { type Envelope, V2_PAGE, type V2Reader } from './reader.ts';
import type { V2Series } from './shapes.ts';
import { fits, longestArray, splitIds } from './url-limit.ts';

export interface Rows {
  /** The service's clock when it answered (the oldest answer's). */
  at: number;
  items: V2Series[];
}

/** The v2 parameters of a live listing (`series.ts` lifecycleParams). */
export function isLiveListing(params: QueryParams): boolean {
  return params.starts_before === 'now' && params.is_over === 'false' && params.starts_after === undefined;
}

/** The v2 parameters of an upcoming listing (`series.ts` lifecycleParams). */
export function isUpcomingListing(params: QueryParams): boolean {
  return params.starts_after === 'now' && params.is_over === 'false' && params.starts_before === undefined;
}

const startOf = (s: V2Series) => (s.start === null ? Number.NaN : Date.parse(s.start));

/** Ordered as the service orders a listing: by start or end, ascending or descending, ties by id. */
export function ordered(items: V2Series[], params: QueryParams): V2Series[] {
  const field = params.order === 'end' ? 'end' : 'start';
  const sign = params.sort === 'DESC' ? -1 : 1;
  const key = (s: V2Series) => {
    const t = s[field] === null ? Number.NaN : Date.parse(s[field]!);
    return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t * sign;
  };
  return items.sort((a, b) => key(a) - key(b) || a.id - b.id);
}

/** The live series of one listing's parameters (ids that fit one URL). */
async function liveRows(r: V2Reader, params: QueryParams, options: CallOptions | undefined): Promise<Rows> {
  const { starts_before: _before, order: _order, sort: _sort, ...rest } = params;
  const all: QueryParams = { ...rest, order: 'start', sort: 'ASC' };
  const items: V2Series[] = [];
  let at = Number.POSITIVE_INFINITY;
  for (let page = 1; ; page++) {
    const a = await r.get<Envelope<V2Series>>('/series', { ...all, page: String(page) }, options);
    at = Math.min(at, a.at);
    // Rows without a start (postponed, no new start yet) are sorted by their old start: skipped.
    const rows = a.body.data.filter((s) => s.start !== null);
    items.push(...rows.filter((s) => startOf(s) <= a.at));
    if (rows.some((s) => startOf(s) > a.at) || page >= a.body.last_page) break;
  }
  return { at, items: items.filter((s) => startOf(s) <= at) };
}

/** The `skip`/`take` window of the live listing, the parts of a long id list merged. */
export async function liveWindow(
  r: V2Reader,
  params: QueryParams,
  skip: number,
  count: number,
  options: CallOptions | undefined,
): Promise<Rows> {
  const parts = fits(params) ? [params] : splitIds(params, longestArray(params)!);
  const read = await Promise.all(parts.map((part) => liveRows(r, part, options)));
  const byId = new Map<number, V2Series>();
  for (const part of read) for (const s of part.items) byId.set(s.id, s);
  const items = ordered([...byId.values()], params).slice(skip, skip + count);
  return { at: Math.min(...read.map((p) => p.at)), items };
}

/**
 * The window of the upcoming listing (ids that fit one URL). Descending, the series starting at `at`
 * come last: dropped from the window. Ascending they come first: counted on the first page, and the
 * window read that many rows further on.
 */
export async function upcomingWindow(
  r: V2Reader,
  params: QueryParams,
  skip: number,
  count: number,
  options: CallOptions | undefined,
): Promise<Rows> {
  const started = (s: V2Series, at: number) => s.start !== null && startOf(s) <= at;
  if (params.sort === 'DESC' || params.order === 'end') {
    const w = await r.window<V2Series>('/series', params, skip, count, options);
    return { at: w.at, items: w.items.filter((s) => !started(s, w.at)) };
  }
  const first = await r.get<Envelope<V2Series>>('/series', { ...params, page: '1' }, options);
  const head = first.body.data.findIndex((s) => !started(s, first.at));
  const now = head < 0 ? first.body.data.length : head;
  const from = skip + now;
  if (from + count <= first.body.data.length || first.body.last_page <= 1)
    return { at: first.at, items: first.body.data.slice(from, from + count) };
  // A first page all of series starting now (a page of 50 in one instant) needs the pages after it.
  if (now === V2_PAGE) {
    const rest = await upcomingAfterFirstPage(r, params, skip, count, first.at, options);
    return { at: first.at, items: rest };
  }
  const w = await r.window<V2Series>('/series', params, from, count, options);
  return { at: Math.min(first.at, w.at), items: w.items };
}

/** The upcoming window when whole pages start at `at`: rows read on until the window is full. */
async function upcomingAfterFirstPage(
  r: V2Reader,
  params: QueryParams,
  skip: number,
  count: number,
  at: number,
  options: CallOptions | undefined,
): Promise<V2Series[]> {
  const kept: V2Series[] = [];
  for (let page = 2; kept.length < skip + count; page++) {
    const a = await r.get<Envelope<V2Series>>('/series', { ...params, page: String(page) }, options);
    kept.push(...a.body.data.filter((s) => s.start === null || startOf(s) > at));
    if (page >= a.body.last_page) break;
  }
  return kept.slice(skip, skip + count);
}
