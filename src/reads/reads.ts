/**
 * The one read model of the esports data service: what every command and the notifier's previews
 * ask for (series by conditions, one series, casters, a stage and its series, live matches and
 * summaries). Each answer is whole: from the process's picture of the window (the feed,
 * `src/feed/feed.ts`) when it holds all of it, else read from the service through the caller's
 * client view (its cache, single flight, priority, deadline and budget). A reader never branches on
 * where an answer came from, and never gets half an answer: what cannot be read in time fails as
 * the client's error (an outage the reply says plainly), so `matchday ask` exits non-zero.
 */
import { InvalidQueryError } from '../client/errors.ts';
import type { EsportsClient } from '../client/types.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series, Substage } from '../protocol/types.ts';
import type { SeriesAnswer, SeriesWanted } from './query.ts';
import { seriesListing, walkStarts } from './series-listing.ts';

/** The client resources the read model reads through (a caller's view: its priority and deadline). */
export type ReadsClient = Pick<EsportsClient, 'series' | 'casters' | 'substages' | 'matches'>;

/**
 * What a picture of the window answers without a request (the feed implements it). Each answer is
 * undefined when the picture cannot give it whole.
 */
export interface Picture {
  /** The live listing was read: the picture can answer something. */
  readonly ready: boolean;
  series(q: SeriesWanted): SeriesAnswer | undefined;
  seriesById(id: number): Series | undefined;
  casters(ids: readonly number[]): Caster[] | undefined;
  substage(id: number): Substage | undefined;
  liveMatches(seriesId: number): Match[] | undefined;
  /** null: the picture read that the service has no summary for the match. */
  liveSummary(source: 'cv' | 'api', matchId: number): LiveSummary | null | undefined;
}

/** The read model's questions. Every answer is what the service holds (see the file's comment). */
export interface Reads {
  /** The series the service lists for `wanted`, in its order; a start range is read to its edges. */
  series(wanted: SeriesWanted): Promise<Series[]>;
  /** One series; rejects with the client's 404 or 410 error when it does not exist or was deleted. */
  seriesById(id: number): Promise<Series>;
  /** These casters with their streams (unknown ids are left out). */
  casters(ids: readonly number[]): Promise<Caster[]>;
  /** A substage with its standings. */
  substage(id: number): Promise<Substage>;
  /** Every series of a substage, by start. */
  substageSeries(id: number): Promise<Series[]>;
  /** The matches of these series (games played, live and to come), by series then order. */
  matchesOf(seriesIds: readonly number[]): Promise<Match[]>;
  /** A live match's summary from a source; undefined between games (the service has none yet). */
  liveSummary(source: 'cv' | 'api', matchId: number): Promise<LiveSummary | undefined>;
  /** Finished series between one of `a`'s rosters and one of `b`'s, newest end first. */
  between(a: readonly number[], b: readonly number[], take: number): Promise<Series[]>;
}

/** Counts the reads that went to the service (the notifier's statistics). */
export interface ReadsOptions {
  onRead?: () => void;
}

const FINISHED = ['over', 'over-forfeited'] as const;
/** A listing page, as the service caps it. */
const PAGE = 50;

/** The read model over `client` (a caller's view) and, when the process runs one, its picture. */
export function createReads(client: ReadsClient, picture?: Picture, options: ReadsOptions = {}): Reads {
  const read = () => options.onRead?.();
  const whole = (q: SeriesWanted): Series[] | undefined => {
    const held = picture?.series(q);
    return held?.complete ? held.series : undefined;
  };
  const reads: Reads = {
    async series(wanted) {
      const held = whole(wanted);
      if (held) return held;
      read();
      if (wanted.startFrom !== undefined || wanted.startUntil !== undefined)
        return walkStarts(client, wanted, PAGE);
      if (wanted.rosters?.length === 0) return [];
      const found: Series[] = [];
      // A listing takes at most a page; a longer take reads on (a stage's series, a busy day).
      for (let skip = 0; found.length < wanted.take; skip += PAGE) {
        const take = Math.min(PAGE, wanted.take - found.length);
        const page = await client.series.list({ ...seriesListing(wanted), skip, take });
        found.push(...page);
        if (page.length < take) break;
      }
      return visible(found);
    },
    async seriesById(id) {
      const held = picture?.seriesById(id);
      if (held) return held;
      read();
      return client.series.get(id);
    },
    async casters(ids) {
      if (ids.length === 0) return [];
      const held = picture?.casters(ids);
      if (held) return held;
      read();
      return client.casters.getMany([...ids]);
    },
    async substage(id) {
      const held = picture?.substage(id);
      if (held) return held;
      read();
      return client.substages.get(id);
    },
    async substageSeries(id) {
      const held = whole({
        substage: id,
        lifecycles: ['upcoming', 'live', 'over', 'over-forfeited'],
        order: 'start-asc',
        take: PAGE,
      });
      if (held) return held;
      read();
      return visible(await client.substages.series(id, { order: 'start-asc', take: PAGE }));
    },
    async matchesOf(seriesIds) {
      if (seriesIds.length === 0) return [];
      const held = seriesIds.map((id) => picture?.liveMatches(id));
      if (held.every((m) => m !== undefined)) return held.flat();
      read();
      return client.matches.list({
        filter: [['series.id', '<=', [...seriesIds]]],
        order: 'order-asc',
        take: PAGE,
      });
    },
    async liveSummary(source, matchId) {
      const held = picture?.liveSummary(source, matchId);
      if (held !== undefined) return held ?? undefined;
      read();
      try {
        return source === 'cv' ? await client.matches.liveCv(matchId) : await client.matches.liveApi(matchId);
      } catch (error) {
        // Between games the next one has no summary yet.
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async between(a, b, take) {
      if (a.length === 0 || b.length === 0) return [];
      const meets = (s: Series) =>
        s.participants.some((p) => a.includes(p.roster.id)) &&
        s.participants.some((p) => b.includes(p.roster.id));
      // The picture's answer for one side holds every meeting when it is whole to the end.
      const held = picture?.series({ rosters: a, lifecycles: [...FINISHED], order: 'end-desc', take: PAGE });
      if (held?.complete && held.series.length < PAGE) return held.series.filter(meets).slice(0, take);
      read();
      return visible(await listMeetings(client, a, b, take, read))
        .filter(meets)
        .slice(0, take);
    },
  };
  return reads;
}

/**
 * The finished series between rosters `a` and `b`, newest first, from the service. Where the
 * interface cannot select head-to-heads (v2), the first side's last 50 series (a second read).
 */
async function listMeetings(
  client: ReadsClient,
  a: readonly number[],
  b: readonly number[],
  take: number,
  onRead: () => void,
): Promise<Series[]> {
  const finished = ['lifecycle', '<=', [...FINISHED]] as const;
  try {
    // Spec (service-v3.md, filter language 8): two `^` conditions on the participants select head-to-heads.
    return await client.series.list({
      filter: [['participants.roster.id', '^', [...a]], ['participants.roster.id', '^', [...b]], finished],
      order: 'end-desc',
      take,
    });
  } catch (error) {
    // An interface without head-to-head selection (v2): the meetings among the first side's last 50.
    if (!(error instanceof InvalidQueryError)) throw error;
    onRead();
    return client.series.list({
      filter: [['participants.roster.id', '^', [...a]], finished],
      order: 'end-desc',
      take: PAGE,
    });
  }
}

/** The series not deleted. */
export function visible(list: readonly Series[]): Series[] {
  return list.filter((s) => s.deleted_at === null && s.lifecycle !== 'deleted');
}

/** True for the client's 404 and 410 errors (not found, deleted). */
export function isNotFound(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 404 || status === 410;
}
