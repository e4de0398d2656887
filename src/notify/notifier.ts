/**
 * The notifier: reminders, live cards, results and daily digests for every tenant's channels.
 *
 * One tick (node-cron only triggers it; tests and the bench call `tick()` directly):
 * 1. reload subscriptions when they changed (or every 10 minutes) and index them by game x tier
 *    and by followed team;
 * 2. read the whole feed once, shared by all tenants, adaptively: the upcoming window every
 *    30 minutes, near series every 5 minutes, imminent ones every minute, live ones every 10 s,
 *    and every series a reminder is about to go out for, fresh (batched `getMany`); the reads do
 *    not depend on what the tenants subscribe to (live summaries too: every live series, at most a
 *    fixed number per read, those someone receives cards for first);
 * 3. fan out in memory through the index: what is due per channel (`plan.ts`), claimed in the
 *    ledger in batches before it is sent, marked sent with the message id after the platform
 *    confirms (one post per channel first, the rest only if it went through).
 * The ledger, not the tick, knows what was sent: every tick reconciles, so downtime and restarts
 * neither lose nor repeat (`shared/notes/reliability.md`).
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Platform } from '../bot/command.ts';
import type { SeriesLabels } from '../bot/format.ts';
import type { Logger } from '../bot/logger.ts';
import type { Reply } from '../bot/reply.ts';
import type { Settings } from '../bot/settings.ts';
import type { TenantStore } from '../bot/tenants.ts';
import { personIdOf, type UserStore } from '../bot/users.ts';
import type { CallOptions, EsportsClient } from '../client/types.ts';
import { summarySource } from '../feed/feed.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Game, Match, Roster, Series, Substage, Team, Tournament } from '../protocol/types.ts';
import type { Clock } from '../service/clock.ts';
import { digestReply, liveReply, reminderReply, resultReply } from './cards.ts';
import { type ChannelTarget, type Delivery, DeliveryError, type PostOptions } from './delivery.ts';
import { EditPacer } from './edit-pacer.ts';
import { combineReminders, groupByBatch, reminderBatch } from './grouping.ts';
import { LEDGER_RETENTION_MS, type Ledger, type LedgerEntry, LedgerError, ledgerKey } from './ledger.ts';
import {
  announces,
  digestSeries,
  dueDigest,
  inQuietHours,
  POLL_INTERVAL_MS,
  planReminders,
  platformOf,
  pollBand,
  type Subscription,
  subscriptionsOf,
  wants,
} from './plan.ts';
import { eventWishes, ScheduledEventsMirror } from './scheduled-events.ts';

/** The slice of the data client the notifier reads. */
export type NotifyClient = Pick<
  EsportsClient,
  'series' | 'matches' | 'rosters' | 'teams' | 'tournaments' | 'casters' | 'games' | 'substages' | 'maps'
>;

/** The slice of the tenant store the notifier uses. */
export type NotifyTenants = Pick<TenantStore, 'get' | 'update' | 'list'>;

export type NotifyLogger = Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;

export interface NotifierOptions {
  client: NotifyClient;
  tenants: NotifyTenants;
  clock: Clock;
  ledger: Ledger;
  deliveries: Partial<Record<Platform, Delivery>>;
  logger: NotifyLogger;
  /**
   * Personal profiles (issue 16): each person with follows gets their reminders by DM (channel
   * `dm:<user id>`), at their own leads, through the same ledger; closed DMs pause them.
   */
  users?: Pick<UserStore, 'users' | 'get' | 'update'>;
  /** Real milliseconds between node-cron ticks (whole seconds). Default 10 000. */
  tickMs?: number;
  /** Simulated ms between reloads of the tenants' settings (a save here calls `invalidate()` at once; this catches other instances). Default 10 min. */
  tenantsRefreshMs?: number;
  /** How far ahead the upcoming window reaches (simulated ms). Default 26 h: the longest lead plus a day. */
  horizonMs?: number;
  /** Most series read per window scan. Default 500. */
  scanLimit?: number;
  /** Live card edits per channel: minimum real ms between edits. Default 1000. */
  editIntervalMs?: number;
  /** First retry delay after a transient failure (simulated ms, doubled per attempt, capped at 10 min). */
  retryBaseMs?: number;
  /** Results and live cards of series that ended more than this long ago are not announced. Default 3 h. */
  resultsLateWindowMs?: number;
  /** Ledger entries older than this are pruned (on start and daily, real time). Default 30 days. */
  ledgerRetentionMs?: number;
  /** Most keys claimed and marked per ledger round trip. Default 1000. */
  ledgerBatch?: number;
  /**
   * Real ms a tick may spend posting before it leaves the rest to the next tick (reminders first,
   * then digests, then results and live cards). Default 80% of `tickMs`: a start-up backlog of
   * thousands of live cards never holds back the reminders of the next tick.
   */
  tickBudgetMs?: number;
  /**
   * Most live summaries read per live read (every 10 s while anything is live): a fixed share of
   * the upstream budget, whatever the number of tenants. Default 20 (about 2 requests/s).
   */
  summariesPerRead?: number;
}

/** Counters for metrics, tests and the bench. */
export interface NotifierStats {
  ticks: number;
  sent: Record<'reminder' | 'live' | 'result' | 'digest', number>;
  edits: number;
  dropped: number;
  transientFailures: number;
  permanentFailures: number;
  reads: number;
  /** Live summaries read (every live series, at most `summariesPerRead` per live read). */
  summaries: number;
  /** Notifications the last tick left to the next one because its posting budget ran out. */
  deferred: number;
  /** Real ms of the slowest tick so far, by phase (the bench prints it). */
  slowestTick: Record<'subscriptions' | 'read' | 'reminders' | 'live' | 'digests', number> & {
    total: number;
  };
}

const BACKGROUND: CallOptions = { priority: 'background' };
/** How often the streams of series with live cards are read again (online state, viewers). */
const STREAMS_REFRESH_MS = 5 * 60_000;
/** Keys in a tick's first ledger batch, and the fewest in any (see `#dispatch`). */
const FIRST_BATCH = 100;
const MIN_BATCH = 25;
const HOUR = 3600_000;

interface Known {
  series: Series;
  /** Simulated ms of the last read. */
  readAt: number;
  /** The first start seen (by any process: kept in the ledger); a later difference means it moved. */
  firstStart: string | null;
}

interface LiveData {
  matches?: Match[];
  summary?: LiveSummary;
  /** The match the summary belongs to, and when (simulated ms) it was read. */
  summaryOf?: number;
  summaryAt?: number;
  /** The series is over and `matches` are its final ones (read once, for the frozen card). */
  final?: boolean;
}

export interface Notifier {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One reconcile-and-send pass at the clock's "now". */
  tick(): Promise<void>;
  /** Reloads subscriptions at the next tick (after a settings change). */
  invalidate(): void;
  /** Waits for pending live-card edits (tests, shutdown). */
  drain(): Promise<void>;
  readonly stats: NotifierStats;
}

/** Creates the notifier. Nothing runs until `start()` (or a manual `tick()`). */
export function createNotifier(options: NotifierOptions): Notifier {
  return new NotifierImpl(options);
}

class NotifierImpl implements Notifier {
  readonly stats: NotifierStats = {
    ticks: 0,
    sent: { reminder: 0, live: 0, result: 0, digest: 0 },
    edits: 0,
    dropped: 0,
    transientFailures: 0,
    permanentFailures: 0,
    reads: 0,
    summaries: 0,
    deferred: 0,
    slowestTick: { total: 0, subscriptions: 0, read: 0, reminders: 0, live: 0, digests: 0 },
  };

  readonly #o: Required<Omit<NotifierOptions, 'deliveries' | 'users'>> &
    Pick<NotifierOptions, 'deliveries' | 'users'>;
  readonly #pacer: EditPacer;
  #task: ScheduledTask | undefined;
  #running: Promise<void> | undefined;
  /** `performance.now()` after which this tick claims nothing more (see `tickBudgetMs`). */
  #deadline = Number.POSITIVE_INFINITY;

  #subs: Subscription[] = [];
  #subsAt = Number.NEGATIVE_INFINITY;
  /** Subscriptions indexed by `game|tier` (`*|tier` for every game) and by followed team, rebuilt on change. */
  #byGameTier = new Map<string, Subscription[]>();
  #byTeam = new Map<number, Subscription[]>();
  #anyLiveOrResults = false;
  #prunedAt = Number.NEGATIVE_INFINITY;
  /** Digest subscriptions grouped by (timezone, time): one slot computation per group per tick. */
  #digestGroups = new Map<string, Subscription[]>();

  readonly #known = new Map<number, Known>();
  /** Series first seen in this tick's reads (their first start is looked up in the ledger). */
  #newlyKnown: Known[] = [];
  #scanAt = Number.NEGATIVE_INFINITY;
  #liveAt = Number.NEGATIVE_INFINITY;
  /** When the casters of live series were last read (their streams' state). */
  #streamsReadAt = Number.NEGATIVE_INFINITY;
  /** The live listing read whose maps and summaries were read (once per listing read). */
  #liveDataAt = Number.NEGATIVE_INFINITY;
  readonly #live = new Map<number, LiveData>();

  readonly #rosterTeam = new Map<number, number>();
  readonly #teams = new Map<number, Team>();
  readonly #tournaments = new Map<number, Tournament>();
  readonly #casters = new Map<number, Caster>();
  readonly #games = new Map<number, Game | undefined>();
  readonly #substages = new Map<number, Substage | undefined>();
  /** Map names by id, for live cards (read once per map: maps rarely change). */
  readonly #maps = new Map<number, string | undefined>();
  readonly #mapName = (id: number): string | undefined => this.#maps.get(id);

  /** Keys known to be final (sent, failed): skipped without asking the ledger. */
  readonly #done = new Set<string>();
  /** Groups (series, lead, start) or (series, state) that every subscriber has had: skipped whole. */
  readonly #groupsDone = new Set<string>();
  readonly #retry = new Map<string, { attempts: number; notBefore: number }>();
  /** Channels backing off after a transient failure: until when (simulated ms). */
  readonly #channelRetry = new Map<string, number>();
  /** Live card message ids by card key, and the last content sent to each. */
  readonly #cards = new Map<string, { messageId: string; last: string }>();
  /** Card keys whose ledger entry was looked up (batched) and held no message. */
  readonly #cardsChecked = new Set<string>();
  readonly #disabled = new Set<string>();
  readonly #loggedDrops = new Set<string>();
  /** Ended series (`o:<id>`) whose results this process had pending: a late drop of one is logged. */
  readonly #endedPending = new Set<string>();
  /** Series forgotten since the last `#forgetKeys`, and when (simulated ms) it last ran. */
  readonly #forgotten = new Set<number>();
  #forgetKeysAt = Number.NEGATIVE_INFINITY;

  readonly labels: SeriesLabels = {
    teamOfRoster: (rosterId) => {
      const teamId = this.#rosterTeam.get(rosterId);
      const team = teamId === undefined ? undefined : this.#teams.get(teamId);
      return team ? { name: team.name, abbreviation: team.abbreviation } : undefined;
    },
    tournament: (id) => this.#tournaments.get(id),
    substage: (id) => this.#substages.get(id),
    game: (id) => this.#games.get(id),
  };

  constructor(options: NotifierOptions) {
    this.#o = {
      tickMs: 10_000,
      tenantsRefreshMs: 10 * 60_000,
      horizonMs: 26 * HOUR,
      scanLimit: 500,
      editIntervalMs: 1000,
      retryBaseMs: 5_000,
      resultsLateWindowMs: 3 * HOUR,
      ledgerRetentionMs: LEDGER_RETENTION_MS,
      ledgerBatch: 1000,
      summariesPerRead: 20,
      ...options,
      tickBudgetMs: options.tickBudgetMs ?? 0.8 * (options.tickMs ?? 10_000),
    };
    this.#pacer = new EditPacer({ minIntervalMs: this.#o.editIntervalMs });
  }

  async start(): Promise<void> {
    // Reconcile at once: whatever came due while the process was down is decided now.
    await this.tick();
    const seconds = Math.max(1, Math.round(this.#o.tickMs / 1000));
    this.#task = cron.schedule(`*/${seconds} * * * * *`, () => this.tick(), {
      noOverlap: true,
      name: 'matchday-notify',
    });
  }

  /**
   * A clean stop: no new post starts, the tick under way finishes its posts in flight (each marked),
   * and every claim still held is released, so another instance (or the next start) takes the keys
   * at once instead of waiting out a lease.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#task?.stop();
    await this.#task?.destroy();
    this.#task = undefined;
    await this.#running?.catch(() => undefined);
    this.#pacer.stop();
    await this.#retryMarks();
    if (this.#renewTimer) clearInterval(this.#renewTimer);
    this.#renewTimer = undefined;
    await this.#renewing;
    for (const key of [...this.#held.keys()]) if (!this.#unmarked.has(key)) await this.#release(key);
  }

  invalidate(): void {
    this.#subsAt = Number.NEGATIVE_INFINITY;
  }

  drain(): Promise<void> {
    return this.#pacer.drain();
  }

  tick(): Promise<void> {
    // Ticks never overlap: a slow one makes the next wait, it never runs twice at once.
    if (this.#running) return this.#running;
    this.#running = this.#tick()
      .catch((error: unknown) => this.#o.logger.error({ err: error }, 'notifier tick failed'))
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  async #tick(): Promise<void> {
    const now = this.#o.clock.nowMs();
    this.stats.ticks++;
    this.stats.deferred = 0;
    if (!(await this.#ledgerSound())) return;
    await this.#retryMarks();
    await this.#prune();
    const t0 = performance.now();
    this.#deadline = t0 + this.#o.tickBudgetMs;
    if (now - this.#subsAt >= this.#o.tenantsRefreshMs) await this.#loadSubscriptions(now);
    if (this.#subs.length === 0) return;
    const t1 = performance.now();
    await this.#read(now);
    const t2 = performance.now();
    // Most urgent first: a reminder is never sent late, a digest has its slot, a live card can wait.
    await this.#reminders(now);
    const t3 = performance.now();
    await this.#digests(now);
    const t4 = performance.now();
    await this.#liveAndResults(now);
    await this.#scheduledEvents(now);
    const t5 = performance.now();
    if (t5 - t0 > this.stats.slowestTick.total) {
      const ms = (a: number, b: number) => Math.round(b - a);
      this.stats.slowestTick = {
        total: ms(t0, t5),
        subscriptions: ms(t0, t1),
        read: ms(t1, t2),
        reminders: ms(t2, t3),
        digests: ms(t3, t4),
        live: ms(t4, t5),
      };
    }
  }

  #events: ScheduledEventsMirror | undefined;

  /** Discord servers that asked for it: their followed series as scheduled events (`scheduled-events.ts`). */
  async #scheduledEvents(now: number): Promise<void> {
    const api = this.#o.deliveries.discord?.events;
    if (!api) return;
    this.#events ??= new ScheduledEventsMirror({ api, tenants: this.#o.tenants, logger: this.#o.logger });
    await this.#events.sync({
      now,
      wishes: eventWishes(this.#subs),
      series: new Map([...this.#known].map(([id, k]) => [id, k.series])),
      teamsOf: (series) =>
        series.participants.flatMap((p) => {
          const team = this.#rosterTeam.get(p.roster.id);
          return team === undefined ? [] : [team];
        }),
      labels: this.labels,
      streamOf: (series) => {
        const first = series.casters[0];
        return first ? this.#casters.get(first.caster.id) : undefined;
      },
    });
  }

  #ledgerProblemAt = Number.NEGATIVE_INFINITY;

  /**
   * The ledger is checked before every tick: a damaged ledger, or its file deleted while running,
   * stops all sending (nothing can be known as sent) and says so in the log every 10 minutes.
   */
  async #ledgerSound(): Promise<boolean> {
    try {
      await this.#o.ledger.verify();
      return true;
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      if (Date.now() - this.#ledgerProblemAt >= 10 * 60_000) {
        this.#ledgerProblemAt = Date.now();
        this.#o.logger.error({ problem: error.problem }, error.message);
      }
      return false;
    }
  }

  /** Deletes ledger entries past retention: on the first tick and then daily (real time). */
  async #prune(): Promise<void> {
    const realNow = Date.now();
    if (realNow - this.#prunedAt < 24 * HOUR) return;
    this.#prunedAt = realNow;
    try {
      const removed = await this.#o.ledger.prune(realNow - this.#o.ledgerRetentionMs);
      if (removed > 0) this.#o.logger.info({ removed }, 'pruned old ledger entries');
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'ledger entries could not be pruned; will try again tomorrow');
    }
  }

  // ---- subscriptions -------------------------------------------------------------------------

  async #loadSubscriptions(now: number): Promise<void> {
    const ids = await this.#o.tenants.list();
    const subs: Subscription[] = [];
    for (const id of ids) {
      try {
        subs.push(...subscriptionsOf(id, await this.#o.tenants.get(id)));
      } catch (error) {
        this.#o.logger.warn({ tenant: id, err: error }, 'skipping a tenant whose settings cannot be read');
      }
    }
    if (this.#o.users) subs.push(...(await this.#personalSubscriptions(this.#o.users)));
    this.#setSubscriptions(subs.filter((s) => !this.#disabled.has(targetKey(s))));
    this.#subsAt = now;
  }

  /**
   * One DM subscription per person with follows (not paused): reminders only, of the followed
   * teams only (no game or tier reaches it), at the person's leads.
   */
  async #personalSubscriptions(users: NonNullable<NotifierOptions['users']>): Promise<Subscription[]> {
    const subs: Subscription[] = [];
    let keys: string[] = [];
    try {
      keys = await users.users();
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'personal follows cannot be read; no DM reminders this round');
    }
    for (const key of keys) {
      try {
        const profile = await users.get(key);
        if (profile.follows.length === 0 || profile.paused) continue;
        subs.push({
          tenantId: key,
          platform: platformOf(key),
          channelId: `dm:${personIdOf(key)}`,
          games: new Set(),
          tiers: new Set(),
          teams: new Set(profile.follows.map((f) => f.team)),
          kinds: new Set(['reminders']),
          leads: [...profile.leads].sort((a, b) => b - a),
          spoilers: 'hide',
          timezone: profile.timezone,
          digestTime: '09:00',
          digestWhenEmpty: 'skip',
          ...(profile.quiet ? { quiet: profile.quiet } : {}),
        });
      } catch (error) {
        this.#o.logger.warn({ err: error }, 'skipping a profile that cannot be read');
      }
    }
    return subs;
  }

  #setSubscriptions(subs: Subscription[]): void {
    this.#subs = subs;
    this.#byGameTier = new Map();
    this.#byTeam = new Map();
    const add = <K>(map: Map<K, Subscription[]>, key: K, sub: Subscription) => {
      const list = map.get(key);
      if (list) list.push(sub);
      else map.set(key, [sub]);
    };
    for (const sub of subs) {
      for (const tier of sub.tiers) {
        if (sub.games === null) add(this.#byGameTier, `*|${tier}`, sub);
        else for (const game of sub.games) add(this.#byGameTier, `${game}|${tier}`, sub);
      }
      for (const team of sub.teams) add(this.#byTeam, team, sub);
    }
    this.#anyLiveOrResults = subs.some((s) => s.kinds.has('live') || s.kinds.has('results'));
    this.#indexLeads();
    this.#digestGroups = new Map();
    for (const sub of subs) {
      if (!sub.kinds.has('digest')) continue;
      const k = `${sub.timezone}|${sub.digestTime}`;
      const list = this.#digestGroups.get(k) ?? [];
      list.push(sub);
      this.#digestGroups.set(k, list);
    }
    // The reads cover the whole feed whatever the subscriptions; subscriber lists are recomputed lazily.
    this.#subscribers.clear();
  }

  /** Subscribers per series, cached until the subscriptions or the series' rosters change. */
  readonly #subscribers = new Map<number, { rosters: string; subs: Subscription[] }>();

  #subscribersOf(series: Series): Subscription[] {
    const rosters = series.participants.map((p) => p.roster.id).join(',');
    const cached = this.#subscribers.get(series.id);
    if (cached && cached.rosters === rosters) return cached.subs;
    const teams = series.participants.flatMap((p) => {
      const t = this.#rosterTeam.get(p.roster.id);
      return t === undefined ? [] : [t];
    });
    // Candidates from the index (no scan of every tenant); `wants` stays the one rule.
    const candidates = new Set<Subscription>([
      ...(this.#byGameTier.get(`${series.game.id}|${series.tier}`) ?? []),
      ...(this.#byGameTier.get(`*|${series.tier}`) ?? []),
    ]);
    for (const team of teams) for (const sub of this.#byTeam.get(team) ?? []) candidates.add(sub);
    const subs = [...candidates].filter((sub) => wants(sub, series, teams));
    this.#subscribers.set(series.id, { rosters, subs });
    return subs;
  }

  // ---- reading ---------------------------------------------------------------------------------

  #remember(series: Series, now: number): void {
    const known = this.#known.get(series.id);
    if (known) {
      known.series = series;
      known.readAt = now;
    } else {
      const known: Known = { series, readAt: now, firstStart: series.start };
      this.#known.set(series.id, known);
      this.#newlyKnown.push(known);
    }
  }

  async #read(now: number): Promise<void> {
    // The window scan reads the whole feed (every game and tier, paged), whatever the tenants want,
    // and filters in memory: its cost does not depend on how much of the dataset the union covers.
    if (now - this.#scanAt >= POLL_INTERVAL_MS.far) {
      this.#scanAt = now;
      const seen = new Set<number>();
      await this.#counted(async () => {
        const iterable = this.#o.client.series.paginate(
          { filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc' },
          { ...BACKGROUND, limit: this.#o.scanLimit },
        );
        for await (const s of iterable) {
          if (s.start !== null && Date.parse(s.start) > now + this.#o.horizonMs) break;
          seen.add(s.id);
          this.#remember(s, now);
        }
      });
      // Recently finished series: after downtime their live cards are frozen and results posted
      // (within the late window); newest first.
      await this.#counted(async () => {
        const over = this.#o.client.series.paginate(
          { filter: [['lifecycle', '<=', ['over', 'over-forfeited']]], order: 'end-desc' },
          { ...BACKGROUND, limit: this.#o.scanLimit },
        );
        for await (const s of over) {
          const end = Date.parse(s.end ?? s.start ?? '');
          if (end < now - this.#o.resultsLateWindowMs) break;
          if (!this.#known.has(s.id)) this.#remember(s, now);
        }
      });
      // Upcoming series that left the listing moved, went live or were removed: re-read them below.
      for (const [id, k] of this.#known)
        if (!seen.has(id) && k.series.lifecycle === 'upcoming') k.readAt = -Infinity;
    }

    // Live listing (the whole feed): often while anything is live or about to start, else rarely.
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
      await this.#counted(async () => {
        const iterable = this.#o.client.series.paginate(
          { filter: [['lifecycle', '=', 'live']] },
          { ...BACKGROUND, limit: this.#o.scanLimit },
        );
        for await (const s of iterable) live.push(s);
      });
      const liveIds = new Set(live.map((s) => s.id));
      for (const s of live) this.#remember(s, now);
      // Series we held as live that left the listing ended (or vanished briefly): re-read them.
      for (const [id, k] of this.#known)
        if (k.series.lifecycle === 'live' && !liveIds.has(id)) k.readAt = -Infinity;
    }

    // Adaptive re-reads, batched: each band at its own pace, and any reminder about to go out fresh.
    const stale: number[] = [];
    for (const [id, k] of this.#known) {
      // Every known series by its band (not only those someone tracks): the same reads for any tenants.
      const band = pollBand(k.series, now);
      const every = band === 'far' ? Number.POSITIVE_INFINITY : POLL_INTERVAL_MS[band];
      const dueReminder = band !== 'live' && this.#reminderDueSoon(k.series, now);
      if (now - k.readAt >= every || (dueReminder && now - k.readAt >= POLL_INTERVAL_MS.live)) stale.push(id);
    }
    if (stale.length > 0) {
      const fresh = await this.#counted(() => this.#o.client.series.getMany(stale, BACKGROUND));
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

    // Forget what is long gone.
    for (const [id, k] of this.#known) {
      const start = k.series.start ? Date.parse(k.series.start) : now;
      if (k.series.lifecycle !== 'live' && k.series.lifecycle !== 'upcoming' && start < now - 12 * HOUR) {
        this.#known.delete(id);
        this.#live.delete(id);
        this.#subscribers.delete(id);
        this.#forgotten.add(id);
      }
    }
    if (now - this.#forgetKeysAt >= HOUR) this.#forgetKeys(now);
    await this.#firstStarts();
    await this.#loadLabels();
  }

  /**
   * Drops the in-memory marks (sent keys, finished groups, card ids, retries) of forgotten series
   * and of digest days two days past, hourly: without it they would grow for as long as the process
   * runs (hundreds of thousands of keys an hour with 10,000 tenants). The ledger still holds them,
   * so a series seen again is decided by the ledger, never sent twice.
   */
  #forgetKeys(now: number): void {
    this.#forgetKeysAt = now;
    const pastDay = new Date(now - 2 * 24 * HOUR).toISOString().slice(0, 10);
    const forgotten = this.#forgotten;
    const stale = (key: string): boolean => {
      // Digest groups end with the local date (`d:<zone>|<time>:<date>`).
      if (key.startsWith('d:')) return key.slice(-10) < pastDay;
      const from = key.indexOf(':') + 1;
      const to = key.indexOf(':', from);
      const subject = key.slice(from, to < 0 ? undefined : to);
      return key.startsWith('digest:') ? subject < pastDay : forgotten.has(Number(subject));
    };
    for (const set of [
      this.#done,
      this.#groupsDone,
      this.#cardsChecked,
      this.#loggedDrops,
      this.#endedPending,
    ])
      for (const key of set) if (stale(key)) set.delete(key);
    for (const map of [this.#cards, this.#retry])
      for (const key of map.keys()) if (stale(key)) map.delete(key);
    forgotten.clear();
  }

  readonly #subscriberSets = new WeakMap<Subscription[], Set<Subscription>>();

  /** The subscribers of a series as a set (digests test membership for every channel). */
  #subscriberSet(series: Series): Set<Subscription> {
    const list = this.#subscribersOf(series);
    let set = this.#subscriberSets.get(list);
    if (!set) {
      set = new Set(list);
      this.#subscriberSets.set(list, set);
    }
    return set;
  }

  /**
   * The reminder leads that may apply to a series: those of its index buckets (game x tier, every
   * game x tier, its teams), without building its subscriber list. A superset at worst (a team
   * bucket's channel may not want this series): planning then finds no member for that lead.
   */
  #leadsOf(series: Series): number[] {
    const teams = series.participants.map((p) => this.#rosterTeam.get(p.roster.id) ?? -1);
    const memoKey = `${series.game.id}|${series.tier}|${teams.join(',')}`;
    let leads = this.#leadMemo.get(memoKey);
    if (!leads) {
      const set = new Set<number>();
      const buckets = [
        `${series.game.id}|${series.tier}`,
        `*|${series.tier}`,
        ...teams.map((t) => `team:${t}`),
      ];
      for (const bucket of buckets) for (const lead of this.#bucketLeads.get(bucket) ?? []) set.add(lead);
      leads = [...set];
      this.#leadMemo.set(memoKey, leads);
    }
    return leads;
  }

  /** Reminder leads per index bucket, and per (game, tier, teams) asked: rebuilt with the index. */
  #bucketLeads = new Map<string, number[]>();
  #leadMemo = new Map<string, number[]>();

  #indexLeads(): void {
    const sets = new Map<string, Set<number>>();
    const add = (bucket: string, sub: Subscription) => {
      let set = sets.get(bucket);
      if (!set) {
        set = new Set();
        sets.set(bucket, set);
      }
      for (const lead of sub.leads) set.add(lead);
    };
    for (const [bucket, subs] of this.#byGameTier)
      for (const sub of subs) if (sub.kinds.has('reminders')) add(bucket, sub);
    for (const [team, subs] of this.#byTeam)
      for (const sub of subs) if (sub.kinds.has('reminders')) add(`team:${team}`, sub);
    this.#bucketLeads = new Map([...sets].map(([k, v]) => [k, [...v]]));
    this.#leadMemo = new Map();
  }

  /** Does a reminder of this series fall due within the next live interval? */
  #reminderDueSoon(series: Series, now: number): boolean {
    if (series.start === null || series.lifecycle !== 'upcoming') return false;
    const start = Date.parse(series.start);
    for (const lead of this.#leadsOf(series)) {
      const at = start - lead * 60_000;
      if (at <= now && now < start && !this.#groupsDone.has(`r:${series.id}:${lead}:${series.start}`))
        return true;
    }
    return false;
  }

  /** Names for the cards and rosters for team follows: batched, only for ids not seen before. */
  async #loadLabels(): Promise<void> {
    const rosters = new Set<number>();
    const tournaments = new Set<number>();
    const casters = new Set<number>();
    const games = new Set<number>();
    const substages = new Set<number>();
    for (const { series } of this.#known.values()) {
      for (const p of series.participants) if (!this.#rosterTeam.has(p.roster.id)) rosters.add(p.roster.id);
      if (!this.#tournaments.has(series.tournament.id)) tournaments.add(series.tournament.id);
      for (const c of series.casters) if (!this.#casters.has(c.caster.id)) casters.add(c.caster.id);
      if (!this.#games.has(series.game.id)) games.add(series.game.id);
      if (!this.#substages.has(series.substage.id)) substages.add(series.substage.id);
    }
    // Games and substages change rarely (the client caches them long): read once per id, so cards
    // name the game and the stage instead of "Game 1".
    const [gameList, substageList] = await Promise.all([
      games.size > 0
        ? this.#counted(() => this.#o.client.games.getMany([...games], BACKGROUND)).catch(() => [] as Game[])
        : ([] as Game[]),
      substages.size > 0
        ? this.#counted(() => this.#o.client.substages.getMany([...substages], BACKGROUND)).catch(
            () => [] as Substage[],
          )
        : ([] as Substage[]),
    ]);
    for (const g of gameList) this.#games.set(g.id, g);
    for (const id of games) if (!this.#games.has(id)) this.#games.set(id, undefined);
    for (const st of substageList) this.#substages.set(st.id, st);
    for (const id of substages) if (!this.#substages.has(id)) this.#substages.set(id, undefined);
    const [rosterList, tournamentList, casterList] = await Promise.all([
      rosters.size > 0
        ? this.#counted(() => this.#o.client.rosters.getMany([...rosters], BACKGROUND))
        : ([] as Roster[]),
      tournaments.size > 0
        ? this.#counted(() => this.#o.client.tournaments.getMany([...tournaments], BACKGROUND))
        : ([] as Tournament[]),
      casters.size > 0
        ? this.#counted(() => this.#o.client.casters.getMany([...casters], BACKGROUND))
        : ([] as Caster[]),
    ]);
    for (const r of rosterList) this.#rosterTeam.set(r.id, r.team.id);
    for (const t of tournamentList) this.#tournaments.set(t.id, t);
    for (const c of casterList) this.#casters.set(c.id, c);
    // Ids the service does not know are remembered as absent so they are not asked for every tick.
    for (const id of rosters) if (!this.#rosterTeam.has(id)) this.#rosterTeam.set(id, -1);
    for (const id of tournaments)
      if (!this.#tournaments.has(id)) this.#tournaments.set(id, undefined as never);
    const teams = new Set<number>();
    for (const r of rosterList) if (!this.#teams.has(r.team.id)) teams.add(r.team.id);
    if (teams.size > 0) {
      const teamList = await this.#counted(() => this.#o.client.teams.getMany([...teams], BACKGROUND));
      for (const t of teamList) this.#teams.set(t.id, t);
    }
    // Only series with a newly known roster may gain followers; the other subscriber lists stay.
    if (rosterList.length > 0) {
      for (const { series } of this.#known.values())
        if (series.participants.some((p) => rosters.has(p.roster.id))) this.#subscribers.delete(series.id);
    }
  }

  /**
   * The first start ever seen of each series new to this process, kept in the ledger as
   * `start:<id>` (the start in place of a message id): after a restart a reminder still says its
   * series moved. One batched read, and one batched write for series never seen before.
   */
  async #firstStarts(): Promise<void> {
    const fresh = this.#newlyKnown.filter((k) => k.series.start !== null);
    this.#newlyKnown = [];
    if (fresh.length === 0) return;
    const keyOf = (k: Known) => `start:${k.series.id}`;
    try {
      const entries = await this.#o.ledger.getMany(fresh.map(keyOf));
      const unseen: [string, string][] = [];
      for (const k of fresh) {
        const stored = sentMessage(entries.get(keyOf(k)));
        if (stored !== undefined) k.firstStart = stored;
        else unseen.push([keyOf(k), k.series.start!]);
      }
      if (unseen.length === 0) return;
      const won = await this.#o.ledger.claimMany(unseen.map(([key]) => key));
      await this.#o.ledger.markSentMany(unseen.filter(([key]) => won.has(key)));
    } catch (error) {
      // Only the "moved from" note depends on it: this process's own first sight stands in.
      this.#o.logger.warn({ err: error }, 'first starts could not be read or kept in the ledger');
    }
  }

  async #counted<T>(read: () => Promise<T>): Promise<T> {
    this.stats.reads++;
    return read();
  }

  // ---- reminders -------------------------------------------------------------------------------

  async #reminders(now: number): Promise<void> {
    const out: Outgoing[] = [];
    const superseded: string[] = [];
    // One reply per series, lead and audience (spoilers, role), shared by every channel that gets it.
    const replies = new Map<string, Reply>();
    for (const known of this.#known.values()) {
      const { series } = known;
      if (series.start === null) continue;
      // The pooled leads are cached per subscriber list: a series with nothing due costs no scan of
      // its subscribers (most series, most ticks).
      const leads = this.#leadsOf(series);
      if (leads.length === 0) continue;
      const plans = planReminders(series, leads, now, { supersede: false }).filter(
        (p) => p.action !== 'wait' && !this.#groupsDone.has(`r:${series.id}:${p.lead}:${series.start}`),
      );
      if (plans.length === 0) continue;
      const subs = this.#subscribersOf(series).filter((s) => s.kinds.has('reminders'));
      // Leads pooled from several channels are planned independently; each channel's own leads decide
      // below which of its due reminders supersede the others.
      for (const plan of plans) {
        const group = `r:${series.id}:${plan.lead}:${series.start}`;
        const members = subs.filter((s) => s.leads.includes(plan.lead));
        if (plan.action === 'drop') {
          // Never sent late: logged once, and nothing is written (a restart decides the same way).
          this.#groupsDone.add(group);
          if (members.length > 0 && !this.#loggedDrops.has(group)) {
            this.#loggedDrops.add(group);
            this.stats.dropped += members.length;
            const at = `${plan.lead}m@${Date.parse(series.start) / 60_000}`;
            this.#o.logger.info(
              {
                series: series.id,
                lead: plan.lead,
                lifecycle: series.lifecycle,
                keys: members.map((sub) => ledgerKey('reminder', series.id, at, sub)),
              },
              'reminder dropped: series started or removed',
            );
          }
          continue;
        }
        // Each member's own decision for this lead (a shorter due lead of theirs supersedes it).
        let pending = false;
        for (const sub of members) {
          const own = planReminders(series, sub.leads, now).find((p) => p.lead === plan.lead);
          const key = ledgerKey(
            'reminder',
            series.id,
            `${plan.lead}m@${Date.parse(series.start) / 60_000}`,
            sub,
          );
          // Lateness rule 1: a shorter lead now due replaces this one (logged if it never went out).
          if (own?.action === 'superseded' && !this.#done.has(key)) superseded.push(key);
          if (own?.action !== 'send') continue;
          if (this.#done.has(key)) continue;
          pending = true;
          // Quiet hours hold it: a later tick sends it once they end, unless it is stale by then.
          if (sub.quiet && inQuietHours(sub.quiet, sub.timezone, now)) continue;
          const movedFrom =
            known.firstStart !== null && known.firstStart !== series.start ? known.firstStart : undefined;
          const reply = () => {
            const memoKey = `${series.id}|${plan.lead}|${sub.spoilers}|${sub.role ?? ''}`;
            let made = replies.get(memoKey);
            if (!made) {
              const casters = series.casters.flatMap((c) => {
                const found = this.#casters.get(c.caster.id);
                return found ? [found] : [];
              });
              made = reminderReply(series, this.labels, sub, {
                lead: plan.lead,
                casters,
                ...(movedFrom ? { movedFrom } : {}),
              });
              replies.set(memoKey, made);
            }
            return made;
          };
          out.push({
            kind: 'reminder',
            key,
            sub,
            // Reminders of one channel due in the same minute are posted as one message (`#dispatch`).
            batch: reminderBatch(targetKey(sub), Date.parse(series.start) - plan.lead * 60_000),
            reply,
            act: async (delivery, guard) => (await delivery.post(target(sub), reply(), key, guard)).messageId,
          });
        }
        if (!pending) this.#groupsDone.add(group);
      }
    }
    await this.#logDrops(superseded, 'reminder dropped: a shorter lead was due before it went out');
    await this.#dispatch(out);
  }

  /**
   * Logs a lateness drop with the keys that never went out (asked of the ledger: another instance may
   * have sent some), once per key.
   */
  async #logDrops(keys: string[], message: string): Promise<void> {
    const fresh = keys.filter((key) => !this.#loggedDrops.has(key));
    if (fresh.length === 0) return;
    for (const key of fresh) this.#loggedDrops.add(key);
    let entries: Map<string, LedgerEntry>;
    try {
      entries = await this.#o.ledger.getMany(fresh);
    } catch {
      entries = new Map();
    }
    const dropped = fresh.filter((key) => entries.get(key)?.state !== 'sent');
    for (const key of fresh) if (entries.get(key)?.state === 'sent') this.#done.add(key);
    if (dropped.length === 0) return;
    this.stats.dropped += dropped.length;
    this.#o.logger.info({ keys: dropped }, message);
  }

  // ---- live cards and results ------------------------------------------------------------------

  async #liveAndResults(now: number): Promise<void> {
    const live: Known[] = [];
    const ended: Known[] = [];
    for (const k of this.#known.values()) {
      if (k.series.lifecycle === 'live') live.push(k);
      else if (k.series.lifecycle === 'over' || k.series.lifecycle === 'over-forfeited') ended.push(k);
    }
    if (!this.#anyLiveOrResults) return;
    const wantedLive = live.filter((k) => this.#subscribersOf(k.series).some((s) => s.kinds.has('live')));
    await this.#readLive(live, wantedLive, now);
    await this.#refreshStreams(wantedLive, now);

    const pendingEnded: [Known, Subscription[]][] = [];
    const tooLate: string[] = [];
    for (const k of ended) {
      const group = `o:${k.series.id}`;
      if (this.#groupsDone.has(group)) continue;
      const subs = this.#subscribersOf(k.series).filter(
        (sub) =>
          (sub.kinds.has('live') || sub.kinds.has('results')) &&
          announces(sub, k.series, 'result') &&
          !this.#done.has(ledgerKey('result', k.series.id, 'over', sub)),
      );
      const endAt = Date.parse(k.series.end ?? k.series.start ?? new Date(now).toISOString());
      if (endAt < now - this.#o.resultsLateWindowMs) {
        this.#groupsDone.add(group);
        // Lateness rule 2. Results this process had pending (held back by failures such as 429s) are
        // logged as dropped, with their keys; series that ended during downtime are not looked up.
        if (this.#endedPending.has(group))
          tooLate.push(...subs.map((sub) => ledgerKey('result', k.series.id, 'over', sub)));
        continue;
      }
      if (subs.length === 0) this.#groupsDone.add(group);
      else {
        pendingEnded.push([k, subs]);
        this.#endedPending.add(group);
      }
    }
    await this.#logDrops(tooLate, 'result dropped: series ended more than 3 hours ago');

    // Card message ids from the ledger (after a restart a card keeps its message): one batched read.
    const unknownCards: string[] = [];
    const cardKeyOf = (series: Series, sub: Subscription) => ledgerKey('live', series.id, 'card', sub);
    for (const k of wantedLive)
      for (const sub of this.#subscribersOf(k.series))
        if (sub.kinds.has('live') && announces(sub, k.series, 'live'))
          unknownCards.push(cardKeyOf(k.series, sub));
    await this.#loadCards(
      unknownCards.filter((key) => !this.#cards.has(key) && !this.#cardsChecked.has(key)),
    );
    const settled = await this.#settleCards(
      pendingEnded.flatMap(([k, subs]) => subs.map((sub) => cardKeyOf(k.series, sub))),
    );

    await this.#readFinal(
      pendingEnded
        .filter(([k, subs]) => subs.some((sub) => this.#cards.has(cardKeyOf(k.series, sub))))
        .map(([k]) => k.series.id),
    );

    const out: Outgoing[] = [];
    // One edit per series and spoiler policy, built once per tick and shared by every channel.
    const memo = new Map<string, { reply: Reply; json: string }>();
    for (const k of wantedLive) {
      const data = this.#live.get(k.series.id) ?? {};
      for (const sub of this.#subscribersOf(k.series)) {
        if (!sub.kinds.has('live') || !announces(sub, k.series, 'live')) continue;
        const posting = this.#updateCard(k.series, sub, data, memo);
        if (posting) out.push(posting);
      }
    }
    for (const [k, subs] of pendingEnded)
      for (const sub of subs) {
        // A card another holder is posting right now: decided at a later tick, once it is sent or not.
        if (!settled.has(cardKeyOf(k.series, sub))) continue;
        const finishing = this.#finish(k.series, sub, memo);
        if (finishing) out.push(finishing);
      }
    await this.#dispatch(out);
  }

  /**
   * The casters of series with live cards, read again every few minutes (one batched read): their
   * streams' online state and viewers change as series go live, and a card must not say "offline"
   * from a read made before the series started.
   */
  async #refreshStreams(wantedLive: Known[], now: number): Promise<void> {
    if (wantedLive.length === 0 || now - this.#streamsReadAt < STREAMS_REFRESH_MS) return;
    this.#streamsReadAt = now;
    const ids = new Set(wantedLive.flatMap((k) => k.series.casters.map((c) => c.caster.id)));
    if (ids.size === 0) return;
    try {
      const casters = await this.#counted(() => this.#o.client.casters.getMany([...ids], BACKGROUND));
      for (const c of casters) this.#casters.set(c.id, c);
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'streams could not be read; live cards keep their last state');
    }
  }

  /**
   * The final matches of series that ended with a live card to freeze (one batched read): the card
   * is built from the final state (every map's result, no "Now"), not from the last read while it
   * was live. If the read fails the card is frozen without maps rather than with a stale "Now".
   */
  async #readFinal(ids: number[]): Promise<void> {
    const wanted = ids.filter((id) => !this.#live.get(id)?.final);
    if (wanted.length === 0) return;
    const matches: Match[] = [];
    let read = true;
    try {
      const iterable = this.#o.client.matches.paginate(
        { filter: [['series.id', '<=', wanted]], order: 'order-asc' },
        { ...BACKGROUND, limit: 50 * Math.ceil(wanted.length / 10) },
      );
      this.stats.reads++;
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

  /**
   * At a series' end, whether each channel has a live card is asked of the ledger afresh (any
   * instance may have posted it since this one last looked). A card key nobody ever claimed is
   * closed (claimed and failed as "ended before a card"), so no instance posts a card after the
   * result. Returns the keys decided: sent (the card is frozen) or closed (a result where wanted);
   * a card still claimed by another holder is left for a later tick.
   */
  async #settleCards(keys: string[]): Promise<Set<string>> {
    const settled = new Set<string>();
    const unknown = keys.filter((key) => {
      if (this.#cards.has(key)) settled.add(key);
      return !this.#cards.has(key);
    });
    if (unknown.length === 0) return settled;
    const entries = await this.#o.ledger.getMany(unknown);
    const absent: string[] = [];
    for (const key of unknown) {
      const entry = entries.get(key);
      const messageId = sentMessage(entry);
      if (messageId !== undefined) {
        this.#cards.set(key, { messageId, last: '' });
        settled.add(key);
      } else if (entry?.state === 'failed') settled.add(key);
      // Absent, or claimed: a live holder keeps it (decided later); a dead holder's lease lets it close.
      else absent.push(key);
    }
    if (absent.length > 0) {
      const won = await this.#o.ledger.claimMany(absent);
      await runLimited(
        [...won.keys()].map((key) => async () => {
          await this.#o.ledger.fail(key, 'series ended before a live card was posted');
          settled.add(key);
        }),
        16,
      );
      // Lateness rule 4: a card not posted while its series was live (held back by failures such as
      // 429s, here or at another instance, or downtime) is replaced by the result.
      if (won.size > 0)
        this.#o.logger.info(
          { keys: [...won.keys()] },
          'live card dropped: series ended before it could be posted',
        );
    }
    return settled;
  }

  async #loadCards(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const entries = await this.#o.ledger.getMany(keys);
    for (const key of keys) {
      const messageId = sentMessage(entries.get(key));
      if (messageId !== undefined) this.#cards.set(key, { messageId, last: '' });
      else this.#cardsChecked.add(key);
    }
  }

  /**
   * Current maps (one batched read for every live series) and each live match's summary, for every
   * live series whoever follows it: the upstream cost is the same for 1 tenant as for 10,000, and a
   * `/live` command finds the summary warm in the client's cache. At most `summariesPerRead` per
   * read (a fixed share of the budget): series someone gets live cards for first, then the least
   * recently read; a series skipped this time keeps its last summary while its map is the same.
   */
  async #readLive(live: Known[], wanted: Known[], now: number): Promise<void> {
    if (live.length === 0 || now !== this.#liveAt || this.#liveDataAt === now) return;
    this.#liveDataAt = now;
    const ids = live.map((k) => k.series.id);
    const matches: Match[] = [];
    try {
      const iterable = this.#o.client.matches.paginate(
        { filter: [['series.id', '<=', ids]], order: 'order-asc' },
        { ...BACKGROUND, limit: 50 * Math.ceil(ids.length / 10) },
      );
      this.stats.reads++;
      for await (const m of iterable) matches.push(m);
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'live matches could not be read; cards keep their last state');
      return;
    }
    const newMaps = [...new Set(matches.flatMap((m) => (m.map ? [m.map.id] : [])))].filter(
      (id) => !this.#maps.has(id),
    );
    if (newMaps.length > 0) {
      for (const id of newMaps) this.#maps.set(id, undefined);
      try {
        const found = await this.#counted(() => this.#o.client.maps.getMany(newMaps, BACKGROUND));
        for (const map of found) this.#maps.set(map.id, map.name);
      } catch (error) {
        // Cards say "Map 2" instead of the name; the next new map tries again.
        for (const id of newMaps) this.#maps.delete(id);
        this.#o.logger.warn({ err: error }, 'map names could not be read');
      }
    }
    const bySeries = new Map<number, Match[]>();
    for (const m of matches) {
      const list = bySeries.get(m.series.id);
      if (list) list.push(m);
      else bySeries.set(m.series.id, [m]);
    }
    const wantedIds = new Set(wanted.map((k) => k.series.id));
    const reads: { k: Known; data: LiveData; current: Match }[] = [];
    for (const k of live) {
      const own = bySeries.get(k.series.id) ?? [];
      const previous = this.#live.get(k.series.id);
      const current = own.find((m) => m.lifecycle === 'live');
      const data: LiveData = { matches: own };
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
        this.stats.summaries++;
        try {
          data.summary = await this.#counted<LiveSummary>(() =>
            useApi
              ? this.#o.client.matches.liveApi(current.id, BACKGROUND)
              : this.#o.client.matches.liveCv(current.id, BACKGROUND),
          );
          data.summaryOf = current.id;
          data.summaryAt = now;
        } catch {
          // No summary yet (or none for this match): the card shows the map score, or the last summary.
        }
      }),
      8,
    );
  }

  /** Posts a channel's first live card (returned, to dispatch) or schedules an edit of it. */
  #updateCard(
    series: Series,
    sub: Subscription,
    data: LiveData,
    memo: Map<string, { reply: Reply; json: string }>,
  ): Outgoing | undefined {
    const key = ledgerKey('live', series.id, 'card', sub);
    if (this.#disabled.has(targetKey(sub))) return undefined;
    const build = (first: boolean) =>
      liveReply(series, this.labels, sub, {
        ...(data.matches ? { matches: data.matches } : {}),
        ...(data.summary ? { summary: data.summary } : {}),
        mapName: this.#mapName,
        casters: series.casters.flatMap((c) => {
          const found = this.#casters.get(c.caster.id);
          return found ? [found] : [];
        }),
        first,
      });
    const card = this.#cards.get(key);
    if (!card) {
      if (this.#done.has(key)) return undefined;
      return {
        kind: 'live',
        key,
        sub,
        act: async (delivery, guard) => {
          const firstKey = `first|${series.id}|${sub.spoilers}|${sub.role ?? ''}`;
          let first = memo.get(firstKey);
          if (!first) {
            const built = build(true);
            first = { reply: built, json: JSON.stringify(built.cards) };
            memo.set(firstKey, first);
          }
          const posted = await delivery.post(target(sub), first.reply, key, guard);
          this.#cards.set(key, { messageId: posted.messageId, last: first.json });
          return posted.messageId;
        },
      };
    }
    const memoKey = `${series.id}|${sub.spoilers}`;
    let edit = memo.get(memoKey);
    if (!edit) {
      const built = build(false);
      edit = { reply: built, json: JSON.stringify(built.cards) };
      memo.set(memoKey, edit);
    }
    const { reply, json: content } = edit;
    if (content === card.last) return undefined;
    card.last = content;
    this.#pacer.schedule(targetKey(sub), key, () => this.#edit(sub, key, reply));
    return undefined;
  }

  /** Ends a series in one channel: freezes its live card with the result, or posts the result. */
  #finish(
    series: Series,
    sub: Subscription,
    memo: Map<string, { reply: Reply; json: string }>,
  ): Outgoing | undefined {
    const key = ledgerKey('result', series.id, 'over', sub);
    const cardKey = ledgerKey('live', series.id, 'card', sub);
    const cardId = this.#cards.get(cardKey)?.messageId;
    if (cardId !== undefined) {
      const frozenKey = `frozen|${series.id}|${sub.spoilers}`;
      let frozen = memo.get(frozenKey);
      if (!frozen) {
        const data = this.#live.get(series.id) ?? {};
        const built = liveReply(series, this.labels, sub, {
          ...(data.matches ? { matches: data.matches } : {}),
          mapName: this.#mapName,
          first: false,
        });
        frozen = { reply: built, json: '' };
        memo.set(frozenKey, frozen);
      }
      const reply = frozen.reply;
      return {
        kind: 'result',
        key,
        sub,
        act: async (delivery, guard) => {
          try {
            await delivery.edit(target(sub), cardId, reply);
            return cardId;
          } catch (error) {
            if (!isUnknownMessage(error)) throw error;
            // The card was deleted: the result goes out as a fresh message instead.
            return (await delivery.post(target(sub), reply, key, guard)).messageId;
          }
        },
      };
    }
    if (!sub.kinds.has('results')) {
      this.#done.add(key);
      return undefined;
    }
    return {
      kind: 'result',
      key,
      sub,
      act: async (delivery, guard) => {
        const resultKey = `result|${series.id}|${sub.spoilers}|${sub.role ?? ''}`;
        let result = memo.get(resultKey);
        if (!result) {
          result = { reply: resultReply(series, this.labels, sub), json: '' };
          memo.set(resultKey, result);
        }
        return (await delivery.post(target(sub), result.reply, key, guard)).messageId;
      },
    };
  }

  async #edit(sub: Subscription, cardKey: string, reply: Reply): Promise<void> {
    const delivery = this.#o.deliveries[sub.platform];
    const card = this.#cards.get(cardKey);
    if (!delivery || !card || this.#disabled.has(targetKey(sub))) return;
    try {
      await delivery.edit(target(sub), card.messageId, reply);
      this.stats.edits++;
    } catch (error) {
      if (isUnknownMessage(error)) {
        await this.#repost(delivery, sub, cardKey, reply);
        return;
      }
      if (error instanceof DeliveryError && error.kind === 'permanent') await this.#disable(sub, error);
      else this.stats.transientFailures++;
      // A transient edit failure needs no retry of its own: the next change edits again (last write wins).
    }
  }

  /**
   * The live card's message was deleted (by a moderator, or the platform): post a fresh card and
   * record its id in the ledger, instead of editing a message that is gone forever.
   */
  async #repost(delivery: Delivery, sub: Subscription, cardKey: string, reply: Reply): Promise<void> {
    const card = this.#cards.get(cardKey);
    try {
      // A key of its own per repost: a platform's dedupe (Discord's nonce) must not return the old message.
      const posted = await delivery.post(
        target(sub),
        { ...reply },
        `${cardKey}:repost:${this.#o.clock.nowMs()}`,
      );
      await this.#o.ledger.markSent(cardKey, posted.messageId);
      this.#cards.set(cardKey, { messageId: posted.messageId, last: card?.last ?? '' });
      this.stats.sent.live++;
      this.#o.logger.info({ key: cardKey }, 'live card was deleted; posted a new one');
    } catch (error) {
      if (error instanceof DeliveryError && error.kind === 'permanent') await this.#disable(sub, error);
      else this.stats.transientFailures++;
      // The card stays on the old id; the next change tries again.
    }
  }

  // ---- digests ---------------------------------------------------------------------------------

  async #digests(now: number): Promise<void> {
    const out: Outgoing[] = [];
    const skipped: string[] = [];
    for (const [group, subs] of this.#digestGroups) {
      const [timezone, time] = group.split('|') as [string, string];
      const slot = dueDigest(now, timezone, time);
      if (!slot) continue;
      const groupKey = `d:${group}:${slot.localDate}`;
      if (this.#groupsDone.has(groupKey)) continue;
      const day = digestSeries(
        [...this.#known.values()].map((k) => k.series),
        slot,
      );
      let pending = false;
      for (const sub of subs) {
        const key = ledgerKey('digest', slot.localDate, sub.digestTime, sub);
        if (this.#done.has(key) || this.#disabled.has(targetKey(sub))) continue;
        // A channel subscribed after the slot gets its first digest the next day.
        if (sub.since !== undefined && slot.at < sub.since) continue;
        pending = true;
        const mine = day.filter((s) => this.#subscriberSet(s).has(sub));
        if (mine.length === 0 && sub.digestWhenEmpty === 'skip') {
          skipped.push(key);
          continue;
        }
        out.push({
          kind: 'digest',
          key,
          sub,
          act: async (delivery, guard) =>
            (
              await delivery.post(
                target(sub),
                digestReply(mine, this.labels, sub, slot.localDate),
                key,
                guard,
              )
            ).messageId,
        });
      }
      if (!pending) this.#groupsDone.add(groupKey);
    }
    // Nothing to say: recorded as skipped (claimed in one batch), so a restart does not reconsider it.
    if (skipped.length > 0) {
      const won = await this.#o.ledger.claimMany(skipped);
      await runLimited(
        [...won.keys()].map((key) => () => this.#o.ledger.fail(key, 'skipped: nothing scheduled')),
        16,
      );
      for (const key of skipped) this.#done.add(key);
    }
    await this.#dispatch(out);
  }

  // ---- the ledger protocol ---------------------------------------------------------------------

  /**
   * Claim, send, mark: the one way anything is posted. Keys are claimed in batches (one ledger round
   * trip per batch; each claim still atomic per key), each sized to about a second of posting at the
   * pace just seen. Each post is marked sent with its message id the moment the platform accepts
   * it (marks of concurrent posts share one write), so a crash re-posts nothing that went out. The
   * claims this process holds are renewed while it works on them (also while a delivery waits out a
   * Retry-After), and each post checks its claim right before it goes out: a claim another holder
   * took over is never posted by this one. Per channel one post goes first; the rest follow only if
   * it went through, so a channel that refuses gets one attempt per tick. A transient failure
   * releases the key and backs off; a permanent one fails the key and disables the subscription.
   * Past the tick's budget no new batch is claimed (after the first of each call, so every kind
   * moves): the rest is decided again, and sent, at the next tick.
   */
  async #dispatch(out: Outgoing[]): Promise<void> {
    const now = this.#o.clock.nowMs();
    // One post per key: a claim is won once per key, so a key listed twice (settings that hold one
    // channel twice give two subscriptions with the same keys) must not be posted once per listing.
    const keys = new Set<string>();
    // Reminders of one channel and minute side by side, so a ledger batch does not split their message.
    const ready = groupByBatch(out)
      .flat()
      .filter((o) => {
        if (keys.has(o.key)) return false;
        keys.add(o.key);
        if (this.#done.has(o.key) || this.#disabled.has(targetKey(o.sub))) return false;
        if (!this.#o.deliveries[o.sub.platform]) return false;
        const retry = this.#retry.get(o.key);
        if (retry && retry.notBefore > now) return false;
        // A channel that failed for now backs off as a whole, not only the key that was tried.
        return !((this.#channelRetry.get(targetKey(o.sub)) ?? 0) > now);
      });
    const failedChannels = new Set<string>();
    const triedChannels = new Set<string>();
    let size = Math.min(FIRST_BATCH, this.#o.ledgerBatch);
    for (let i = 0; i < ready.length; ) {
      if (this.#stopping || (i > 0 && performance.now() > this.#deadline)) {
        this.stats.deferred += ready.length - i;
        break;
      }
      const started = performance.now();
      let end = Math.min(ready.length, i + size);
      while (
        end < ready.length &&
        ready[end]!.batch !== undefined &&
        ready[end]!.batch === ready[end - 1]!.batch
      )
        end++;
      const chunk = ready.slice(i, end);
      i += chunk.length;
      const won = await this.#o.ledger.claimMany(chunk.map((o) => o.key));
      for (const key of won.keys()) this.#hold(key);
      const lost = chunk.filter((o) => !won.has(o.key)).map((o) => o.key);
      if (lost.length > 0) {
        // Lost to a sent or failed record (a restart, another process): final. A live claim: retry later.
        const entries = await this.#o.ledger.getMany(lost);
        for (const [key, entry] of entries) if (entry.state !== 'claimed') this.#done.add(key);
      }
      const claimed = mergeBatches(chunk.filter((o) => won.has(o.key)));
      const first: Outgoing[] = [];
      const rest: Outgoing[] = [];
      for (const o of claimed) {
        const tk = targetKey(o.sub);
        if (triedChannels.has(tk)) rest.push(o);
        else {
          triedChannels.add(tk);
          first.push(o);
        }
      }
      const attempt = (o: Outgoing) => async () => {
        const tk = targetKey(o.sub);
        const all = [o.key, ...(o.also ?? [])];
        if (this.#stopping || this.#disabled.has(tk) || failedChannels.has(tk)) {
          for (const key of all) await this.#release(key);
          return;
        }
        const retaken = all.some((key) => won.get(key)?.retaken === true);
        const messageId = await this.#attempt(o, now, retaken);
        if (messageId === undefined) {
          failedChannels.add(tk);
          return;
        }
        this.#channelRetry.delete(tk);
        for (const key of all) {
          this.#done.add(key);
          this.#retry.delete(key);
          this.stats.sent[o.kind]++;
        }
        // Every key the message stands for is marked with it (one group-committed write).
        await Promise.all(all.map((key) => this.#markSent(key, messageId)));
      };
      await runLimited(first.map(attempt), 32);
      await runLimited(rest.map(attempt), 32);
      const perSecond = (chunk.length * 1000) / Math.max(1, performance.now() - started);
      size = Math.max(MIN_BATCH, Math.min(this.#o.ledgerBatch, Math.round(perSecond)));
    }
  }

  /** Sends one claimed notification; the message id, or undefined after a failure (handled here). */
  async #attempt(o: Outgoing, now: number, retaken: boolean): Promise<string | undefined> {
    const delivery = this.#o.deliveries[o.sub.platform]!;
    // A grouped post stands for several keys: it goes out only while every one of them is still ours.
    const all = [o.key, ...(o.also ?? [])];
    const stillOurs = async () => (await Promise.all(all.map((key) => this.#stillHeld(key)))).every(Boolean);
    const guard: PostOptions = { stillOurs, reconcile: retaken };
    if (retaken) this.#o.logger.info({ key: o.key }, 'claim taken over from a holder that did not finish');
    try {
      return await o.act(delivery, guard);
    } catch (error) {
      if (error instanceof DeliveryError && error.code === 'CLAIM_LOST') {
        // Another holder has the key now: it posts (or already did); this process leaves it alone.
        // (Stopping: the claim is still ours, given back so the next holder need not wait.)
        // A group that lost one key gives the others back: the next tick posts them again.
        for (const key of all) {
          if (this.#stopping || (all.length > 1 && this.#held.has(key))) await this.#release(key);
          else this.#held.delete(key);
        }
        this.#o.logger.warn({ key: o.key }, 'claim was taken over while waiting; not posted here');
        return undefined;
      }
      if (error instanceof DeliveryError && error.kind === 'permanent') {
        for (const key of all) {
          this.#held.delete(key);
          await this.#o.ledger.fail(key, error.code);
          this.#done.add(key);
        }
        await this.#disable(o.sub, error);
        return undefined;
      }
      this.stats.transientFailures++;
      const hinted = error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0;
      let notBefore = now;
      for (const key of all) {
        await this.#release(key, maybePosted(error));
        const attempts = (this.#retry.get(key)?.attempts ?? 0) + 1;
        // Capped at 2 minutes: repeated 429s delay a notification, they do not push it past its lateness rule.
        const backoff = Math.min(2 * 60_000, this.#o.retryBaseMs * 2 ** (attempts - 1));
        notBefore = Math.max(notBefore, now + Math.max(backoff, hinted));
        this.#retry.set(key, { attempts, notBefore: now + Math.max(backoff, hinted) });
      }
      this.#channelRetry.set(targetKey(o.sub), notBefore);
      this.#o.logger.warn(
        { key: o.key, keys: all.length, attempts: this.#retry.get(o.key)?.attempts, err: error },
        'notification failed for now; will retry',
      );
      return undefined;
    }
  }

  // ---- claims held and marks ------------------------------------------------------------------

  /** Keys this process holds a claim on, with the real instant (ms) until which the claim surely holds. */
  readonly #held = new Map<string, number>();
  #renewTimer: ReturnType<typeof setInterval> | undefined;
  #renewing: Promise<void> | undefined;
  #stopping = false;

  #hold(key: string): void {
    this.#held.set(key, Date.now() + this.#o.ledger.leaseMs);
    if (!this.#renewTimer) {
      // Renewed three times per lease: a holder that lives (and waits on a Retry-After) keeps its claims.
      this.#renewTimer = setInterval(() => void this.#renew(), Math.max(10, this.#o.ledger.leaseMs / 3));
      this.#renewTimer.unref();
    }
  }

  #renew(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return this.#renewing ?? Promise.resolve();
    const keys = [...this.#held.keys()];
    const until = Date.now() + this.#o.ledger.leaseMs;
    this.#renewing = this.#o.ledger
      .renewMany(keys)
      .then((still) => {
        for (const key of keys) {
          if (!this.#held.has(key)) continue;
          if (still.has(key)) this.#held.set(key, until);
          else this.#held.delete(key);
        }
      })
      .catch((error: unknown) => this.#o.logger.warn({ err: error }, 'claims could not be renewed'))
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  /** Right before a post: is the claim still this process's? Asks the ledger when the lease is near its end. */
  async #stillHeld(key: string): Promise<boolean> {
    const until = this.#held.get(key);
    if (until === undefined || this.#stopping) return false;
    if (until - Date.now() > this.#o.ledger.leaseMs / 3) return true;
    try {
      const still = await this.#o.ledger.renewMany([key]);
      if (!still.has(key)) {
        this.#held.delete(key);
        return false;
      }
      this.#held.set(key, Date.now() + this.#o.ledger.leaseMs);
      return true;
    } catch {
      // The ledger cannot say: not posting is the safe side (the key is retried later).
      return false;
    }
  }

  async #release(key: string, maybe = false): Promise<void> {
    this.#held.delete(key);
    try {
      await this.#o.ledger.release(key, { maybePosted: maybe });
    } catch (error) {
      this.#o.logger.warn({ key, err: error }, 'claim could not be released; its lease frees it');
    }
  }

  /** Marks waiting for the write under way (group commit: one ledger write for many posts). */
  #marks: { key: string; messageId: string }[] = [];
  #marking: Promise<void> | undefined;
  /** Posts accepted whose mark could not be written yet: written again at the next tick. */
  readonly #unmarked = new Map<string, string>();

  /** Records one accepted post at once (its claim is let go once the mark is written). */
  async #markSent(key: string, messageId: string): Promise<void> {
    this.#marks.push({ key, messageId });
    while (this.#marks.some((m) => m.key === key)) {
      if (!this.#marking) this.#marking = this.#writeMarks();
      await this.#marking;
    }
  }

  async #writeMarks(): Promise<void> {
    const batch = this.#marks;
    this.#marks = [];
    try {
      await this.#o.ledger.markSentMany(batch.map((m) => [m.key, m.messageId] as const));
      for (const m of batch) this.#held.delete(m.key);
    } catch (error) {
      // Sent but not recorded: kept (and the claim renewed) until a later write succeeds.
      for (const m of batch) this.#unmarked.set(m.key, m.messageId);
      this.#o.logger.error(
        { err: error, keys: batch.length },
        'sent notifications could not be marked; will retry',
      );
    } finally {
      this.#marking = undefined;
    }
  }

  /** Writes marks that failed earlier (start of each tick). */
  async #retryMarks(): Promise<void> {
    if (this.#unmarked.size === 0) return;
    const pending = [...this.#unmarked];
    try {
      await this.#o.ledger.markSentMany(pending);
      for (const [key] of pending) {
        this.#unmarked.delete(key);
        this.#held.delete(key);
      }
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'sent notifications still cannot be marked');
    }
  }

  /** Turns a channel's subscription off after a permanent failure and tells the tenant's admins once. */
  async #disable(sub: Subscription, error: DeliveryError): Promise<void> {
    const tk = targetKey(sub);
    if (this.#disabled.has(tk)) return;
    this.#disabled.add(tk);
    this.stats.permanentFailures++;
    this.#setSubscriptions(this.#subs.filter((s) => targetKey(s) !== tk));
    const at = new Date(this.#o.clock.nowMs()).toISOString();
    this.#o.logger.warn(
      { tenant: sub.tenantId, channel: sub.channelId, code: error.code },
      'subscription disabled',
    );
    if (sub.channelId.startsWith('dm:') && this.#o.users) {
      // A person's DMs: paused, and the person is told once, in their next /me answer.
      try {
        await this.#o.users.update(sub.tenantId, (profile) => ({
          ...profile,
          paused: { reason: `${error.code}: ${error.message}`, at },
          notices: [
            ...profile.notices,
            'Your reminders by direct message are paused: Matchday could not message you (are your DMs from server members closed?). Open them, then /me follow a team again to resume.',
          ].slice(-10),
        }));
      } catch (saveError) {
        this.#o.logger.error({ err: saveError }, 'could not record the paused DM reminders');
      }
      return;
    }
    try {
      // Applied to the latest stored settings, so an admin's change made meanwhile is kept.
      await this.#o.tenants.update(sub.tenantId, (settings: Settings) => {
        const channel = settings.channels.find((c) => c.id === sub.channelId);
        if (!channel || channel.disabled) return settings;
        channel.disabled = { reason: `${error.code}: ${error.message}`, at };
        settings.adminNotices.push(
          `Notifications to channel ${channel.name ?? channel.id} were turned off: ${error.message} (${error.code}). ` +
            'Fix the bot’s access to the channel, then turn them on again with /settings.',
        );
        return settings;
      });
    } catch (saveError) {
      this.#o.logger.error(
        { tenant: sub.tenantId, err: saveError },
        'could not record the disabled subscription',
      );
    }
  }
}

/** One notification to post: its ledger key, channel, and how to send it. */
interface Outgoing {
  kind: keyof NotifierStats['sent'];
  key: string;
  sub: Subscription;
  act: (delivery: Delivery, guard: PostOptions) => Promise<string>;
  /** Reminders: the channel and minute they are due (`grouping.ts`), and the reply alone. */
  batch?: string;
  reply?: () => Reply;
  /** More keys the one post stands for (grouped reminders): claimed, released, failed and marked with `key`. */
  also?: string[];
}

/**
 * The claimed reminders of one channel and minute as one outgoing post: its key is the first
 * reminder's (Discord's nonce, Slack's metadata), the others ride along in `also`.
 */
function mergeBatches(claimed: Outgoing[]): Outgoing[] {
  return groupByBatch(claimed).map((group) => {
    if (group.length === 1) return group[0]!;
    const [first] = group as [Outgoing, ...Outgoing[]];
    const reply = combineReminders(group.map((o) => o.reply!()));
    return {
      kind: first.kind,
      key: first.key,
      sub: first.sub,
      also: group.slice(1).map((o) => o.key),
      act: async (delivery, guard) =>
        (await delivery.post(target(first.sub), reply, first.key, guard)).messageId,
    };
  });
}

/** A failure after which the platform may have taken the post anyway (timeout, dropped connection, 5xx). */
function maybePosted(error: unknown): boolean {
  if (!(error instanceof DeliveryError)) return true;
  return !['RATE_LIMITED', 'INVALID_MESSAGE', 'UNKNOWN_MESSAGE', 'CLAIM_LOST'].includes(error.code);
}

function sentMessage(entry: LedgerEntry | undefined): string | undefined {
  return entry?.state === 'sent' ? entry.messageId : undefined;
}

/** A live card's message is gone (deleted): Discord 10008, Slack message_not_found and the like. */
function isUnknownMessage(error: unknown): boolean {
  return error instanceof DeliveryError && error.code === 'UNKNOWN_MESSAGE';
}

function target(sub: Subscription): ChannelTarget {
  return { platform: sub.platform, tenantId: sub.tenantId, channelId: sub.channelId };
}

function targetKey(sub: Subscription): string {
  return `${sub.tenantId}/${sub.channelId}`;
}

/** Runs jobs with at most `limit` at once. */
async function runLimited(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      await job();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}
