/**
 * The notifier's source over a running feed (`matchday start`): the series, live matches, live
 * summaries and casters the feed keeps fresh for commands, and the names the name index holds. The
 * feed is the one upstream reader; the notifier reads it synchronously each tick and asks it for
 * two things only when they are due: a fresh re-check of series a reminder is about to go out for
 * (`Feed.recheck`, as the reliability rules ask), and the final matches of a series whose live
 * card is being frozen (`Feed.finalMatches`).
 */
import type { MapNames, SeriesLabels } from '../bot/format.ts';
import type { NameIndex } from '../bot/names.ts';
import { type Preview, readPreview } from '../bot/preview.ts';
import type { Feed } from '../feed/feed.ts';
import { POLL_INTERVAL_MS } from '../feed/poll-band.ts';
import type { Caster, Series } from '../protocol/types.ts';
import { createReads } from '../reads/reads.ts';
import { type NotifyClient, readEnded, readRemoved } from './service-reads.ts';
import type { Known, LiveData, NotifySource, ReadHints, ReadResult } from './source.ts';
import { type TournamentEnd, TournamentReads } from './tournament-reads.ts';
import type { NotifierStats, NotifyLogger } from './types.ts';

export interface FeedSourceOptions {
  feed: Feed;
  names: NameIndex;
  /**
   * For rosters the name index lacks (rare: a roster new since its last refresh), and the few
   * reads of a first reminder's preview the feed cannot answer (form beyond its window), and of a
   * tournament's end (its stages, its final substage's series).
   */
  client: Pick<
    NotifyClient,
    'rosters' | 'teams' | 'series' | 'substages' | 'tournaments' | 'casters' | 'matches'
  >;
  logger: NotifyLogger;
  stats: NotifierStats;
  /** How far ahead upcoming series count (simulated ms). */
  horizonMs: number;
}

const HOUR = 3600_000;

export class FeedSource implements NotifySource {
  readonly #o: FeedSourceOptions;
  readonly #known = new Map<number, Known>();
  readonly #final = new Map<number, LiveData>();
  /** Rosters asked of the service once already (known or not, they are not asked again). */
  readonly #rostersAsked = new Set<number>();
  readonly #tournaments: TournamentReads;

  constructor(options: FeedSourceOptions) {
    this.#o = options;
    this.#tournaments = new TournamentReads(
      options.client,
      async (list, rosters) => {
        await options.names.ensureSeriesLabels(options.client, list);
        await options.names.ensureRosters(options.client, rosters);
      },
      () => options.stats.tournamentReads++,
    );
  }

  tournamentEnd(series: Series): Promise<TournamentEnd | null> {
    return this.#tournaments.read(series);
  }

  /** Once the feed has walked its whole window (before that, a day's digest would miss series). */
  get complete(): boolean {
    return !this.#o.feed.filling;
  }

  get labels(): SeriesLabels {
    return this.#o.names;
  }

  readonly mapName: MapNames = (id) => this.#o.names.mapName(id);

  teamOfRoster(rosterId: number): number | undefined {
    const roster = this.#o.names.roster(rosterId);
    if (roster) return roster.team;
    return this.#rostersAsked.has(rosterId) ? -1 : undefined;
  }

  caster(id: number): Caster | undefined {
    return this.#o.feed.caster(id);
  }

  known(): IterableIterator<Known> {
    return this.#known.values();
  }

  liveData(seriesId: number): LiveData | undefined {
    const final = this.#final.get(seriesId);
    if (final) return final;
    const live = this.#o.feed.liveData(seriesId);
    if (!live) return undefined;
    return { matches: live.matches, ...(live.summary ? { summary: live.summary } : {}) };
  }

  /**
   * Takes the feed's series that matter to notifications: upcoming within the horizon, live, and
   * those that started in the last 12 hours (finished, deleted); a reminder about to go out is
   * re-checked fresh first.
   */
  async read(now: number, hints: ReadHints): Promise<ReadResult> {
    const inScope = (s: Series) => {
      if (s.lifecycle === 'live') return true;
      if (s.start === null) return s.lifecycle === 'upcoming';
      const start = Date.parse(s.start);
      if (s.lifecycle === 'upcoming') return start <= now + this.#o.horizonMs;
      return start >= now - 12 * HOUR && start <= now + this.#o.horizonMs;
    };
    const due: number[] = [];
    for (const { series } of this.#o.feed.entries())
      if (series.lifecycle === 'upcoming' && inScope(series) && hints.reminderDueSoon(series))
        due.push(series.id);
    if (due.length > 0) {
      try {
        await this.#o.feed.recheck(due, POLL_INTERVAL_MS.live);
      } catch (error) {
        this.#o.logger.warn({ err: error }, 'series due for a reminder could not be re-checked');
      }
    }
    const newlyKnown: Known[] = [];
    const seen = new Set<number>();
    for (const { series, readAt } of this.#o.feed.entries()) {
      if (!inScope(series)) continue;
      seen.add(series.id);
      const known = this.#known.get(series.id);
      if (known) {
        known.series = series;
        known.readAt = readAt;
      } else {
        const fresh: Known = { series, readAt, firstStart: series.start };
        this.#known.set(series.id, fresh);
        newlyKnown.push(fresh);
      }
    }
    const forgotten: number[] = [];
    for (const id of this.#known.keys())
      if (!seen.has(id)) {
        this.#known.delete(id);
        this.#final.delete(id);
        forgotten.push(id);
      }
    await this.#ensureRosters();
    return { newlyKnown, forgotten };
  }

  /** Rosters of known series that the name index lacks: read once (one batched read), added to the index. */
  async #ensureRosters(): Promise<void> {
    const missing = new Set<number>();
    for (const { series } of this.#known.values())
      for (const p of series.participants)
        if (!this.#rostersAsked.has(p.roster.id) && !this.#o.names.roster(p.roster.id))
          missing.add(p.roster.id);
    if (missing.size === 0) return;
    for (const id of missing) this.#rostersAsked.add(id);
    try {
      this.#o.stats.reads++;
      await this.#o.names.ensureRosters(this.#o.client, [...missing]);
    } catch (error) {
      for (const id of missing) this.#rostersAsked.delete(id);
      this.#o.logger.warn({ err: error }, 'rosters could not be read; their series show TBD for now');
    }
  }

  /** Read from the service (the feed holds a window, not the whole downtime); rosters made known. */
  async pastSeries(from: number, to: number): Promise<Series[]> {
    this.#o.stats.reads++;
    const found = await readEnded(this.#o.client, from, to);
    const rosters = new Set(found.flatMap((s) => s.participants.map((p) => p.roster.id)));
    const missing = [...rosters].filter((id) => !this.#o.names.roster(id));
    if (missing.length > 0) await this.#o.names.ensureRosters(this.#o.client, missing);
    return found;
  }

  /** Read from the service: the feed no longer lists a deleted series. */
  removedSeries(from: number, to: number): Promise<Series[]> {
    this.#o.stats.reads++;
    return readRemoved(this.#o.client, from, to);
  }

  preview(series: Series): Promise<Preview> {
    const { feed, names, client, stats } = this.#o;
    return readPreview(
      series,
      createReads(client, feed, { onRead: () => stats.previewReads++ }),
      names,
      (list) => names.ensureSeriesLabels(client, list),
    );
  }

  /** The feed reads every live series' maps and summaries itself. */
  async readLive(): Promise<void> {}

  /** The feed reads the casters of live series with every live read. */
  async refreshStreams(): Promise<void> {}

  async readFinal(ids: number[]): Promise<void> {
    const wanted = ids.filter((id) => !this.#final.get(id)?.final);
    if (wanted.length === 0) return;
    try {
      const found = await this.#o.feed.finalMatches(wanted);
      for (const id of wanted)
        this.#final.set(id, {
          matches: (found.get(id) ?? []).filter((m) => m.lifecycle !== 'live'),
          final: true,
        });
    } catch (error) {
      // Frozen without a "Now": the maps known from the last live read that were over.
      this.#o.logger.warn(
        { err: error },
        'final matches could not be read; cards freeze with the maps known',
      );
      for (const id of wanted)
        this.#final.set(id, {
          matches: (this.#o.feed.liveMatches(id) ?? []).filter((m) => m.lifecycle !== 'live'),
          final: false,
        });
    }
  }
}
