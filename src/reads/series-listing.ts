/**
 * Series questions (`SeriesWanted`, src/reads/query.ts) as the service's listings: the same
 * conditions as filters, and for a start range (a day of `/schedule`) walks of pages from both
 * sides, since the filter language has no range on `start` (service-v3.md, "Filter language").
 */
import type { EsportsClient, Where } from '../client/types.ts';
import { MatchdayError } from '../core/errors.ts';
import type { Series } from '../protocol/types.ts';
import { compareBy, type ListedLifecycle, type SeriesWanted } from './query.ts';

/** Pages one walk reads at most before the answer is called unknown (2,000 series). */
const MAX_WALK_PAGES = 40;

/** The service's filter and order for `wanted` (without its start range and take). */
export function seriesListing(
  wanted: Omit<SeriesWanted, 'take'>,
  lifecycles: readonly ListedLifecycle[] = wanted.lifecycles,
): { filter: Where<'series'>[]; order: SeriesWanted['order'] } {
  const filter: Where<'series'>[] = [];
  filter.push(
    lifecycles.length === 1 ? ['lifecycle', '=', lifecycles[0]!] : ['lifecycle', '<=', [...lifecycles]],
  );
  if (wanted.games && wanted.games.length > 0) filter.push(['game.id', '<=', [...wanted.games]]);
  if (wanted.tiers && wanted.tiers.length > 0) filter.push(['tier', '<=', [...wanted.tiers]]);
  if (wanted.tournament !== undefined) filter.push(['tournament.id', '=', wanted.tournament]);
  if (wanted.substage !== undefined) filter.push(['substage.id', '=', wanted.substage]);
  if (wanted.rosters) filter.push(['participants.roster.id', '^', [...wanted.rosters]]);
  return { filter, order: wanted.order };
}

const startOf = (s: Series): number | undefined => (s.start === null ? undefined : Date.parse(s.start));

/**
 * The series starting in `[startFrom, startUntil)`: the series to come walked forward by start, the
 * finished ones backward, each a page at a time until it passes the range's edge. The answer is
 * whole or the read fails: a range too large to read is refused, never cut short.
 */
export async function walkStarts(
  client: Pick<EsportsClient, 'series'>,
  wanted: SeriesWanted,
  page: number,
): Promise<Series[]> {
  const from = wanted.startFrom ?? Number.NEGATIVE_INFINITY;
  const until = wanted.startUntil ?? Number.POSITIVE_INFINITY;
  const coming = wanted.lifecycles.filter((l) => l === 'upcoming' || l === 'live');
  const finished = wanted.lifecycles.filter((l) => l === 'over' || l === 'over-forfeited');
  const walks: {
    lifecycles: ListedLifecycle[];
    order: 'start-asc' | 'start-desc';
    past: (at: number) => boolean;
  }[] = [];
  if (coming.length > 0) walks.push({ lifecycles: coming, order: 'start-asc', past: (at) => at >= until });
  if (finished.length > 0) walks.push({ lifecycles: finished, order: 'start-desc', past: (at) => at < from });
  const found: Series[] = [];
  await Promise.all(
    walks.map(async (walk) => {
      const { filter } = seriesListing(wanted, walk.lifecycles);
      for (let pages = 0; ; pages++) {
        if (pages >= MAX_WALK_PAGES)
          throw new MatchdayError(
            'TOO_MANY_SERIES',
            'outage',
            `more than ${MAX_WALK_PAGES * page} series to read for one answer`,
          );
        const list = await client.series.list({ filter, order: walk.order, skip: pages * page, take: page });
        let done = list.length < page;
        for (const s of list) {
          const at = startOf(s);
          if (at === undefined) continue;
          if (walk.past(at)) {
            done = true;
            break;
          }
          if (at >= from && at < until && s.deleted_at === null && s.lifecycle !== 'deleted') found.push(s);
        }
        if (done) return;
      }
    }),
  );
  found.sort(compareBy(wanted.order));
  return found.slice(0, wanted.take);
}
