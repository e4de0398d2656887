/**
 * What the notifier reads, and from where. A `NotifySource` holds the series the notification jobs
 * look at (upcoming within the horizon, live, recently finished), the live data of live series and
 * the names cards need. One implements it: `FeedSource` (`feed-source.ts`), over the feed and the
 * name index of a running Matchday (`matchday start`: the one upstream reader for commands and
 * notifications), or over a feed and index the notifier runs itself when it is given none (a
 * notifier on its own: tests, benches). The jobs (`jobs/`) read only this interface.
 */
import type { MapNames, SeriesLabels } from '../bot/format.ts';
import type { Preview } from '../bot/preview.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series } from '../protocol/types.ts';
import type { TournamentEnd } from './tournament-reads.ts';

/** A series the notifier knows, as last read. */
export interface Known {
  series: Series;
  /** Simulated ms of the last read. */
  readAt: number;
  /** The first start seen (by any process: kept in the ledger); a later difference means it moved. */
  firstStart: string | null;
}

/** What a live card shows of a series: its matches and the live summary of its current game. */
export interface LiveData {
  matches?: Match[];
  summary?: LiveSummary;
  /** The series is over and `matches` are its final ones (read once, for the frozen card). */
  final?: boolean;
}

/** What the jobs tell the source before it reads. */
export interface ReadHints {
  /** A reminder of this series falls due within the next live interval: the series is re-checked fresh. */
  reminderDueSoon(series: Series): boolean;
}

/** What changed in one read. */
export interface ReadResult {
  /** Series seen for the first time by this process (their first start is looked up in the ledger). */
  newlyKnown: Known[];
  /** Series dropped from the picture (long over): their in-memory marks can go. */
  forgotten: number[];
}

export interface NotifySource {
  /**
   * False while the picture may lack series (the feed's first walk of the schedule is under way):
   * the notifier then waits, since a digest or a look-back built from half a schedule would be wrong.
   */
  readonly complete: boolean;
  /** Brings the picture up to `now` (reads, or looks at what the feed holds). */
  read(now: number, hints: ReadHints): Promise<ReadResult>;
  /** Every series the jobs look at. */
  known(): IterableIterator<Known>;
  /** Names for cards (teams by roster, tournaments, stages, games). */
  readonly labels: SeriesLabels;
  readonly mapName: MapNames;
  /** The team of a roster: its id, -1 when the service does not know it, undefined before it was read. */
  teamOfRoster(rosterId: number): number | undefined;
  caster(id: number): Caster | undefined;
  liveData(seriesId: number): LiveData | undefined;
  /** The maps and summaries of live series, those with cards (`wanted`) first. */
  readLive(live: Known[], wanted: Known[], now: number): Promise<void>;
  /** The casters (streams' online state) of series with live cards, every few minutes. */
  refreshStreams(wanted: Known[], now: number): Promise<void>;
  /** The final matches of series that ended with a card to freeze. */
  readFinal(ids: number[]): Promise<void>;
  /**
   * Finished series (over or forfeited) that ended in (from, to], newest first, with their rosters'
   * teams known: read once, for the look-back after downtime (`jobs/downtime.ts`).
   */
  pastSeries(from: number, to: number): Promise<Series[]>;
  /**
   * Series deleted in (from, to] that were to start after `from`: read once, for the look-back
   * after downtime (their reminders are logged as dropped; no listing shows them any more).
   */
  removedSeries(from: number, to: number): Promise<Series[]>;
  /**
   * A match preview of `series` (form, head-to-head, what is at stake) for its first reminder:
   * from the feed where it holds the answer, else a few reads. Rejects when it cannot be read.
   */
  preview(series: Series): Promise<Preview>;
  /**
   * The end of `series`' tournament (outcome, prizes, when its last series ended) when `series` is
   * in the tournament's final substage and that substage is decided; else null. The names of the
   * teams placed are loaded. A few reads (`tournament-reads.ts`); rejects when they fail.
   */
  tournamentEnd(series: Series): Promise<TournamentEnd | null>;
}
