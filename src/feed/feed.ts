/**
 * The feed: one in-memory picture of the service's window, shared by every command (and meant for
 * the notifier): the window's series, the live series with their matches and live summaries, the
 * casters of windowed series and the substages (standings) of windowed tournaments. Commands read
 * it synchronously (`series`, `liveMatches`, `liveSummary`, `casters`, `substage`) and send no
 * upstream request for what it holds; what it does not hold they ask the client for, as before.
 *
 * One poller keeps it fresh with the notifier's adaptive bands (`pollBand` in notify/plan.ts):
 * the live listing every 10 s while anything is live or imminent, series starting within 15 minutes
 * re-read every minute, within 3 hours every 5 minutes, and the whole window scanned every 30
 * minutes (upcoming by start, then finished by end). On start it loads its snapshot from the store,
 * then refreshes in priority order: live first, then the next hours (the upcoming walk is in start
 * order), then the rest of the window. Until the first scan is complete `filling` is true and
 * commands say so.
 *
 * Several processes on one store share one refresher: a lease (`SnapshotStore.lease`) decides who
 * polls; the others load the snapshot parts that are newer than theirs. `mode: 'reader'` (used by
 * `matchday ask`) never scans: it loads the snapshot and reads only the live listing when it is stale
 * and nobody else is refreshing it.
 */
import { randomUUID } from 'node:crypto';
import type { CallOptions, EsportsClient } from '../client/types.ts';
import type { Clock } from '../core/clock.ts';
import { POLL_INTERVAL_MS, pollBand } from '../notify/plan.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series, Substage } from '../protocol/types.ts';
import { answer, type Coverage, type SeriesAnswer, type SeriesWanted } from './query.ts';
import type { SnapshotStore } from './store.ts';

/** The slice of the data client the feed reads. */
type FeedClient = Pick<EsportsClient, 'series' | 'matches' | 'casters' | 'substages'>;

interface FeedLogger {
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

interface FeedOptions {
  client: FeedClient;
  clock: Clock;
  logger?: FeedLogger;
  /** Where the snapshot and the refresher's lease live; none: this process alone, nothing kept. */
  store?: SnapshotStore;
  /** This process's name in leases. Default: a random id. */
  owner?: string;
  /** 'poller' keeps everything fresh; 'reader' loads the snapshot and refreshes only a stale live listing. */
  mode?: 'poller' | 'reader';
  /** Real ms between poller ticks. Default 10 000. */
  tickMs?: number;
  /** How far ahead the upcoming walk reads (simulated ms). Default: the whole window. */
  horizonMs?: number;
  /** How far back the finished walk reads (simulated ms). Default: the whole window. */
  pastMs?: number;
  /** Most live summaries read per live read. Default 20 (about 2 requests/s). */
  summariesPerRead?: number;
  /** Real ms between two writes of the (large) window snapshot while only re-reads change it. Default 60 000. */
  saveEveryMs?: number;
}

/** A live series' matches and the live summary of its current game. */
export interface LiveData {
  matches: Match[];
  summary?: LiveSummary;
  /** `cv:<match id>` or `api:<match id>`: which summary it is. */
  summaryKey?: string;
  summaryAt?: number;
}

interface Known {
  series: Series;
  /** Simulated ms of the read. */
  readAt: number;
}

interface FeedStats {
  ticks: number;
  /** Upstream reads started by the feed (calls, each one or more requests). */
  reads: number;
  scans: number;
  /** Snapshot parts loaded from the store / written to it. */
  loads: number;
  saves: number;
  /** Ticks in which another process held the refresher's lease. */
  followed: number;
}

const BACKGROUND: CallOptions = { priority: 'background' };
const LEASE_KEY = 'lease';
const PARTS = ['live', 'window', 'details'] as const;
type Part = (typeof PARTS)[number];

/** JSON has no Infinity: the edges of coverage are stored as null. */
const edge = (n: number): number | null => (Number.isFinite(n) ? n : null);
const unedge = (n: number | null, infinite: number): number => (n === null ? infinite : n);

export class Feed {
  readonly stats: FeedStats = { ticks: 0, reads: 0, scans: 0, loads: 0, saves: 0, followed: 0 };
  readonly #o: Required<Omit<FeedOptions, 'store' | 'logger'>> & Pick<FeedOptions, 'store' | 'logger'>;

  readonly #series = new Map<number, Known>();
  readonly #live = new Map<number, LiveData>();
  readonly #casters = new Map<number, Caster>();
  /** Final matches of ended series, read when asked (`finalMatches`), with when (simulated ms). */
  readonly #final = new Map<number, { matches: Match[]; at: number }>();
  readonly #substages = new Map<number, { substage: Substage; readAt: number }>();
  /** Substages whose standings may have changed (a series of theirs is live or just finished). */
  readonly #substagesDue = new Set<number>();
  #liveAt = Number.NEGATIVE_INFINITY;
  #upcomingUntil = Number.NEGATIVE_INFINITY;
  #finishedFrom = Number.POSITIVE_INFINITY;
  #scanAt = Number.NEGATIVE_INFINITY;
  #scanned = false;

  #scanning: Promise<void> | undefined;
  #ticking: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #holder = false;
  /** Set by `stop()`: a scan under way ends at its next series. */
  #stopping = false;
  /** Per part: the instant of the newest document loaded or written, and whether memory is newer. */
  readonly #partAt: Record<Part, number> = { live: -1, window: -1, details: -1 };
  readonly #dirty: Record<Part, boolean> = { live: false, window: false, details: false };
  #windowSavedAt = Number.NEGATIVE_INFINITY;

  constructor(options: FeedOptions) {
    this.#o = {
      owner: randomUUID(),
      mode: 'poller',
      tickMs: 10_000,
      horizonMs: Number.POSITIVE_INFINITY,
      pastMs: Number.POSITIVE_INFINITY,
      summariesPerRead: 20,
      saveEveryMs: 60_000,
      ...options,
    };
  }

  // ---- reading (synchronous, for commands) ----------------------------------------------------

  /** True until the first scan of the whole window is complete: answers may miss series. */
  get filling(): boolean {
    return !this.#scanned;
  }

  /** True once the live listing has been read (or loaded): the feed can answer something. */
  get ready(): boolean {
    return Number.isFinite(this.#liveAt);
  }

  /** When the live listing was last read successfully (service clock ms; by this or another process), if ever. */
  get lastLiveReadAt(): number | undefined {
    return Number.isFinite(this.#liveAt) ? this.#liveAt : undefined;
  }

  coverage(): Coverage {
    return { live: this.ready, upcomingUntil: this.#upcomingUntil, finishedFrom: this.#finishedFrom };
  }

  /** The series the service would list for `q`, or undefined before anything was read. */
  series(q: SeriesWanted): SeriesAnswer | undefined {
    if (!this.ready) return undefined;
    return answer(
      (function* (map) {
        for (const k of map.values()) yield k.series;
      })(this.#series),
      q,
      this.coverage(),
    );
  }

  /** One series as last read, if the feed holds it. */
  seriesById(id: number): Series | undefined {
    const s = this.#series.get(id)?.series;
    return s && s.lifecycle !== 'deleted' ? s : undefined;
  }

  /** Every series held, deleted ones included, with the instant (simulated ms) of its last read (the notifier's source). */
  *entries(): IterableIterator<{ readonly series: Series; readonly readAt: number }> {
    yield* this.#series.values();
  }

  /** A live series' matches and current summary (as of the last live read), if the feed read them. */
  liveData(seriesId: number): LiveData | undefined {
    return this.#live.get(seriesId);
  }

  /** One caster (with its streams), if the feed holds it. */
  caster(id: number): Caster | undefined {
    return this.#casters.get(id);
  }

  /**
   * Re-reads these series unless read within `maxAgeMs` (one batched read): the check before a
   * reminder goes out (a moved, postponed or deleted series gets no reminder for its old start).
   */
  async recheck(ids: readonly number[], maxAgeMs: number): Promise<void> {
    const now = this.#o.clock.nowMs();
    const stale = ids.filter((id) => {
      const k = this.#series.get(id);
      return k !== undefined && now - k.readAt >= maxAgeMs;
    });
    if (stale.length === 0) return;
    const fresh = await this.#read(() => this.#o.client.series.getMany(stale, BACKGROUND));
    this.#applyRereads(stale, fresh, now);
  }

  /**
   * The final matches of series that ended (one batched read for those not read yet; kept for
   * 12 hours): a frozen live card shows every map's result, never the last "Now".
   */
  async finalMatches(ids: readonly number[]): Promise<Map<number, Match[]>> {
    const now = this.#o.clock.nowMs();
    for (const [id, f] of this.#final) if (now - f.at > 12 * 3600_000) this.#final.delete(id);
    const wanted = ids.filter((id) => !this.#final.has(id));
    if (wanted.length > 0) {
      const matches: Match[] = [];
      await this.#read(async () => {
        for await (const m of this.#o.client.matches.paginate(
          { filter: [['series.id', '<=', wanted]], order: 'order-asc' },
          { ...BACKGROUND, limit: 50 * Math.ceil(wanted.length / 10) },
        ))
          matches.push(m);
      });
      for (const id of wanted)
        this.#final.set(id, { matches: matches.filter((m) => m.series.id === id), at: now });
    }
    return new Map(
      ids.flatMap((id) => {
        const f = this.#final.get(id);
        return f ? [[id, f.matches] as const] : [];
      }),
    );
  }

  /** The matches of a live series (as of the last live read), if the feed read them. */
  liveMatches(seriesId: number): Match[] | undefined {
    return this.#live.get(seriesId)?.matches;
  }

  /** The live summary of a match from a source, if the feed read it. */
  liveSummary(source: 'cv' | 'api', matchId: number): LiveSummary | undefined {
    for (const data of this.#live.values())
      if (data.summaryKey === `${source}:${matchId}`) return data.summary;
    return undefined;
  }

  /** These casters (with their streams), or undefined when the feed lacks any of them. */
  casters(ids: readonly number[]): Caster[] | undefined {
    const found: Caster[] = [];
    for (const id of ids) {
      const c = this.#casters.get(id);
      if (!c) return undefined;
      found.push(c);
    }
    return found;
  }

  /** A substage with its standings, if it belongs to a windowed tournament the feed read. */
  substage(id: number): Substage | undefined {
    return this.#substages.get(id)?.substage;
  }

  sizes(): Record<string, number> {
    return {
      series: this.#series.size,
      live: this.#live.size,
      casters: this.#casters.size,
      substages: this.#substages.size,
    };
  }

  // ---- running ----------------------------------------------------------------------------------

  /**
   * Loads the snapshot, refreshes what is stale (live first; the scan runs in the background) and
   * polls every `tickMs` until `stop()`. The timer never keeps the process alive.
   */
  async start(): Promise<void> {
    if (this.#stopping) return;
    await this.load();
    if (this.#stopping) return;
    await this.#fast();
    if (this.#o.mode === 'poller') {
      this.#scanIfDue();
      this.#timer = setInterval(() => {
        this.#fast()
          .then(() => this.#scanIfDue())
          .catch((error: unknown) => this.#o.logger?.warn({ err: error }, 'feed tick failed'));
      }, this.#o.tickMs);
      this.#timer.unref();
    }
  }

  /** Stops polling, writes what changed and gives the lease up. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking?.catch(() => undefined);
    await this.#scanning?.catch(() => undefined);
    if (this.#o.store && this.#holder) {
      await this.#save(true).catch((error: unknown) =>
        this.#o.logger?.warn({ err: error }, 'feed snapshot could not be written'),
      );
      await this.#o.store.release(LEASE_KEY, this.#o.owner).catch(() => undefined);
      this.#holder = false;
    }
  }

  /** One whole refresh pass at the clock's now, the scan included when due (tests, benches). */
  async tick(): Promise<void> {
    await this.#fast();
    this.#scanIfDue();
    await this.#scanning;
    if (this.#holder) await this.#save(false);
  }

  /** Loads every snapshot part newer than what this process holds. */
  async load(): Promise<void> {
    const store = this.#o.store;
    if (!store || this.#stopping) return;
    for (const part of PARTS) {
      try {
        const doc = await store.read(`feed:${part}`, this.#partAt[part]);
        if (!doc) continue;
        this.#restore(part, JSON.parse(doc.value));
        this.#partAt[part] = doc.at;
        this.stats.loads++;
      } catch (error) {
        this.#o.logger?.warn({ err: error, part }, 'feed snapshot could not be loaded; reading afresh');
      }
    }
  }

  /** The live listing, re-reads by band, live details: a few requests at most; never the scan. */
  #fast(): Promise<void> {
    this.#ticking ??= this.#fastOnce().finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #fastOnce(): Promise<void> {
    this.stats.ticks++;
    const now = this.#o.clock.nowMs();
    const store = this.#o.store;
    if (store) {
      const mustRead = this.#o.mode === 'poller' || now - this.#liveAt >= this.#liveEvery(now);
      if (this.#o.mode === 'reader' && !mustRead) return;
      this.#holder = await store
        .lease(LEASE_KEY, this.#o.owner, Math.max(3 * this.#o.tickMs, 30_000))
        .catch(() => false);
      if (!this.#holder) {
        // Someone else refreshes: take what they wrote.
        this.stats.followed++;
        await this.load();
        return;
      }
      // Just won the lease: another process may have written since this one last looked.
      await this.load();
    }
    await this.#refreshLive(now);
    if (this.#o.mode === 'reader') {
      if (this.#holder) await this.#save(false);
      return;
    }
    await this.#rereads(now);
    await this.#details(now);
    if (this.#holder) await this.#save(false);
  }

  #liveEvery(now: number): number {
    for (const k of this.#series.values()) {
      const band = pollBand(k.series, now);
      if (band === 'live' || band === 'imminent') return POLL_INTERVAL_MS.live;
    }
    return this.ready ? POLL_INTERVAL_MS.near : 0;
  }

  #remember(series: Series, now: number): void {
    const known = this.#series.get(series.id);
    if (known && known.readAt > now) return;
    const finished = series.lifecycle === 'over' || series.lifecycle === 'over-forfeited';
    if (series.lifecycle === 'live' || (finished && known && known.series.lifecycle !== series.lifecycle))
      this.#substagesDue.add(series.substage.id);
    this.#series.set(series.id, { series, readAt: now });
  }

  async #read<T>(work: () => Promise<T>): Promise<T> {
    this.stats.reads++;
    return work();
  }

  // ---- the live listing and its details --------------------------------------------------------

  async #refreshLive(now: number): Promise<void> {
    if (now - this.#liveAt < this.#liveEvery(now)) return;
    const live: Series[] = [];
    try {
      await this.#read(async () => {
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
    for (const s of live) this.#remember(s, now);
    // Series held as live that left the listing ended (or vanished briefly): re-read them.
    for (const [id, k] of this.#series)
      if (k.series.lifecycle === 'live' && !ids.has(id)) {
        k.readAt = Number.NEGATIVE_INFINITY;
        this.#live.delete(id);
      }
    this.#liveAt = now;
    this.#dirty.live = true;
    if (this.#o.mode === 'poller') await this.#readLiveDetails(live, now);
  }

  /**
   * Every live series' matches (one paged read) and the summary of each current game, at most
   * `summariesPerRead` per read, least recently read first; the casters of live series (streams go
   * online and gain viewers while they play).
   */
  async #readLiveDetails(live: Series[], now: number): Promise<void> {
    if (live.length === 0) return;
    const matches: Match[] = [];
    try {
      await this.#read(async () => {
        for await (const m of this.#o.client.matches.paginate(
          { filter: [['series.id', '<=', live.map((s) => s.id)]], order: 'order-asc' },
          { ...BACKGROUND, limit: 50 * Math.ceil(live.length / 10) },
        ))
          matches.push(m);
      });
    } catch (error) {
      this.#o.logger?.warn({ err: error }, 'live matches could not be read');
      return;
    }
    const reads: { data: LiveData; source: 'cv' | 'api'; matchId: number }[] = [];
    for (const s of live) {
      const own = matches.filter((m) => m.series.id === s.id);
      const previous = this.#live.get(s.id);
      const data: LiveData = { matches: own };
      const current = own.find((m) => m.lifecycle === 'live');
      const source = summarySource(s);
      if (current && source) {
        const key = `${source}:${current.id}`;
        // Until it is read again, a summary holds while its game is the one being played.
        if (previous?.summaryKey === key && previous.summary) {
          data.summary = previous.summary;
          data.summaryKey = key;
          data.summaryAt = previous.summaryAt ?? Number.NEGATIVE_INFINITY;
        }
        reads.push({ data, source, matchId: current.id });
      }
      this.#live.set(s.id, data);
    }
    reads.sort(
      (a, b) =>
        (a.data.summaryAt ?? Number.NEGATIVE_INFINITY) - (b.data.summaryAt ?? Number.NEGATIVE_INFINITY),
    );
    const picked = reads.slice(0, this.#o.summariesPerRead);
    await Promise.all(
      picked.map(async ({ data, source, matchId }) => {
        try {
          data.summary = await this.#read<LiveSummary>(() =>
            source === 'cv'
              ? this.#o.client.matches.liveCv(matchId, BACKGROUND)
              : this.#o.client.matches.liveApi(matchId, BACKGROUND),
          );
          data.summaryKey = `${source}:${matchId}`;
          data.summaryAt = now;
        } catch {
          // No summary yet for this game: the card shows the map score.
        }
      }),
    );
    const casterIds = [...new Set(live.flatMap((s) => s.casters.map((c) => c.caster.id)))];
    await this.#readCasters(casterIds);
  }

  async #readCasters(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      const found = await this.#read(() => this.#o.client.casters.getMany(ids, BACKGROUND));
      for (const c of found) this.#casters.set(c.id, c);
      this.#dirty.details = true;
    } catch (error) {
      this.#o.logger?.warn({ err: error }, 'casters could not be read');
    }
  }

  // ---- adaptive re-reads and details -------------------------------------------------------------

  /** Each known series at its band's pace (one batched read): moved, started, finished or deleted. */
  async #rereads(now: number): Promise<void> {
    const stale: number[] = [];
    for (const [id, k] of this.#series) {
      if (k.series.lifecycle === 'deleted') continue;
      const band = pollBand(k.series, now);
      const every = band === 'far' ? Number.POSITIVE_INFINITY : POLL_INTERVAL_MS[band];
      if (now - k.readAt >= every) stale.push(id);
    }
    if (stale.length === 0) return;
    let fresh: Series[];
    try {
      fresh = await this.#read(() => this.#o.client.series.getMany(stale, BACKGROUND));
    } catch (error) {
      this.#o.logger?.warn({ err: error, count: stale.length }, 'series could not be re-read');
      return;
    }
    this.#applyRereads(stale, fresh, now);
  }

  /** Takes in a batched re-read: what came back is fresh, what did not is deleted. */
  #applyRereads(stale: readonly number[], fresh: Series[], now: number): void {
    const found = new Set(fresh.map((s) => s.id));
    for (const s of fresh) this.#remember(s, now);
    for (const id of stale) {
      if (found.has(id)) continue;
      // Not found: deleted (the service answers 410, and `id<=` lists leave it out).
      const k = this.#series.get(id)!;
      k.series = {
        ...k.series,
        lifecycle: 'deleted',
        deleted_at: k.series.deleted_at ?? new Date(now).toISOString(),
      };
      k.readAt = now;
    }
    this.#dirty.window = true;
  }

  /** Standings of the substages whose series are live or just finished (one batched read). */
  async #details(now: number): Promise<void> {
    const due = [...this.#substagesDue];
    if (due.length === 0) return;
    this.#substagesDue.clear();
    await this.#readSubstages(due, now);
  }

  async #readSubstages(ids: number[], now: number): Promise<void> {
    try {
      const found = await this.#read(() => this.#o.client.substages.getMany(ids, BACKGROUND));
      for (const s of found) this.#substages.set(s.id, { substage: s, readAt: now });
      this.#dirty.details = true;
    } catch (error) {
      for (const id of ids) this.#substagesDue.add(id);
      this.#o.logger?.warn({ err: error }, 'substages could not be read');
    }
  }

  // ---- the window scan ---------------------------------------------------------------------------

  #scanIfDue(): void {
    if (this.#o.mode !== 'poller' || this.#scanning) return;
    if (this.#o.store && !this.#holder) return;
    const now = this.#o.clock.nowMs();
    // A walk cut short (the budget went to users' commands) resumes where it stopped.
    if (!this.#walk) {
      if (now - this.#scanAt < POLL_INTERVAL_MS.far) return;
      this.#scanAt = now;
      this.stats.scans++;
      this.#walk = { phase: 'upcoming', skip: 0, seen: new Set(), at: now };
    }
    this.#scanning = this.#scan()
      .catch((error: unknown) => {
        // The next tick resumes the walk where it stopped.
        this.#o.logger?.warn({ err: error }, 'window scan interrupted; resuming at the next tick');
      })
      .finally(() => {
        this.#scanning = undefined;
      });
  }

  /** The walk under way: which listing, from where (a start or end instant), what it has seen. */
  #walk:
    | { phase: 'upcoming' | 'finished' | 'details'; skip: number; seen: Set<number>; at: number }
    | undefined;

  /**
   * The whole window, a page at a time: upcoming series by start (so the next hours come first),
   * then finished ones by end, newest first, then the standings and casters of everything read.
   * Each page overlaps the previous one by a few series (the upcoming listing shifts as series go
   * live), and the position is kept, so an interrupted walk resumes where it stopped. Coverage grows as pages arrive, so
   * commands answer from the first pages on. Upcoming series the walk no longer lists are re-read
   * at the next tick; finished series it no longer lists (their week left the window) are dropped.
   */
  async #scan(): Promise<void> {
    const walk = this.#walk!;
    const now = walk.at;
    const PAGE = 50;
    const OVERLAP = 5;
    while (walk.phase === 'upcoming' && !this.#stopping) {
      const skip = Math.max(0, walk.skip - OVERLAP);
      const page = await this.#read(() =>
        this.#o.client.series.list(
          { filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc', skip, take: PAGE },
          BACKGROUND,
        ),
      );
      let beyond = false;
      for (const s of page) {
        const start = s.start === null ? Number.POSITIVE_INFINITY : Date.parse(s.start);
        if (start > now + this.#o.horizonMs) {
          beyond = true;
          this.#upcomingUntil = Math.max(this.#upcomingUntil, now + this.#o.horizonMs);
          break;
        }
        walk.seen.add(s.id);
        this.#remember(s, now);
        this.#upcomingUntil = Math.max(this.#upcomingUntil, start - 1);
      }
      if (beyond || page.length < PAGE) {
        if (!beyond) this.#upcomingUntil = Number.POSITIVE_INFINITY;
        for (const [id, k] of this.#series)
          if (!walk.seen.has(id) && k.series.lifecycle === 'upcoming') k.readAt = Number.NEGATIVE_INFINITY;
        walk.phase = 'finished';
        walk.skip = 0;
        walk.seen = new Set();
      } else walk.skip = skip + page.length;
      this.#dirty.window = true;
    }
    while (walk.phase === 'finished' && !this.#stopping) {
      const skip = Math.max(0, walk.skip - OVERLAP);
      const page = await this.#read(() =>
        this.#o.client.series.list(
          { filter: [['lifecycle', '<=', ['over', 'over-forfeited']]], order: 'end-desc', skip, take: PAGE },
          BACKGROUND,
        ),
      );
      let before = false;
      for (const s of page) {
        const end = Date.parse(s.end ?? s.start ?? '');
        if (end < now - this.#o.pastMs) {
          before = true;
          this.#finishedFrom = Math.min(this.#finishedFrom, now - this.#o.pastMs);
          break;
        }
        walk.seen.add(s.id);
        this.#remember(s, now);
        this.#finishedFrom = Math.min(this.#finishedFrom, end + 1);
      }
      if (before || page.length < PAGE) {
        if (!before) {
          this.#finishedFrom = Number.NEGATIVE_INFINITY;
          for (const [id, k] of this.#series) {
            const finished = k.series.lifecycle === 'over' || k.series.lifecycle === 'over-forfeited';
            if (finished && !walk.seen.has(id) && k.readAt < now) this.#series.delete(id);
          }
        }
        walk.phase = 'details';
      } else walk.skip = skip + page.length;
      this.#dirty.window = true;
    }
    if (walk.phase === 'details' && !this.#stopping) {
      // Standings and casters of everything windowed (the live ones are kept fresh by the live reads).
      const substages = [...new Set([...this.#series.values()].map((k) => k.series.substage.id))];
      const casters = [
        ...new Set([...this.#series.values()].flatMap((k) => k.series.casters.map((c) => c.caster.id))),
      ];
      await this.#readSubstages(substages, now);
      await this.#readCasters(casters);
      this.#walk = undefined;
      this.#scanned = true;
      // The finished walk is worth writing at once.
      this.#windowSavedAt = Number.NEGATIVE_INFINITY;
      this.#o.logger?.info?.({ sizes: this.sizes() }, 'feed window scanned');
    }
  }

  // ---- the snapshot ------------------------------------------------------------------------------

  /** Writes the parts that changed: live at once, the large window part at most every `saveEveryMs`. */
  async #save(force: boolean): Promise<void> {
    const store = this.#o.store;
    if (!store) return;
    const now = this.#o.clock.nowMs();
    for (const part of PARTS) {
      if (!this.#dirty[part]) continue;
      if (part === 'window' && !force && this.#scanning) continue;
      if (part !== 'live' && !force && Date.now() - this.#windowSavedAt < this.#o.saveEveryMs) continue;
      const at = Math.max(now, this.#partAt[part] + 1);
      try {
        await store.write(`feed:${part}`, { at, value: JSON.stringify(this.#document(part)) });
        this.#partAt[part] = at;
        this.#dirty[part] = false;
        this.stats.saves++;
        if (part !== 'live') this.#windowSavedAt = Date.now();
      } catch (error) {
        this.#o.logger?.warn({ err: error, part }, 'feed snapshot could not be written');
      }
    }
  }

  #document(part: Part): unknown {
    if (part === 'live')
      return {
        liveAt: edge(this.#liveAt),
        series: [...this.#series.values()]
          .filter((k) => k.series.lifecycle === 'live')
          .map((k) => [k.series, k.readAt]),
        live: [...this.#live],
      };
    if (part === 'window')
      return {
        upcomingUntil: edge(this.#upcomingUntil),
        finishedFrom: edge(this.#finishedFrom),
        scanAt: edge(this.#scanAt),
        scanned: this.#scanned,
        series: [...this.#series.values()].map((k) => [k.series, edge(k.readAt)]),
      };
    return {
      substages: [...this.#substages.values()].map((s) => [s.substage, s.readAt]),
      casters: [...this.#casters.values()],
    };
  }

  #restore(part: Part, doc: Record<string, unknown>): void {
    const mergeSeries = (rows: [Series, number | null][]) => {
      for (const [s, readAt] of rows) {
        const at = unedge(readAt, Number.NEGATIVE_INFINITY);
        const known = this.#series.get(s.id);
        if (!known || at > known.readAt) this.#series.set(s.id, { series: s, readAt: at });
      }
    };
    if (part === 'live') {
      mergeSeries(doc.series as [Series, number][]);
      this.#liveAt = Math.max(this.#liveAt, unedge(doc.liveAt as number | null, Number.NEGATIVE_INFINITY));
      this.#live.clear();
      for (const [id, data] of doc.live as [number, LiveData][]) this.#live.set(id, data);
    } else if (part === 'window') {
      mergeSeries(doc.series as [Series, number | null][]);
      this.#upcomingUntil = Math.max(
        this.#upcomingUntil,
        unedge(doc.upcomingUntil as number | null, Number.POSITIVE_INFINITY),
      );
      this.#finishedFrom = Math.min(
        this.#finishedFrom,
        unedge(doc.finishedFrom as number | null, Number.NEGATIVE_INFINITY),
      );
      this.#scanAt = Math.max(this.#scanAt, unedge(doc.scanAt as number | null, Number.NEGATIVE_INFINITY));
      if (doc.scanned === true) this.#scanned = true;
    } else {
      for (const [s, readAt] of doc.substages as [Substage, number][]) {
        const known = this.#substages.get(s.id);
        if (!known || readAt > known.readAt) this.#substages.set(s.id, { substage: s, readAt });
      }
      for (const c of doc.casters as Caster[]) this.#casters.set(c.id, c);
    }
  }
}

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

/** Creates the feed. Nothing runs until `start()` (or a manual `tick()`). */
export function createFeed(options: FeedOptions): Feed {
  return new Feed(options);
}
