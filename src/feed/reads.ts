/**
 * Every upstream read the feed makes, each at background priority and counted in `stats.reads`,
 * and what it takes into the picture (`FeedState`): the live listing with its matches, summaries
 * and casters; the re-reads of known series by band; the standings of due substages; the pages of
 * the window walk. A read that fails is logged and leaves the picture as it was, unless said.
 */
import type { CallOptions, EsportsClient } from '../client/types.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Match, Series } from '../protocol/types.ts';
import { POLL_INTERVAL_MS, pollBand } from './poll-band.ts';
import type { FeedState, LiveData } from './state.ts';

/** The slice of the data client the feed reads. */
export type FeedClient = Pick<EsportsClient, 'series' | 'matches' | 'casters' | 'substages'>;

export interface FeedLogger {
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

interface FeedReadsOptions {
  client: FeedClient;
  state: FeedState;
  /** Where each read is counted. */
  stats: { reads: number };
  logger: FeedLogger | undefined;
  /** Most live summaries read per live read. */
  summariesPerRead: number;
}

/** A live summary to read: the current game of a live series, from its source. */
interface SummaryRead {
  data: LiveData;
  source: 'cv' | 'api';
  matchId: number;
}

const BACKGROUND: CallOptions = { priority: 'background' };

/** Where a series' live summary comes from: computer vision first, then the API source (as `/live` asks). */
export function summarySource(series: Series): 'cv' | 'api' | undefined {
  const live = series.coverage?.data?.live;
  const has = (leaf: { fact: string; expectation: string } | undefined) =>
    leaf !== undefined &&
    (leaf.fact === 'available' ||
      leaf.fact === 'partial' ||
      leaf.expectation === 'available' ||
      leaf.expectation === 'partial');
  return has(live?.cv) ? 'cv' : has(live?.api) ? 'api' : undefined;
}

/**
 * Takes a live summary of a match into its series' live data: the one path for a polled summary and
 * a pushed one. One older than the summary held for the same match (a lower
 * `latest_states_channel_index`) is dropped: a REST answer from the client's cache never undoes a
 * newer pushed state, nor a late push a newer REST one. `summary` undefined: the service has none
 * (a 404). Answers whether it was taken.
 */
export function takeSummary(
  data: LiveData,
  source: 'cv' | 'api',
  matchId: number,
  summary: LiveSummary | undefined,
  now: number,
  pushed: boolean,
): boolean {
  const key = `${source}:${matchId}`;
  const held = data.summaryKey === key ? data.summary : undefined;
  const heldIndex = held?.latest_states_channel_index;
  const newIndex = summary?.latest_states_channel_index;
  if (heldIndex !== undefined && newIndex !== undefined && newIndex < heldIndex) return false;
  if (held && !summary && pushed) return false;
  data.summary = summary;
  data.summaryKey = key;
  data.summaryAt = now;
  data.pushed = pushed;
  return true;
}

export class FeedReads {
  readonly #o: FeedReadsOptions;

  constructor(options: FeedReadsOptions) {
    this.#o = options;
  }

  /** Counts one read (a call, one or more requests) and runs it. */
  async read<T>(work: () => Promise<T>): Promise<T> {
    this.#o.stats.reads++;
    return work();
  }

  /** These series (one batched read); those not found are missing from the answer. Throws when the read fails. */
  seriesByIds(ids: number[]): Promise<Series[]> {
    return this.read(() => this.#o.client.series.getMany(ids, BACKGROUND));
  }

  /** The matches of these series, in order (one paged read). Throws when the read fails. */
  async matchesOf(seriesIds: number[]): Promise<Match[]> {
    const matches: Match[] = [];
    await this.read(async () => {
      for await (const m of this.#o.client.matches.paginate(
        { filter: [['series.id', '<=', seriesIds]], order: 'order-asc' },
        { ...BACKGROUND, limit: 50 * Math.ceil(seriesIds.length / 10) },
      ))
        matches.push(m);
    });
    return matches;
  }

  /** One page of upcoming series by start, for the window walk. Throws when the read fails. */
  upcomingPage(skip: number, take: number): Promise<Series[]> {
    return this.read(() =>
      this.#o.client.series.list(
        { filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc', skip, take },
        BACKGROUND,
      ),
    );
  }

  /** One page of finished series, the latest ended first, for the window walk. Throws when the read fails. */
  finishedPage(skip: number, take: number): Promise<Series[]> {
    return this.read(() =>
      this.#o.client.series.list(
        { filter: [['lifecycle', '<=', ['over', 'over-forfeited']]], order: 'end-desc', skip, take },
        BACKGROUND,
      ),
    );
  }

  // ---- the live listing and its details --------------------------------------------------------

  /**
   * The live listing, when its band says so (or `force`); with `details`, the live series' matches, summaries
   * and casters too. Series held as live that left the listing are re-read at the next pass.
   */
  async live(now: number, details: boolean, skipPushed = false, force = false): Promise<void> {
    const state = this.#o.state;
    if (!force && now - state.liveAt < state.liveEvery(now)) return;
    const live: Series[] = [];
    try {
      await this.read(async () => {
        for await (const s of this.#o.client.series.paginate(
          { filter: [['lifecycle', '=', 'live']], order: 'start-asc' },
          { ...BACKGROUND, limit: 500 },
        ))
          live.push(s);
      });
    } catch (error) {
      this.#o.logger?.warn({ err: error }, 'live series could not be read; the feed keeps its last picture');
      return;
    }
    const ids = new Set(live.map((s) => s.id));
    for (const s of live) state.remember(s, now);
    // Series held as live that left the listing ended (or vanished briefly): re-read them.
    for (const [id, k] of state.series)
      if (k.series.lifecycle === 'live' && !ids.has(id)) {
        k.readAt = Number.NEGATIVE_INFINITY;
        state.live.delete(id);
      }
    state.liveAt = now;
    state.dirty.live = true;
    if (details) await this.#liveDetails(live, now, skipPushed);
  }

  /**
   * Every live series' matches (one paged read) and the summary of each current game, at most
   * `summariesPerRead` per read, least recently read first; the casters of live series (streams go
   * online and gain viewers while they play). With `skipPushed` (push is up), a summary push
   * delivered for the current game is not read again.
   */
  async #liveDetails(live: Series[], now: number, skipPushed: boolean): Promise<void> {
    if (live.length === 0) return;
    let matches: Match[];
    try {
      matches = await this.matchesOf(live.map((s) => s.id));
    } catch (error) {
      this.#o.logger?.warn({ err: error }, 'live matches could not be read');
      return;
    }
    const reads = live
      .flatMap((s) => this.#takeLiveMatches(s, matches))
      .filter((r) => !(skipPushed && r.data.pushed && r.data.summaryKey === `${r.source}:${r.matchId}`));
    await this.#readSummaries(reads, now);
    const casterIds = [...new Set(live.flatMap((s) => s.casters.map((c) => c.caster.id)))];
    await this.casters(casterIds);
  }

  /** Holds a live series' matches; answers the summary its current game needs, if it has a source. */
  #takeLiveMatches(s: Series, matches: Match[]): SummaryRead[] {
    const own = matches.filter((m) => m.series.id === s.id);
    const previous = this.#o.state.live.get(s.id);
    const data: LiveData = { matches: own };
    const current = own.find((m) => m.lifecycle === 'live');
    const source = summarySource(s);
    const reads: SummaryRead[] = [];
    if (current && source) {
      const key = `${source}:${current.id}`;
      // Until it is read again, a summary holds while its game is the one being played.
      if (previous?.summaryKey === key && previous.summary) {
        data.summary = previous.summary;
        data.summaryKey = key;
        data.summaryAt = previous.summaryAt ?? Number.NEGATIVE_INFINITY;
        if (previous.pushed) data.pushed = true;
      }
      reads.push({ data, source, matchId: current.id });
    }
    this.#o.state.live.set(s.id, data);
    return reads;
  }

  /** At most `summariesPerRead` summaries, least recently read first; a game without one keeps none. */
  async #readSummaries(reads: SummaryRead[], now: number): Promise<void> {
    reads.sort(
      (a, b) =>
        (a.data.summaryAt ?? Number.NEGATIVE_INFINITY) - (b.data.summaryAt ?? Number.NEGATIVE_INFINITY),
    );
    const picked = reads.slice(0, this.#o.summariesPerRead);
    await Promise.all(
      picked.map(async ({ data, source, matchId }) => {
        try {
          const summary = await this.read<LiveSummary>(() =>
            source === 'cv'
              ? this.#o.client.matches.liveCv(matchId, BACKGROUND)
              : this.#o.client.matches.liveApi(matchId, BACKGROUND),
          );
          takeSummary(data, source, matchId, summary, now, false);
        } catch (error) {
          // No summary yet for this game (404): held as none, so the card shows the map score.
          const status = (error as { status?: unknown } | null)?.status;
          if (status === 404 || status === 410) takeSummary(data, source, matchId, undefined, now, false);
        }
      }),
    );
  }

  /** These casters with their streams (one batched read). */
  async casters(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      const found = await this.read(() => this.#o.client.casters.getMany(ids, BACKGROUND));
      for (const c of found) this.#o.state.casters.set(c.id, c);
      this.#o.state.dirty.details = true;
    } catch (error) {
      this.#o.logger?.warn({ err: error }, 'casters could not be read');
    }
  }

  // ---- adaptive re-reads and standings ----------------------------------------------------------

  /** Each known series at its band's pace (one batched read): moved, started, finished or deleted. */
  async rereads(now: number): Promise<void> {
    const stale: number[] = [];
    for (const [id, k] of this.#o.state.series) {
      if (k.series.lifecycle === 'deleted') continue;
      const band = pollBand(k.series, now);
      const every = band === 'far' ? Number.POSITIVE_INFINITY : POLL_INTERVAL_MS[band];
      if (now - k.readAt >= every) stale.push(id);
    }
    if (stale.length === 0) return;
    let fresh: Series[];
    try {
      fresh = await this.seriesByIds(stale);
    } catch (error) {
      this.#o.logger?.warn({ err: error, count: stale.length }, 'series could not be re-read');
      return;
    }
    this.#o.state.applyRereads(stale, fresh, now);
  }

  /** Standings of the substages whose series are live or just finished (one batched read). */
  async dueSubstages(now: number): Promise<void> {
    const due = [...this.#o.state.substagesDue];
    if (due.length === 0) return;
    this.#o.state.substagesDue.clear();
    await this.substages(due, now);
  }

  /** These substages with their standings (one batched read); on failure they stay due. */
  async substages(ids: number[], now: number): Promise<void> {
    const state = this.#o.state;
    try {
      const found = await this.read(() => this.#o.client.substages.getMany(ids, BACKGROUND));
      for (const s of found) state.substages.set(s.id, { substage: s, readAt: now });
      state.dirty.details = true;
    } catch (error) {
      for (const id of ids) state.substagesDue.add(id);
      this.#o.logger?.warn({ err: error }, 'substages could not be read');
    }
  }
}
