/**
 * Series queries, as the read model asks them (reads.ts) and the feed's picture answers them
 * (src/feed/feed.ts), as pure functions: the same conditions and order the service applies to
 * `/series` (ties broken by ascending id), and whether the picture holds everything the answer needs
 * (`complete`). No I/O, no clock: unit-tested on their own.
 */
import type { Series } from '../protocol/types.ts';

export type ListedLifecycle = 'upcoming' | 'live' | 'over' | 'over-forfeited';

export interface SeriesWanted {
  lifecycles: readonly ListedLifecycle[];
  /** Empty or absent: every game. */
  games?: readonly number[];
  tiers?: readonly number[];
  tournament?: number;
  substage?: number;
  /** A series matches when any participant's roster is one of these. */
  rosters?: readonly number[];
  /** Only series starting in [startFrom, startUntil). */
  startFrom?: number;
  startUntil?: number;
  order: 'start-asc' | 'start-desc' | 'end-desc';
  take: number;
}

/** What the picture is known to hold in full (instants in ms; see `Feed`). */
export interface Coverage {
  /** The live listing was read (every live series is known). */
  live: boolean;
  /** Every upcoming series starting before this instant is known (+Infinity: the whole window). */
  upcomingUntil: number;
  /** Every finished series that ended at or after this instant is known (-Infinity: the whole window). */
  finishedFrom: number;
}

export interface SeriesAnswer {
  series: Series[];
  /** True when the picture holds everything the service would have answered. */
  complete: boolean;
}

const time = (iso: string | null): number => (iso === null ? Number.NaN : Date.parse(iso));

/** Does `s` meet every condition of `q` (the order and take aside)? */
export function matches(s: Series, q: SeriesWanted): boolean {
  if (!(q.lifecycles as readonly string[]).includes(s.lifecycle)) return false;
  if (s.deleted_at !== null) return false;
  if (q.games && q.games.length > 0 && !q.games.includes(s.game.id)) return false;
  if (q.tiers && q.tiers.length > 0 && !q.tiers.includes(s.tier)) return false;
  if (q.tournament !== undefined && s.tournament.id !== q.tournament) return false;
  if (q.substage !== undefined && s.substage.id !== q.substage) return false;
  if (q.rosters && !s.participants.some((p) => q.rosters!.includes(p.roster.id))) return false;
  if (q.startFrom !== undefined || q.startUntil !== undefined) {
    const start = time(s.start);
    if (Number.isNaN(start)) return false;
    if (q.startFrom !== undefined && start < q.startFrom) return false;
    if (q.startUntil !== undefined && start >= q.startUntil) return false;
  }
  return true;
}

/** The service's order: by the key (nulls last), then ascending id. */
export function compareBy(order: SeriesWanted['order']): (a: Series, b: Series) => number {
  const key = order === 'end-desc' ? (s: Series) => time(s.end) : (s: Series) => time(s.start);
  const sign = order === 'start-asc' ? 1 : -1;
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (Number.isNaN(ka) !== Number.isNaN(kb)) return Number.isNaN(ka) ? 1 : -1;
    return (Number.isNaN(ka) ? 0 : sign * (ka - kb)) || a.id - b.id;
  };
}

/**
 * Answers `q` from `all` and says whether the answer is complete under `coverage`: every series the
 * service would list first is in the picture. A full page is complete when its last series lies
 * within the covered range; a short page only when the range it could extend into is covered too.
 */
export function answer(all: Iterable<Series>, q: SeriesWanted, coverage: Coverage): SeriesAnswer {
  const found: Series[] = [];
  for (const s of all) if (matches(s, q)) found.push(s);
  found.sort(compareBy(q.order));
  const series = found.slice(0, q.take);
  return { series, complete: isComplete(series, q, coverage) };
}

function isComplete(series: Series[], q: SeriesWanted, c: Coverage): boolean {
  const wantsUpcoming = q.lifecycles.includes('upcoming');
  const wantsLive = q.lifecycles.includes('live');
  const wantsFinished = q.lifecycles.includes('over') || q.lifecycles.includes('over-forfeited');
  if ((wantsLive || wantsUpcoming) && !c.live) return false;
  const full = series.length >= q.take;
  const last = series[series.length - 1];
  if (wantsUpcoming) {
    // Upcoming series start from now on: covered up to `upcomingUntil`.
    const reach =
      q.startUntil ?? (q.order === 'start-asc' && full && last ? time(last.start) : Number.POSITIVE_INFINITY);
    if (!(reach <= c.upcomingUntil)) return false;
  }
  if (wantsFinished) {
    // A finished series ends after it starts: one starting at or after `startFrom` ended after it.
    const reach =
      q.startFrom ?? (q.order === 'end-desc' && full && last ? time(last.end) : Number.NEGATIVE_INFINITY);
    if (!(reach >= c.finishedFrom)) return false;
  }
  return true;
}
