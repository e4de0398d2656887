/**
 * What the notifier reads from the service itself rather than from the feed, which holds only its
 * window: the look-back after downtime (series that ended, and series deleted, while no notifier
 * ran). Also the slice of the data client the notifier is given.
 */
import type { CallOptions, EsportsClient, Where } from '../client/types.ts';
import type { Series } from '../protocol/types.ts';

/** The slice of the data client the notifier reads. */
export type NotifyClient = Pick<
  EsportsClient,
  | 'series'
  | 'matches'
  | 'rosters'
  | 'teams'
  | 'tournaments'
  | 'casters'
  | 'games'
  | 'substages'
  | 'maps'
  | 'organisations'
> &
  Partial<Pick<EsportsClient, 'languages' | 'players'>>;

const BACKGROUND: CallOptions = { priority: 'background' };
/** Most finished series the look-back after downtime reads (a day of the whole feed is far fewer). */
const PAST_LIMIT = 5000;

/**
 * Series of one listing, read a page at a time in the listing's order (newest first by `at`) until
 * one is at or before `from`; `keep` picks the ones wanted. Series with no `at` are passed over.
 */
async function readBack(
  client: Pick<NotifyClient, 'series'>,
  listing: { filter: Where<'series'>[]; order: 'end-desc' | 'start-desc' },
  at: (s: Series) => number,
  from: number,
  keep: (s: Series) => boolean,
): Promise<Series[]> {
  const found: Series[] = [];
  for await (const s of client.series.paginate(listing, { ...BACKGROUND, limit: PAST_LIMIT })) {
    const t = at(s);
    if (Number.isNaN(t)) continue;
    if (t <= from) break;
    if (keep(s)) found.push(s);
  }
  return found;
}

/** Finished series that ended in (from, to], newest first (the look-back after downtime). */
export function readEnded(client: Pick<NotifyClient, 'series'>, from: number, to: number): Promise<Series[]> {
  const ended = (s: Series) => Date.parse(s.end ?? s.start ?? '');
  const listing = {
    filter: [['lifecycle', '<=', ['over', 'over-forfeited']]] as Where<'series'>[],
    order: 'end-desc' as const,
  };
  return readBack(client, listing, ended, from, (s) => ended(s) <= to);
}

/**
 * Series deleted in (from, to] that were to start after `from` (the look-back after downtime: their
 * reminders never go out, and after a restart no listing shows them). Latest start first.
 */
export function readRemoved(
  client: Pick<NotifyClient, 'series'>,
  from: number,
  to: number,
): Promise<Series[]> {
  const listing = {
    filter: [['lifecycle', '=', 'deleted']] as Where<'series'>[],
    order: 'start-desc' as const,
  };
  return readBack(
    client,
    listing,
    (s) => Date.parse(s.start ?? ''),
    from,
    (s) => {
      const deleted = Date.parse(s.deleted_at ?? '');
      return deleted > from && deleted <= to;
    },
  );
}
