/**
 * The notifier's own reader, for a notifier that runs without a feed (tests, benches): it reads the
 * whole window once per tick, shared by all tenants, adaptively: the upcoming window every
 * 30 minutes, near series every 5 minutes, imminent ones every minute, live ones every 10 s, and
 * every series a reminder is about to go out for, fresh (batched `getMany`); the reads do not depend
 * on what the tenants subscribe to (live summaries too: every live series, at most a fixed number per
 * read, those someone receives cards for first). With a feed running, `FeedSource` replaces it.
 */

import { type Preview, readPreview } from '../bot/preview.ts';
import type { CallOptions, EsportsClient, Where } from '../client/types.ts';
import { summarySource } from '../feed/reads.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Match, Series } from '../protocol/types.ts';
import { createReads } from '../reads/reads.ts';
import { runLimited } from './dispatcher.ts';
import type { NotifierStats, NotifyLogger } from './jobs/context.ts';
import { ClientLabels } from './labels.ts';
import { POLL_INTERVAL_MS, pollBand } from './plan.ts';
import type { Known, LiveData, NotifySource, ReadHints, ReadResult } from './source.ts';
import { type TournamentEnd, TournamentReads } from './tournament-reads.ts';

/** The slice of the data client the notifier reads. */
export type NotifyClient = Pick<
  EsportsClient,
  'series' | 'matches' | 'rosters' | 'teams' | 'tournaments' | 'casters' | 'games' | 'substages' | 'maps'
>;

export interface ClientSourceOptions {
  client: NotifyClient;
  logger: NotifyLogger;
  stats: NotifierStats;
  /** How far ahead the upcoming window reaches (simulated ms). */
  horizonMs: number;
  /** Most series read per window scan. */
  scanLimit: number;
  /** Finished series read back this far (simulated ms): their results are still announced. */
  resultsLateWindowMs: number;
  /** Most live summaries read per live read. */
  summariesPerRead: number;
}

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

/** How often the streams of series with live cards are read again (online state, viewers). */
const STREAMS_REFRESH_MS = 5 * 60_000;
const HOUR = 3600_000;

interface ClientLiveData extends LiveData {
  /** The match the summary belongs to, and when (simulated ms) it was read. */
  summaryOf?: number;
  summaryAt?: number;
}

export class ClientSource implements NotifySource {
  readonly #o: ClientSourceOptions;
  readonly #names: ClientLabels;
  /** Each read lists what it needs from the service itself. */
  readonly complete = true;
  readonly #known = new Map<number, Known>();
  #newlyKnown: Known[] = [];
  #forgotten: number[] = [];
  #scanAt = Number.NEGATIVE_INFINITY;
  #liveAt = Number.NEGATIVE_INFINITY;
  /** When the casters of live series were last read (their streams' state). */
  #streamsReadAt = Number.NEGATIVE_INFINITY;
  /** The live listing read whose maps and summaries were read (once per listing read). */
  #liveDataAt = Number.NEGATIVE_INFINITY;
  readonly #live = new Map<number, ClientLiveData>();
  readonly #tournaments: TournamentReads;

  constructor(options: ClientSourceOptions) {
    this.#o = options;
    this.#names = new ClientLabels(options.client, () => this.#counted());
    this.#tournaments = new TournamentReads(
      options.client,
      (list, rosters) => this.#names.load(list, rosters),
      () => this.#counted(),
    );
  }

  get labels() {
    return this.#names.labels;
  }

  readonly mapName = (id: number): string | undefined => this.#names.mapName(id);

  teamOfRoster(rosterId: number): number | undefined {
    return this.#names.teamOfRoster(rosterId);
  }

  caster(id: number) {
    return this.#names.caster(id);
  }

  known(): IterableIterator<Known> {
    return this.#known.values();
  }

  preview(series: Series): Promise<Preview> {
    return readPreview(
      series,
      createReads(this.#o.client, undefined, { onRead: () => this.#o.stats.previewReads++ }),
      this.#names.previewLabels,
      (list) => this.#names.load(list),
    );
  }

  tournamentEnd(series: Series): Promise<TournamentEnd | null> {
    return this.#tournaments.read(series);
  }

  liveData(seriesId: number): LiveData | undefined {
    return this.#live.get(seriesId);
  }

  async pastSeries(from: number, to: number): Promise<Series[]> {
    this.#counted();
    const found = await readEnded(this.#o.client, from, to);
    await this.#names.load(found);
    return found;
  }

  async removedSeries(from: number, to: number): Promise<Series[]> {
    this.#counted();
    return readRemoved(this.#o.client, from, to);
  }

  #counted(): void {
    this.#o.stats.reads++;
  }

  #remember(series: Series, now: number): void {
    const known = this.#known.get(series.id);
    if (known) {
      known.series = series;
      known.readAt = now;
    } else {
      const fresh: Known = { series, readAt: now, firstStart: series.start };
      this.#known.set(series.id, fresh);
      this.#newlyKnown.push(fresh);
    }
  }

  async read(now: number, hints: ReadHints): Promise<ReadResult> {
    await this.#scan(now);
    await this.#readLiveListing(now);
    await this.#reread(now, hints);
    // Forget what is long gone.
    for (const [id, k] of this.#known) {
      const start = k.series.start ? Date.parse(k.series.start) : now;
      if (k.series.lifecycle !== 'live' && k.series.lifecycle !== 'upcoming' && start < now - 12 * HOUR) {
        this.#known.delete(id);
        this.#live.delete(id);
        this.#forgotten.push(id);
      }
    }
    await this.#names.load([...this.#known.values()].map((k) => k.series));
    // Handed over only after a whole read: a failed one leaves them for the next.
    const result = { newlyKnown: this.#newlyKnown, forgotten: this.#forgotten };
    this.#newlyKnown = [];
    this.#forgotten = [];
    return result;
  }

  /** The upcoming window and the recently finished series, every 30 minutes. */
  async #scan(now: number): Promise<void> {
    const client = this.#o.client;
    // The window scan reads the whole feed (every game and tier, paged), whatever the tenants want,
    // and filters in memory: its cost does not depend on how much of the dataset the union covers.
    if (now - this.#scanAt >= POLL_INTERVAL_MS.far) {
      this.#scanAt = now;
      const seen = new Set<number>();
      this.#counted();
      for await (const s of client.series.paginate(
        { filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc' },
        { ...BACKGROUND, limit: this.#o.scanLimit },
      )) {
        if (s.start !== null && Date.parse(s.start) > now + this.#o.horizonMs) break;
        seen.add(s.id);
        this.#remember(s, now);
      }
      // Recently finished series: after downtime their live cards are frozen and results posted
      // (within the late window); newest first.
      this.#counted();
      for await (const s of client.series.paginate(
        { filter: [['lifecycle', '<=', ['over', 'over-forfeited']]], order: 'end-desc' },
        { ...BACKGROUND, limit: this.#o.scanLimit },
      )) {
        const end = Date.parse(s.end ?? s.start ?? '');
        if (end < now - this.#o.resultsLateWindowMs) break;
        if (!this.#known.has(s.id)) this.#remember(s, now);
      }
      // Upcoming series that left the listing moved, went live or were removed: re-read them below.
      for (const [id, k] of this.#known)
        if (!seen.has(id) && k.series.lifecycle === 'upcoming') k.readAt = Number.NEGATIVE_INFINITY;
    }
  }

  /** The live listing (the whole feed): often while anything is live or about to start, else rarely. */
  async #readLiveListing(now: number): Promise<void> {
    let busy = false;
    for (const k of this.#known.values()) {
      const band = pollBand(k.series, now);
      if (band === 'live' || band === 'imminent') {
        busy = true;
        break;
      }
    }
    const liveEvery = busy ? POLL_INTERVAL_MS.live : POLL_INTERVAL_MS.near;
    if (now - this.#liveAt >= liveEvery) {
      this.#liveAt = now;
      const live: Series[] = [];
      this.#counted();
      for await (const s of this.#o.client.series.paginate(
        { filter: [['lifecycle', '=', 'live']] },
        { ...BACKGROUND, limit: this.#o.scanLimit },
      ))
        live.push(s);
      const liveIds = new Set(live.map((s) => s.id));
      for (const s of live) this.#remember(s, now);
      // Series we held as live that left the listing ended (or vanished briefly): re-read them.
      for (const [id, k] of this.#known)
        if (k.series.lifecycle === 'live' && !liveIds.has(id)) k.readAt = Number.NEGATIVE_INFINITY;
    }
  }

  /** Adaptive re-reads, batched: each band at its own pace, and any reminder about to go out fresh. */
  async #reread(now: number, hints: ReadHints): Promise<void> {
    const stale: number[] = [];
    for (const [id, k] of this.#known) {
      // Every known series by its band (not only those someone tracks): the same reads for any tenants.
      const band = pollBand(k.series, now);
      const every = band === 'far' ? Number.POSITIVE_INFINITY : POLL_INTERVAL_MS[band];
      const dueReminder = band !== 'live' && hints.reminderDueSoon(k.series);
      if (now - k.readAt >= every || (dueReminder && now - k.readAt >= POLL_INTERVAL_MS.live)) stale.push(id);
    }
    if (stale.length > 0) {
      this.#counted();
      const fresh = await this.#o.client.series.getMany(stale, BACKGROUND);
      const found = new Set(fresh.map((s) => s.id));
      for (const s of fresh) this.#remember(s, now);
      for (const id of stale) {
        // Not found: deleted (the listing hides soft-deleted series); stop tracking it.
        if (!found.has(id)) {
          const k = this.#known.get(id)!;
          k.series = {
            ...k.series,
            lifecycle: 'deleted',
            deleted_at: k.series.deleted_at ?? new Date(now).toISOString(),
          };
          k.readAt = now;
        }
      }
    }
  }

  /**
   * Current maps (one batched read for every live series) and each live match's summary, for every
   * live series whoever follows it: the upstream cost is the same for 1 tenant as for 10,000, and a
   * `/live` command finds the summary warm in the client's cache. At most `summariesPerRead` per
   * read (a fixed share of the budget): series someone gets live cards for first, then the least
   * recently read; a series skipped this time keeps its last summary while its map is the same.
   */
  async readLive(live: Known[], wanted: Known[], now: number): Promise<void> {
    if (live.length === 0 || now !== this.#liveAt || this.#liveDataAt === now) return;
    this.#liveDataAt = now;
    const ids = live.map((k) => k.series.id);
    const matches: Match[] = [];
    try {
      const iterable = this.#o.client.matches.paginate(
        { filter: [['series.id', '<=', ids]], order: 'order-asc' },
        { ...BACKGROUND, limit: 50 * Math.ceil(ids.length / 10) },
      );
      this.#counted();
      for await (const m of iterable) matches.push(m);
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'live matches could not be read; cards keep their last state');
      return;
    }
    await this.#names.loadMaps(matches, this.#o.logger);
    const bySeries = new Map<number, Match[]>();
    for (const m of matches) {
      const list = bySeries.get(m.series.id);
      if (list) list.push(m);
      else bySeries.set(m.series.id, [m]);
    }
    const wantedIds = new Set(wanted.map((k) => k.series.id));
    const reads: { k: Known; data: ClientLiveData; current: Match }[] = [];
    for (const k of live) {
      const own = bySeries.get(k.series.id) ?? [];
      const previous = this.#live.get(k.series.id);
      const current = own.find((m) => m.lifecycle === 'live');
      const data: ClientLiveData = { matches: own };
      // Until it is read again, a summary holds while its match is still the one being played.
      if (current && previous?.summary && previous.summaryOf === current.id) {
        data.summary = previous.summary;
        data.summaryOf = current.id;
        data.summaryAt = previous.summaryAt ?? Number.NEGATIVE_INFINITY;
      }
      this.#live.set(k.series.id, data);
      if (current) reads.push({ k, data, current });
    }
    reads.sort(
      (a, b) =>
        Number(wantedIds.has(b.k.series.id)) - Number(wantedIds.has(a.k.series.id)) ||
        (a.data.summaryAt ?? Number.NEGATIVE_INFINITY) - (b.data.summaryAt ?? Number.NEGATIVE_INFINITY),
    );
    await runLimited(
      reads.slice(0, this.#o.summariesPerRead).map(({ k, data, current }) => async () => {
        // The source `/live` and the feed read (computer vision first), so a command finds it warm.
        const useApi = summarySource(k.series) === 'api';
        this.#o.stats.summaries++;
        try {
          this.#counted();
          data.summary = (await (useApi
            ? this.#o.client.matches.liveApi(current.id, BACKGROUND)
            : this.#o.client.matches.liveCv(current.id, BACKGROUND))) as LiveSummary;
          data.summaryOf = current.id;
          data.summaryAt = now;
        } catch {
          // No summary yet (or none for this match): the card shows the map score, or the last summary.
        }
      }),
      8,
    );
  }

  /**
   * The casters of series with live cards, read again every few minutes (one batched read): their
   * streams' online state and viewers change as series go live, and a card must not say "offline"
   * from a read made before the series started.
   */
  async refreshStreams(wanted: Known[], now: number): Promise<void> {
    if (wanted.length === 0 || now - this.#streamsReadAt < STREAMS_REFRESH_MS) return;
    this.#streamsReadAt = now;
    const ids = new Set(wanted.flatMap((k) => k.series.casters.map((c) => c.caster.id)));
    if (ids.size === 0) return;
    try {
      await this.#names.readCasters([...ids]);
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'streams could not be read; live cards keep their last state');
    }
  }

  /**
   * The final matches of series that ended with a live card to freeze (one batched read): the card
   * is built from the final state (every map's result, no "Now"), not from the last read while it
   * was live. If the read fails the card is frozen without maps rather than with a stale "Now".
   */
  async readFinal(ids: number[]): Promise<void> {
    const wanted = ids.filter((id) => !this.#live.get(id)?.final);
    if (wanted.length === 0) return;
    const matches: Match[] = [];
    let read = true;
    try {
      const iterable = this.#o.client.matches.paginate(
        { filter: [['series.id', '<=', wanted]], order: 'order-asc' },
        { ...BACKGROUND, limit: 50 * Math.ceil(wanted.length / 10) },
      );
      this.#counted();
      for await (const m of iterable) matches.push(m);
    } catch (error) {
      read = false;
      this.#o.logger.warn(
        { err: error },
        'final matches could not be read; cards freeze with the maps known',
      );
    }
    for (const id of wanted) {
      const source = read ? matches.filter((m) => m.series.id === id) : (this.#live.get(id)?.matches ?? []);
      // Never a "Now" on a frozen card: a map still shown live in an old read is left out.
      this.#live.set(id, { matches: source.filter((m) => m.lifecycle !== 'live'), final: read });
    }
  }
}
