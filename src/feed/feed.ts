/**
 * The feed: one in-memory picture of the service's window, shared by every command (and meant for
 * the notifier): the window's series, the live series with their matches and live summaries, the
 * casters of windowed series and the substages (standings) of windowed tournaments. Commands read
 * it synchronously (`series`, `liveMatches`, `liveSummary`, `casters`, `substage`) and send no
 * upstream request for what it holds; what it does not hold they ask the client for, as before.
 *
 * One poller keeps it fresh with the notifier's adaptive bands (`pollBand` in poll-band.ts):
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
 *
 * This file is the read API and the running (ticks, the lease, load and save). Beside it: what the
 * feed holds (`state.ts`), every upstream read it makes (`reads.ts`), the window walk (`scan.ts`)
 * and the snapshot documents (`snapshot.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { PushedSummary, PushHandlers, PushStatus } from '../client/push.ts';
import { summaryEnded } from '../client/push.ts';
import type { Clock } from '../core/clock.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series, Substage } from '../protocol/types.ts';
import { answer, type Coverage, type SeriesAnswer, type SeriesWanted } from '../reads/query.ts';
import { POLL_INTERVAL_MS } from './poll-band.ts';
import { type FeedClient, type FeedLogger, FeedReads, summarySource, takeSummary } from './reads.ts';
import { type Walk, walkWindow } from './scan.ts';
import { restoreSnapshot, snapshotDocument } from './snapshot.ts';
import { FeedState, type LiveData, PARTS, type Part } from './state.ts';
import type { SnapshotStore } from './store.ts';

/** The push consumer as the feed drives it (`client/push.ts`). */
export interface FeedPush {
  start(handlers: PushHandlers): void;
  stop(): Promise<void>;
  readonly status: PushStatus;
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
  /**
   * Live states pushed by the service (`client/push.ts`): started while this process refreshes (a
   * poller holding the lease, or alone), stopped when it stops. While its socket is up the live
   * listing is read every `PUSH_SAFETY_POLL_MS`; otherwise every 10 s, as without it.
   */
  push?: FeedPush;
  /** Real ms between two live reads that pushed changes ask for (a map starting or ending). Default 1000. */
  pushReadGapMs?: number;
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
  /** Pushed summaries taken into the live picture, and live reads that push asked for. */
  pushed: number;
  pushReads: number;
}

const LEASE_KEY = 'lease';

export class Feed {
  readonly stats: FeedStats = {
    ticks: 0,
    reads: 0,
    scans: 0,
    loads: 0,
    saves: 0,
    followed: 0,
    pushed: 0,
    pushReads: 0,
  };
  readonly #o: Required<Omit<FeedOptions, 'store' | 'logger' | 'push'>> &
    Pick<FeedOptions, 'store' | 'logger' | 'push'>;

  /** What the feed holds (`state.ts`), and the reads that fill it (`reads.ts`). */
  readonly #state = new FeedState();
  readonly #reads: FeedReads;
  /** Final matches of ended series, read when asked (`finalMatches`), with when (simulated ms). */
  readonly #final = new Map<number, { matches: Match[]; at: number }>();

  #scanning: Promise<void> | undefined;
  #ticking: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #holder = false;
  /** Set by `stop()`: a scan under way ends at its next series. */
  #stopping = false;
  /** The window walk under way (`scan.ts`), kept when cut short so the next tick resumes it. */
  #walk: Walk | undefined;
  /** Per part: the instant of the newest document loaded or written. */
  readonly #partAt: Record<Part, number> = { live: -1, window: -1, details: -1 };
  #windowSavedAt = Number.NEGATIVE_INFINITY;
  /** True while this process's push consumer runs (it refreshes: the lease holder, or alone). */
  #pushing = false;
  /** A live read push asked for: scheduled, and when the last one started (real ms). */
  #pushRead: NodeJS.Timeout | undefined;
  #pushReadAt = Number.NEGATIVE_INFINITY;
  #pushReadAgain = false;
  /** The next live read happens whatever the band says (push asked for it). */
  #forceLive = false;
  readonly #liveListeners = new Set<() => void>();

  constructor(options: FeedOptions) {
    this.#o = {
      owner: randomUUID(),
      mode: 'poller',
      tickMs: 10_000,
      horizonMs: Number.POSITIVE_INFINITY,
      pastMs: Number.POSITIVE_INFINITY,
      summariesPerRead: 20,
      saveEveryMs: 60_000,
      pushReadGapMs: 1000,
      ...options,
    };
    this.#reads = new FeedReads({
      client: this.#o.client,
      state: this.#state,
      stats: this.stats,
      logger: this.#o.logger,
      summariesPerRead: this.#o.summariesPerRead,
    });
  }

  // ---- reading (synchronous, for commands) ----------------------------------------------------

  /** True until the first scan of the whole window is complete: answers may miss series. */
  get filling(): boolean {
    return !this.#state.scanned;
  }

  /** True once the live listing has been read (or loaded): the feed can answer something. */
  get ready(): boolean {
    return this.#state.ready;
  }

  /** When the live listing was last read successfully (service clock ms; by this or another process), if ever. */
  get lastLiveReadAt(): number | undefined {
    return this.#state.ready ? this.#state.liveAt : undefined;
  }

  coverage(): Coverage {
    const state = this.#state;
    return { live: this.ready, upcomingUntil: state.upcomingUntil, finishedFrom: state.finishedFrom };
  }

  /** The series the service would list for `q`, or undefined before anything was read. */
  series(q: SeriesWanted): SeriesAnswer | undefined {
    if (!this.ready) return undefined;
    return answer(
      (function* (map) {
        for (const k of map.values()) yield k.series;
      })(this.#state.series),
      q,
      this.coverage(),
    );
  }

  /** One series as last read, if the feed holds it. */
  seriesById(id: number): Series | undefined {
    const s = this.#state.series.get(id)?.series;
    return s && s.lifecycle !== 'deleted' ? s : undefined;
  }

  /** Every series held, deleted ones included, with the instant (simulated ms) of its last read (the notifier's source). */
  *entries(): IterableIterator<{ readonly series: Series; readonly readAt: number }> {
    yield* this.#state.series.values();
  }

  /** A live series' matches and current summary (as of the last live read), if the feed read them. */
  liveData(seriesId: number): LiveData | undefined {
    return this.#state.live.get(seriesId);
  }

  /** One caster (with its streams), if the feed holds it. */
  caster(id: number): Caster | undefined {
    return this.#state.casters.get(id);
  }

  /**
   * Re-reads these series unless read within `maxAgeMs` (one batched read): the check before a
   * reminder goes out (a moved, postponed or deleted series gets no reminder for its old start).
   */
  async recheck(ids: readonly number[], maxAgeMs: number): Promise<void> {
    const now = this.#o.clock.nowMs();
    const stale = ids.filter((id) => {
      const k = this.#state.series.get(id);
      return k !== undefined && now - k.readAt >= maxAgeMs;
    });
    if (stale.length === 0) return;
    const fresh = await this.#reads.seriesByIds(stale);
    this.#state.applyRereads(stale, fresh, now);
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
      const matches = await this.#reads.matchesOf(wanted);
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
    return this.#state.live.get(seriesId)?.matches;
  }

  /**
   * The live summary of a match from a source, if the feed read it; null when the feed read that
   * the service has none (a game between maps).
   */
  liveSummary(source: 'cv' | 'api', matchId: number): LiveSummary | null | undefined {
    for (const data of this.#state.live.values())
      if (data.summaryKey === `${source}:${matchId}`) return data.summary ?? null;
    return undefined;
  }

  /** These casters (with their streams), or undefined when the feed lacks any of them. */
  casters(ids: readonly number[]): Caster[] | undefined {
    const found: Caster[] = [];
    for (const id of ids) {
      const c = this.#state.casters.get(id);
      if (!c) return undefined;
      found.push(c);
    }
    return found;
  }

  /** A substage with its standings, if it belongs to a windowed tournament the feed read. */
  substage(id: number): Substage | undefined {
    return this.#state.substages.get(id)?.substage;
  }

  sizes(): Record<string, number> {
    return this.#state.sizes();
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
    if (this.#pushRead) clearTimeout(this.#pushRead);
    this.#pushRead = undefined;
    await this.#ownPush(false);
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
        restoreSnapshot(this.#state, part, JSON.parse(doc.value));
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
      const mustRead = this.#o.mode === 'poller' || now - this.#state.liveAt >= this.#state.liveEvery(now);
      if (this.#o.mode === 'reader' && !mustRead) return;
      this.#holder = await store
        .lease(LEASE_KEY, this.#o.owner, Math.max(3 * this.#o.tickMs, 30_000))
        .catch(() => false);
      if (!this.#holder) {
        // Someone else refreshes (and holds the push socket): take what they wrote.
        await this.#ownPush(false);
        this.stats.followed++;
        await this.load();
        return;
      }
      // Just won the lease: another process may have written since this one last looked.
      await this.load();
    }
    if (this.#o.mode === 'poller') await this.#ownPush(true);
    const force = this.#forceLive;
    this.#forceLive = false;
    await this.#reads.live(now, this.#o.mode === 'poller', this.#state.pushUp, force);
    if (this.#o.mode === 'reader') {
      if (this.#holder) await this.#save(false);
      return;
    }
    await this.#reads.rereads(now);
    await this.#reads.dueSubstages(now);
    if (this.#holder) await this.#save(false);
  }

  // ---- push ------------------------------------------------------------------------------------------

  /** The push socket's status as this feed sees it (`off` when it has none, or another process refreshes). */
  get pushStatus(): PushStatus {
    return this.#pushing && this.#o.push ? this.#o.push.status : 'off';
  }

  /**
   * Calls `listener` whenever a pushed change reached the live picture (the notifier's early tick).
   * Answers the function that removes it.
   */
  onLiveChange(listener: () => void): () => void {
    this.#liveListeners.add(listener);
    return () => this.#liveListeners.delete(listener);
  }

  /** Starts or stops the push consumer as this process starts or stops refreshing. */
  async #ownPush(own: boolean): Promise<void> {
    const push = this.#o.push;
    if (!push || own === this.#pushing || (own && this.#stopping)) return;
    this.#pushing = own;
    if (own) {
      push.start({
        onSummary: (p) => this.#takePushed(p),
        onStatus: (status) => this.#pushStatusChanged(status),
        onResync: () => this.#pushInvalidated(true),
      });
      return;
    }
    this.#state.pushUp = false;
    await push
      .stop()
      .catch((error: unknown) => this.#o.logger?.warn({ err: error }, 'push did not stop cleanly'));
  }

  #pushStatusChanged(status: PushStatus): void {
    const up = status === 'up';
    if (this.#state.pushUp === up) return;
    this.#state.pushUp = up;
    // The socket is down or refused: polling takes over at once (the listing read if 10 s old).
    if (!up && !this.#stopping) this.#fast().catch(() => undefined);
  }

  /**
   * A pushed live summary: taken into its series' live data through the same path as a polled one
   * (`takeSummary`), when the feed holds its match as its series' current game and reads that
   * source for it. A match the feed does not hold as live (a map that just started, a series that
   * just went live) or a match that ended asks for a live read from REST at once: the listing and
   * the matches are the truth for what the push does not carry.
   */
  #takePushed(p: PushedSummary): void {
    if (this.#stopping) return;
    const now = this.#o.clock.nowMs();
    let placed = false;
    let taken = false;
    for (const [seriesId, data] of this.#state.live) {
      const match = data.matches.find((m) => m.id === p.matchId);
      if (!match) continue;
      placed = match.lifecycle === 'live';
      const series = this.#state.series.get(seriesId)?.series;
      if (placed && series && summarySource(series) === p.source)
        taken = takeSummary(data, p.source, p.matchId, p.summary, now, true);
      break;
    }
    if (taken) {
      this.stats.pushed++;
      this.#state.dirty.live = true;
      for (const listener of this.#liveListeners) listener();
    }
    if (!placed || (taken && summaryEnded(p.summary))) this.#pushInvalidated(false);
  }

  /**
   * Reads the live listing and details from REST soon (at most once per `pushReadGapMs`). Summaries
   * push delivered are not read again, unless `resync` (messages may have been missed: a fresh
   * subscriber, a gap): then every current game's summary is read from REST.
   */
  #pushInvalidated(resync: boolean): void {
    if (this.#stopping || this.#o.mode !== 'poller') return;
    if (resync) for (const data of this.#state.live.values()) data.pushed = false;
    if (this.#pushRead) {
      this.#pushReadAgain = true;
      return;
    }
    const wait = Math.max(0, this.#pushReadAt + this.#o.pushReadGapMs - Date.now());
    this.#pushRead = setTimeout(() => {
      this.#pushReadAt = Date.now();
      this.#pushReadAgain = false;
      this.stats.pushReads++;
      const run = async () => {
        await this.#ticking?.catch(() => undefined);
        if (this.#stopping) return;
        // Due at once, whatever the band: the live listing, matches, missing summaries, casters.
        this.#forceLive = true;
        await this.#fast();
        for (const listener of this.#liveListeners) listener();
      };
      run()
        .catch((error: unknown) => this.#o.logger?.warn({ err: error }, 'live read after a push failed'))
        .finally(() => {
          this.#pushRead = undefined;
          if (this.#pushReadAgain) this.#pushInvalidated(false);
        });
    }, wait);
    this.#pushRead.unref();
  }

  // ---- the window scan ---------------------------------------------------------------------------

  #scanIfDue(): void {
    if (this.#o.mode !== 'poller' || this.#scanning) return;
    if (this.#o.store && !this.#holder) return;
    const now = this.#o.clock.nowMs();
    // A walk cut short (the budget went to users' commands) resumes where it stopped.
    if (!this.#walk) {
      if (now - this.#state.scanAt < POLL_INTERVAL_MS.far) return;
      this.#state.scanAt = now;
      this.stats.scans++;
      this.#walk = { phase: 'upcoming', skip: 0, seen: new Set(), substagesAsked: new Set(), at: now };
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

  /** Walks the window on (`scan.ts`); once the walk is complete, the next one starts when due. */
  async #scan(): Promise<void> {
    const complete = await walkWindow(this.#walk!, {
      state: this.#state,
      reads: this.#reads,
      horizonMs: this.#o.horizonMs,
      pastMs: this.#o.pastMs,
      stopping: () => this.#stopping,
    });
    if (!complete) return;
    this.#walk = undefined;
    // The finished walk is worth writing at once.
    this.#windowSavedAt = Number.NEGATIVE_INFINITY;
    this.#o.logger?.info?.({ sizes: this.sizes() }, 'feed window scanned');
  }

  // ---- the snapshot ------------------------------------------------------------------------------

  /** Writes the parts that changed: live at once, the large window part at most every `saveEveryMs`. */
  async #save(force: boolean): Promise<void> {
    const store = this.#o.store;
    if (!store) return;
    const now = this.#o.clock.nowMs();
    for (const part of PARTS) {
      if (!this.#state.dirty[part]) continue;
      if (part === 'window' && !force && this.#scanning) continue;
      if (part !== 'live' && !force && Date.now() - this.#windowSavedAt < this.#o.saveEveryMs) continue;
      const at = Math.max(now, this.#partAt[part] + 1);
      try {
        await store.write(`feed:${part}`, { at, value: JSON.stringify(snapshotDocument(this.#state, part)) });
        this.#partAt[part] = at;
        this.#state.dirty[part] = false;
        this.stats.saves++;
        if (part !== 'live') this.#windowSavedAt = Date.now();
      } catch (error) {
        this.#o.logger?.warn({ err: error, part }, 'feed snapshot could not be written');
      }
    }
  }
}

/** Creates the feed. Nothing runs until `start()` (or a manual `tick()`). */
export function createFeed(options: FeedOptions): Feed {
  return new Feed(options);
}
