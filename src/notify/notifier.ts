/**
 * The notifier: reminders, live cards, results and daily digests for every tenant's channels and
 * every person's DMs. It runs four jobs over one picture of the service, every tick (node-cron only
 * triggers it; tests and the bench call `tick()` directly):
 * 1. reload subscriptions when they changed (or every 10 minutes) and index them by game x tier and
 *    by followed team (`subscriptions.ts`, DMs from `jobs/dm.ts`);
 * 2. bring the picture up to date through its one source (`source.ts`, `feed-source.ts`): the feed
 *    of a running Matchday, or, without one, a feed of its own; the same for any number of tenants;
 * 3. run the jobs, most urgent first: `jobs/reminders.ts` (never sent late), `jobs/digest.ts` (has
 *    its slot), `jobs/live-cards.ts` with `jobs/results.ts` (a card can wait). Each turns (picture,
 *    subscriptions, now) into outgoing posts and hands them to the dispatcher (`dispatcher.ts`),
 *    which claims each in the ledger, sends it and marks it sent with the platform's message id.
 * The ledger, not the tick, knows what was sent: every tick reconciles, so downtime and restarts
 * neither lose nor repeat (docs/notifications.md, "The ledger: none lost, none twice").
 */

import cron, { type ScheduledTask } from 'node-cron';
import { createNameIndex, type NameIndex } from '../bot/names.ts';
import type { Clock } from '../core/clock.ts';
import type { Platform } from '../core/tenant-id.ts';
import { createFeed, type Feed, type FeedPush } from '../feed/feed.ts';
import { recordDisabled, recordThreadsOff } from './channel-off.ts';
import type { Delivery } from './delivery.ts';
import type { DeliveryError } from './delivery-error.ts';
import { Dispatcher, targetKey } from './dispatcher.ts';
import { EditPacer } from './edit-pacer.ts';
import { FeedSource } from './feed-source.ts';
import { keepFirstStarts } from './first-starts.ts';
import type { JobContext } from './jobs/context.ts';
import { runDigests } from './jobs/digest.ts';
import { dmSubscriptions, type NotifyUsers } from './jobs/dm.ts';
import { lookBack } from './jobs/downtime.ts';
import { LiveCards } from './jobs/live-cards.ts';
import { Reminders } from './jobs/reminders.ts';
import { TournamentEnds } from './jobs/tournament-end.ts';
import { LateDrops } from './late-drops.ts';
import { LEDGER_RETENTION_MS, type Ledger, LedgerError } from './ledger.ts';
import { isQualifierTitle, type Subscription } from './plan.ts';
import { eventWishes, ScheduledEventsMirror } from './scheduled-events.ts';
import type { NotifyClient } from './service-reads.ts';
import type { NotifySource } from './source.ts';
import { SubscriptionIndex, tenantSubscriptions } from './subscriptions.ts';
import { emptyStats, type NotifierStats, type NotifyLogger, type NotifyTenants } from './types.ts';

export type { NotifyClient } from './service-reads.ts';

export interface NotifierOptions {
  client: NotifyClient;
  /**
   * The running feed and name index (`matchday start`), which the notifier reads (`FeedSource`).
   * Absent: the notifier runs a feed and a name index of its own over `client`, ticked with it.
   */
  feed?: { feed: Feed; names: NameIndex };
  /** Without `feed`: a name index to use (the app's, already loaded) instead of one of its own. */
  names?: NameIndex;
  tenants: NotifyTenants;
  clock: Clock;
  ledger: Ledger;
  deliveries: Partial<Record<Platform, Delivery>>;
  logger: NotifyLogger;
  /**
   * Personal profiles (src/bot/users.ts): each person with follows gets their reminders by DM (channel
   * `dm:<user id>`), at their own leads, through the same ledger; closed DMs pause them.
   */
  users?: NotifyUsers;
  /** Real milliseconds between node-cron ticks (whole seconds). Default 10 000. */
  tickMs?: number;
  /** Simulated ms between reloads of the tenants' settings (a save here calls `invalidate()` at once; this catches other instances). Default 10 min. */
  tenantsRefreshMs?: number;
  /** How far ahead the upcoming window reaches (simulated ms). Default 26 h: the longest lead plus a day. */
  horizonMs?: number;
  /** Live card edits per channel: minimum real ms between edits. Default 1000. */
  editIntervalMs?: number;
  /** First retry delay after a transient failure (simulated ms, doubled per attempt, capped at 2 min). */
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
  /** Without `feed`: live states pushed by the service, for the notifier's own feed (`Feed` option `push`). */
  push?: FeedPush;
}

/**
 * A pushed live change (`Feed.onLiveChange`) ticks the notifier this soon (real ms), so its live
 * cards are edited within about a second of the change instead of at the next 10-second tick;
 * changes within the wait share one tick, and two early ticks start at least `editIntervalMs` apart.
 */
export const PUSH_TICK_DELAY_MS = 100;

export interface Notifier {
  /** Runs the first tick at once, in the background, then one every `tickMs` until `stop()`. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One reconcile-and-send pass at the clock's "now". */
  tick(): Promise<void>;
  /** Reloads subscriptions at the next tick (after a settings change). */
  invalidate(): void;
  /** Waits for pending live-card edits (tests, shutdown). */
  drain(): Promise<void>;
  /**
   * Discord's gateway: a scheduled event was deleted (GUILD_SCHEDULED_EVENT_DELETE, by anyone). One
   * Matchday made and kept open was deleted by hand: recorded, and never made again (`scheduled-events.ts`).
   */
  scheduledEventDeleted(guildId: string, event: { id: string; description?: string | null }): Promise<void>;
  readonly stats: NotifierStats;
}

const HOUR = 3600_000;
/** A gap between two of this process's ticks longer than this is looked back over like downtime. */
const LOOK_BACK_GAP_MS = 30 * 60_000;

/** Creates the notifier. Nothing runs until `start()` (or a manual `tick()`). */
export function createNotifier(options: NotifierOptions): Notifier {
  return new NotifierImpl(options);
}

class NotifierImpl implements Notifier {
  readonly stats: NotifierStats = emptyStats();

  readonly #o: Required<Omit<NotifierOptions, 'users' | 'feed' | 'names' | 'push'>> &
    Pick<NotifierOptions, 'users' | 'feed' | 'names' | 'push'>;
  /** The feed and names this notifier runs itself when it was given none. */
  readonly #own: { feed: Feed; names: NameIndex } | undefined;
  readonly #pacer: EditPacer;
  readonly #source: NotifySource;
  readonly #subs: SubscriptionIndex;
  readonly #dispatcher: Dispatcher;
  readonly #drops: LateDrops;
  readonly #reminders: Reminders;
  readonly #liveCards: LiveCards;
  readonly #tournamentEnds: TournamentEnds;
  readonly #ctx: JobContext;
  #task: ScheduledTask | undefined;
  #events: ScheduledEventsMirror | undefined;
  #running: Promise<void> | undefined;
  /** The early tick a pushed change asked for (`PUSH_TICK_DELAY_MS`), and whether one more is owed. */
  #early: NodeJS.Timeout | undefined;
  #earlyOwed = false;
  #tickStartedAt = Number.NEGATIVE_INFINITY;
  #unlisten: (() => void) | undefined;
  #subsAt = Number.NEGATIVE_INFINITY;
  #prunedAt = Number.NEGATIVE_INFINITY;
  #ledgerProblemAt = Number.NEGATIVE_INFINITY;
  /** The last reload of the subscriptions failed: the ones loaded before are in use. */
  #subsStale = false;
  #subsLoaded = false;
  /** Series forgotten since the last `#forgetKeys`, and when (simulated ms) it last ran. */
  readonly #forgotten = new Set<number>();
  #forgetKeysAt = Number.NEGATIVE_INFINITY;
  /**
   * The look-back after downtime (`jobs/downtime.ts`): undefined until the first tick asked the
   * ledger for the last run; then from there (null: a first start, nothing to look back on) until done.
   */
  #lookBackFrom: number | null | undefined;
  #lookedBack = false;
  /** The clock's time of this process's last completed tick. */
  #tickedAt: number | undefined;
  /** "Waiting for the feed's first read" was logged (said once, and once when it ends). */
  #waitLogged = false;
  #runUnrecorded = false;

  constructor(options: NotifierOptions) {
    this.#o = {
      tickMs: 10_000,
      tenantsRefreshMs: 10 * 60_000,
      horizonMs: 26 * HOUR,
      editIntervalMs: 1000,
      retryBaseMs: 5_000,
      resultsLateWindowMs: 3 * HOUR,
      ledgerRetentionMs: LEDGER_RETENTION_MS,
      ledgerBatch: 1000,
      summariesPerRead: 20,
      ...options,
      tickBudgetMs: options.tickBudgetMs ?? 0.8 * (options.tickMs ?? 10_000),
    };
    const o = this.#o;
    this.#pacer = new EditPacer({ minIntervalMs: o.editIntervalMs });
    // One source: the feed. Without a running one (a notifier on its own), the notifier runs its
    // own feed and name index over its client and brings them up to date before each tick.
    const own = o.feed
      ? undefined
      : {
          feed: createFeed({
            client: o.client,
            clock: o.clock,
            logger: o.logger,
            horizonMs: o.horizonMs,
            pastMs: 12 * HOUR + o.resultsLateWindowMs,
            summariesPerRead: o.summariesPerRead,
            ...(o.push ? { push: o.push } : {}),
          }),
          names: o.names ?? createNameIndex({ client: o.client, clock: o.clock, logger: o.logger }),
        };
    this.#own = own;
    this.#source = new FeedSource({
      ...(o.feed ?? own!),
      client: o.client,
      logger: o.logger,
      stats: this.stats,
      horizonMs: o.horizonMs,
    });
    this.#subs = new SubscriptionIndex(
      (rosterId) => this.#source.teamOfRoster(rosterId),
      (series) =>
        isQualifierTitle(
          this.#source.labels.tournament(series.tournament.id)?.title,
          this.#source.labels.substage(series.substage.id)?.title,
        ),
    );
    this.#dispatcher = new Dispatcher({
      ledger: o.ledger,
      deliveries: o.deliveries,
      clock: o.clock,
      logger: o.logger,
      stats: this.stats,
      retryBaseMs: o.retryBaseMs,
      ledgerBatch: o.ledgerBatch,
      onDisabled: (sub, error) => this.#disabled(sub, error),
      onThreadsDenied: (sub, error) => this.#threadsDenied(sub, error),
    });
    this.#drops = new LateDrops({
      ledger: o.ledger,
      logger: o.logger,
      stats: this.stats,
      done: this.#dispatcher.done,
    });
    this.#ctx = {
      clock: o.clock,
      source: this.#source,
      subs: this.#subs,
      dispatcher: this.#dispatcher,
      drops: this.#drops,
      ledger: o.ledger,
      logger: o.logger,
      stats: this.stats,
    };
    this.#reminders = new Reminders(this.#ctx);
    this.#liveCards = new LiveCards(this.#ctx, this.#pacer, o.resultsLateWindowMs);
    this.#tournamentEnds = new TournamentEnds(this.#ctx, o.resultsLateWindowMs);
  }

  async start(): Promise<void> {
    // Reconcile at once: whatever came due while the process was down is decided now, in the
    // background: start-up (the banner, the commands) does not wait for its posts (a slow platform
    // held the banner for 30 s). `stop()` waits for it.
    void this.tick();
    // A pushed live change ticks at once (live cards edited sooner) rather than at the next tick.
    this.#unlisten = (this.#o.feed?.feed ?? this.#own?.feed)?.onLiveChange(() => this.#pushed());
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
    this.#dispatcher.stopping = true;
    this.#unlisten?.();
    this.#unlisten = undefined;
    if (this.#early) clearTimeout(this.#early);
    this.#early = undefined;
    await this.#task?.stop();
    await this.#task?.destroy();
    this.#task = undefined;
    await this.#running?.catch(() => undefined);
    this.#pacer.stop();
    await this.#dispatcher.close();
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
    this.#tickStartedAt = performance.now();
    this.#running = this.#tick()
      .catch((error: unknown) => this.#o.logger.error({ err: error }, 'notifier tick failed'))
      .finally(() => {
        this.#running = undefined;
        if (this.#earlyOwed) {
          this.#earlyOwed = false;
          this.#pushed();
        }
      });
    return this.#running;
  }

  /** A pushed change reached the feed: an early tick (`PUSH_TICK_DELAY_MS`), one more if a tick is under way. */
  #pushed(): void {
    if (this.#early || this.#dispatcher.stopping || !this.#task) return;
    if (this.#running) {
      this.#earlyOwed = true;
      return;
    }
    const wait = Math.max(
      PUSH_TICK_DELAY_MS,
      this.#tickStartedAt + this.#o.editIntervalMs - performance.now(),
    );
    this.#early = setTimeout(() => {
      this.#early = undefined;
      if (this.#dispatcher.stopping) return;
      this.stats.pushTicks++;
      void this.tick();
    }, wait);
    this.#early.unref();
  }

  /** The notifier's own feed and names, brought up to the clock's now (a notifier without a running feed). */
  async #refreshOwn(): Promise<void> {
    const { feed, names } = this.#own!;
    if (!names.loaded)
      await names
        .refresh()
        .catch((error: unknown) =>
          this.#o.logger.warn({ err: error }, 'names could not be loaded; cards name teams once they are'),
        );
    await feed
      .tick()
      .catch((error: unknown) => this.#o.logger.warn({ err: error }, 'the feed could not be read'));
  }

  async #tick(): Promise<void> {
    const now = this.#o.clock.nowMs();
    this.stats.ticks++;
    this.stats.deferred = 0;
    if (!(await this.#ledgerSound())) return;
    await this.#lastRun(now);
    await this.#dispatcher.retryMarks();
    await this.#prune();
    if (this.#own) await this.#refreshOwn();
    if (!this.#source.complete) {
      // Nothing is decided on half a schedule; the run is not recorded, so nothing is skipped either.
      if (!this.#waitLogged)
        this.#o.logger.info({}, "notifications wait for the feed's first read of the schedule");
      this.#waitLogged = true;
      return;
    }
    if (this.#waitLogged) this.#o.logger.info({}, 'the schedule is read; notifications start');
    this.#waitLogged = false;
    await this.#work(now);
    // Recorded only after a whole tick: a process that dies mid-tick leaves the look-back to cover it.
    this.#tickedAt = now;
    try {
      await this.#o.ledger.recordRun(now);
      this.#runUnrecorded = false;
    } catch (error) {
      // Said once per outage: a later record covers this tick (the look-back only reaches further).
      if (!this.#runUnrecorded)
        this.#o.logger.warn({ err: error }, 'the last run could not be recorded in the ledger');
      this.#runUnrecorded = true;
    }
  }

  /**
   * On the first tick: the last run any notifier recorded on the ledger sets the drops' floor and
   * where the look-back starts; a first start (none recorded) has its floor at this tick. Later, a
   * gap of more than 30 minutes since this process's last tick is looked back over the same way.
   */
  async #lastRun(now: number): Promise<void> {
    if (this.#lookBackFrom === undefined) {
      const last = await this.#o.ledger.lastRun();
      this.#lookBackFrom = last ?? null;
      this.#drops.floor = Math.min(last ?? now, now);
    } else if (this.#tickedAt !== undefined && now - this.#tickedAt > LOOK_BACK_GAP_MS) {
      // Ticks stalled (the machine slept, the process was suspended): looked back over the gap too,
      // from the last run any instance recorded (another one may have run meanwhile).
      this.#lookBackFrom = (await this.#o.ledger.lastRun()) ?? this.#tickedAt;
      this.#lookedBack = false;
    }
  }

  async #work(now: number): Promise<void> {
    const t0 = performance.now();
    this.#dispatcher.deadline = t0 + this.#o.tickBudgetMs;
    if (now - this.#subsAt >= this.#o.tenantsRefreshMs) await this.#reloadSubscriptions(now);
    if (this.#subs.all.length === 0) return;
    const t1 = performance.now();
    await this.#read(now);
    if (!this.#lookedBack) {
      if (typeof this.#lookBackFrom === 'number')
        await lookBack(this.#ctx, this.#lookBackFrom, now, {
          resultsLateWindowMs: this.#o.resultsLateWindowMs,
        });
      this.#lookedBack = true;
    }
    const t2 = performance.now();
    // Most urgent first: a reminder is never sent late, a digest has its slot, a live card can wait.
    await this.#reminders.run(now);
    const t3 = performance.now();
    await runDigests(this.#ctx, now);
    const t4 = performance.now();
    await this.#liveCards.run(now);
    await this.#tournamentEnds.run(now);
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

  async scheduledEventDeleted(guildId: string, event: { id: string; description?: string | null }) {
    await this.#eventsMirror()?.deletedInDiscord(guildId, event);
  }

  /** The scheduled events' mirror, when Discord delivers (made on first use). */
  #eventsMirror(): ScheduledEventsMirror | undefined {
    const api = this.#o.deliveries.discord?.events;
    if (!api) return undefined;
    this.#events ??= new ScheduledEventsMirror({
      api,
      ledger: this.#o.ledger,
      tenants: this.#o.tenants,
      logger: this.#o.logger,
    });
    return this.#events;
  }

  /** Discord servers that asked for it: their followed series as scheduled events (`scheduled-events.ts`). */
  async #scheduledEvents(now: number): Promise<void> {
    const mirror = this.#eventsMirror();
    if (!mirror) return;
    const source = this.#source;
    await mirror.sync({
      now,
      wishes: eventWishes(this.#subs.all),
      series: new Map([...source.known()].map((k) => [k.series.id, k.series])),
      teamsOf: (series) =>
        series.participants.flatMap((p) => {
          const team = source.teamOfRoster(p.roster.id);
          return team === undefined ? [] : [team];
        }),
      labels: source.labels,
      streamOf: (series) => {
        const first = series.casters[0];
        return first ? source.caster(first.caster.id) : undefined;
      },
    });
  }

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

  /**
   * Reloads the subscriptions; when the settings store cannot answer (a Redis outage), the ones loaded
   * last are kept and the reload is tried again next tick. So posting resumes as soon as the ledger
   * answers, without also waiting for the settings store's own reconnection (docs/operations.md,
   * "Redis that comes back").
   */
  async #reloadSubscriptions(now: number): Promise<void> {
    try {
      await this.#loadSubscriptions(now);
      if (this.#subsStale)
        this.#o.logger.info({}, 'subscriptions reloaded; the settings store answers again');
      this.#subsStale = false;
    } catch (error) {
      if (!this.#subsLoaded) throw error;
      if (!this.#subsStale)
        this.#o.logger.warn(
          { err: error },
          'the settings store cannot be read; notifying with the subscriptions loaded last until it answers',
        );
      this.#subsStale = true;
    }
  }

  async #loadSubscriptions(now: number): Promise<void> {
    const subs = await tenantSubscriptions(this.#o.tenants, this.#o.logger);
    if (this.#o.users) subs.push(...(await dmSubscriptions(this.#o.users, this.#o.logger)));
    this.#subs.set(subs.filter((s) => !this.#dispatcher.disabled.has(targetKey(s))));
    this.#subsAt = now;
    this.#subsLoaded = true;
  }

  /** The source's read for this tick, then the bookkeeping it asks for (first starts, forgotten series). */
  async #read(now: number): Promise<void> {
    const { newlyKnown, forgotten } = await this.#source.read(now, {
      reminderDueSoon: (series) => this.#reminders.dueSoon(series, now),
    });
    for (const id of forgotten) {
      this.#subs.forget(id);
      this.#forgotten.add(id);
    }
    if (now - this.#forgetKeysAt >= HOUR) this.#forgetKeys(now);
    await keepFirstStarts(this.#o.ledger, newlyKnown, this.#o.logger);
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
      // A tournament's end (`t:<id>`, `tournament:<id>:...`) goes with the series that revealed it.
      if (key.startsWith('t:') || key.startsWith('tournament:'))
        return this.#tournamentEnds.forgotten(Number(subject), forgotten);
      return key.startsWith('digest:') ? subject < pastDay : forgotten.has(Number(subject));
    };
    this.#dispatcher.forget(stale);
    this.#drops.forget(stale);
    this.#reminders.forget(stale);
    this.#liveCards.forget(stale);
    this.#tournamentEnds.forget(stale);
    forgotten.clear();
  }

  /** Raised by the dispatcher: a channel's threads were refused; only they are turned off (`channel-off.ts`). */
  async #threadsDenied(sub: Subscription, error: DeliveryError): Promise<void> {
    const tk = targetKey(sub);
    for (const s of this.#subs.all) if (targetKey(s) === tk) s.threads = false;
    await recordThreadsOff(this.#o.tenants, sub, error, this.#o.logger);
  }

  /** Raised by the dispatcher: a channel failed for good; its subscription is turned off (`channel-off.ts`). */
  async #disabled(sub: Subscription, error: DeliveryError): Promise<void> {
    const tk = targetKey(sub);
    this.#subs.set(this.#subs.all.filter((s) => targetKey(s) !== tk));
    const at = new Date(this.#o.clock.nowMs()).toISOString();
    await recordDisabled(
      { tenants: this.#o.tenants, users: this.#o.users, logger: this.#o.logger },
      sub,
      error,
      at,
    );
  }
}
