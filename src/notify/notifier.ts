/**
 * The notifier: reminders, live cards, results and daily digests for every tenant's channels.
 *
 * One tick (node-cron only triggers it; tests and the bench call `tick()` directly):
 * 1. reload subscriptions when due, and build their union (games x tiers x followed teams);
 * 2. read what the union needs, once, shared by all tenants, adaptively: the upcoming window every
 *    30 minutes, near series every 5 minutes, imminent ones every minute, live ones every 10 s,
 *    and every series a reminder is about to go out for, fresh (batched `getMany`);
 * 3. fan out in memory: what is due per channel (`plan.ts`), each claimed in the ledger before it
 *    is sent, marked sent with the message id after the platform confirms.
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
import type { CallOptions, EsportsClient, Where } from '../client/types.ts';
import type {
  Caster,
  LiveApiSummary,
  LiveCvSummary,
  Match,
  Roster,
  Series,
  Team,
  Tournament,
} from '../protocol/types.ts';
import type { Clock } from '../service/clock.ts';
import { digestReply, liveReply, reminderReply, resultReply } from './cards.ts';
import { type ChannelTarget, type Delivery, DeliveryError } from './delivery.ts';
import { EditPacer } from './edit-pacer.ts';
import { type Ledger, ledgerKey } from './ledger.ts';
import {
  ALL_TIERS,
  type DigestSlot,
  digestSeries,
  dueDigest,
  POLL_INTERVAL_MS,
  planReminders,
  pollBand,
  type Subscription,
  subscriptionsOf,
  type Union,
  unionOf,
  wants,
} from './plan.ts';

/** The slice of the data client the notifier reads. */
export type NotifyClient = Pick<
  EsportsClient,
  'series' | 'matches' | 'rosters' | 'teams' | 'tournaments' | 'casters'
>;

/** The slice of the tenant store the notifier uses. */
export type NotifyTenants = Pick<TenantStore, 'get' | 'save' | 'list'>;

export type NotifyLogger = Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;

export interface NotifierOptions {
  client: NotifyClient;
  tenants: NotifyTenants;
  clock: Clock;
  ledger: Ledger;
  deliveries: Partial<Record<Platform, Delivery>>;
  logger: NotifyLogger;
  /** Real milliseconds between node-cron ticks (whole seconds). Default 10 000. */
  tickMs?: number;
  /** Simulated ms between reloads of the tenants' settings. Default 60 000. */
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
}

const BACKGROUND: CallOptions = { priority: 'background' };
const HOUR = 3600_000;

interface Known {
  series: Series;
  /** Simulated ms of the last read. */
  readAt: number;
  /** The start this process first saw (a later difference means the series moved). */
  firstStart: string | null;
}

interface LiveData {
  matches?: Match[];
  summary?: LiveApiSummary | LiveCvSummary;
  /** The card content last sent per target key, to edit only on change. */
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
  };

  readonly #o: Required<Omit<NotifierOptions, 'deliveries'>> & Pick<NotifierOptions, 'deliveries'>;
  readonly #pacer: EditPacer;
  #task: ScheduledTask | undefined;
  #running: Promise<void> | undefined;

  #subs: Subscription[] = [];
  #subsAt = Number.NEGATIVE_INFINITY;
  #union: Union = { games: [], tiers: [], teams: [] };
  #followedRosters: number[] = [];
  /** Digest subscriptions grouped by (timezone, time): one slot computation per group per tick. */
  #digestGroups = new Map<string, Subscription[]>();

  readonly #known = new Map<number, Known>();
  #scanAt = Number.NEGATIVE_INFINITY;
  #liveAt = Number.NEGATIVE_INFINITY;
  readonly #live = new Map<number, LiveData>();

  readonly #rosterTeam = new Map<number, number>();
  readonly #teams = new Map<number, Team>();
  readonly #tournaments = new Map<number, Tournament>();
  readonly #casters = new Map<number, Caster>();

  /** Keys known to be final (sent, failed): skipped without asking the ledger. */
  readonly #done = new Set<string>();
  /** Groups (series, lead, start) or (series, state) that every subscriber has had: skipped whole. */
  readonly #groupsDone = new Set<string>();
  readonly #retry = new Map<string, { attempts: number; notBefore: number }>();
  /** Live card message ids by card key, and the last content sent to each. */
  readonly #cards = new Map<string, { messageId: string; last: string }>();
  readonly #disabled = new Set<string>();
  readonly #loggedDrops = new Set<string>();

  readonly labels: SeriesLabels = {
    teamOfRoster: (rosterId) => {
      const teamId = this.#rosterTeam.get(rosterId);
      const team = teamId === undefined ? undefined : this.#teams.get(teamId);
      return team ? { name: team.name, abbreviation: team.abbreviation } : undefined;
    },
    tournament: (id) => this.#tournaments.get(id),
    substage: () => undefined,
    game: () => undefined,
  };

  constructor(options: NotifierOptions) {
    this.#o = {
      tickMs: 10_000,
      tenantsRefreshMs: 60_000,
      horizonMs: 26 * HOUR,
      scanLimit: 500,
      editIntervalMs: 1000,
      retryBaseMs: 5_000,
      resultsLateWindowMs: 3 * HOUR,
      ...options,
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

  async stop(): Promise<void> {
    await this.#task?.stop();
    await this.#task?.destroy();
    this.#task = undefined;
    await this.#running?.catch(() => undefined);
    this.#pacer.stop();
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
    if (now - this.#subsAt >= this.#o.tenantsRefreshMs) await this.#loadSubscriptions(now);
    if (this.#subs.length === 0) return;
    await this.#read(now);
    await this.#reminders(now);
    await this.#liveAndResults(now);
    await this.#digests(now);
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
    this.#setSubscriptions(subs.filter((s) => !this.#disabled.has(targetKey(s))));
    this.#subsAt = now;
  }

  #setSubscriptions(subs: Subscription[]): void {
    const before = JSON.stringify(this.#union);
    this.#subs = subs;
    this.#union = unionOf(subs);
    this.#digestGroups = new Map();
    for (const sub of subs) {
      if (!sub.kinds.has('digest')) continue;
      const k = `${sub.timezone}|${sub.digestTime}`;
      const list = this.#digestGroups.get(k) ?? [];
      list.push(sub);
      this.#digestGroups.set(k, list);
    }
    // A wider union needs a fresh window scan; subscriber lists of known series are recomputed lazily.
    if (JSON.stringify(this.#union) !== before) this.#scanAt = Number.NEGATIVE_INFINITY;
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
    const subs = this.#subs.filter((sub) => wants(sub, series, teams));
    this.#subscribers.set(series.id, { rosters, subs });
    return subs;
  }

  // ---- reading ---------------------------------------------------------------------------------

  #unionFilter(): Where<'series'>[] {
    const filter: Where<'series'>[] = [];
    if (this.#union.games !== null) filter.push(['game.id', '<=', this.#union.games]);
    if (this.#union.tiers.length < ALL_TIERS.length) filter.push(['tier', '<=', this.#union.tiers]);
    return filter;
  }

  /** Does the games x tiers read already cover every series of the followed teams? */
  #unionCoversTeams(): boolean {
    return this.#union.games === null && this.#union.tiers.length >= ALL_TIERS.length;
  }

  #remember(series: Series, now: number): void {
    const known = this.#known.get(series.id);
    if (known) {
      known.series = series;
      known.readAt = now;
    } else {
      this.#known.set(series.id, { series, readAt: now, firstStart: series.start });
    }
  }

  async #read(now: number): Promise<void> {
    // The window scan: every upcoming series of the union, nearest first, up to the horizon.
    if (now - this.#scanAt >= POLL_INTERVAL_MS.far) {
      this.#scanAt = now;
      const seen = new Set<number>();
      const scan = async (filter: Where<'series'>[]) => {
        const iterable = this.#o.client.series.paginate(
          { filter: [...filter, ['lifecycle', '=', 'upcoming']], order: 'start-asc' },
          { ...BACKGROUND, limit: this.#o.scanLimit },
        );
        for await (const s of iterable) {
          if (s.start !== null && Date.parse(s.start) > now + this.#o.horizonMs) break;
          seen.add(s.id);
          this.#remember(s, now);
        }
      };
      await this.#counted(() => scan(this.#unionFilter()));
      if (this.#union.teams.length > 0 && !this.#unionCoversTeams()) {
        await this.#loadFollowedRosters();
        if (this.#followedRosters.length > 0) {
          await this.#counted(() => scan([['participants.roster.id', '^', this.#followedRosters]]));
        }
      }
      // Recently finished series: after downtime their live cards are frozen and results posted
      // (within the late window); one page, newest first.
      if (this.#subs.some((s) => s.kinds.has('live') || s.kinds.has('results'))) {
        await this.#counted(async () => {
          const over = this.#o.client.series.paginate(
            {
              filter: [...this.#unionFilter(), ['lifecycle', '<=', ['over', 'over-forfeited']]],
              order: 'end-desc',
            },
            { ...BACKGROUND, limit: this.#o.scanLimit },
          );
          for await (const s of over) {
            const end = Date.parse(s.end ?? s.start ?? '');
            if (end < now - this.#o.resultsLateWindowMs) break;
            if (!this.#known.has(s.id)) this.#remember(s, now);
          }
        });
      }
      // Upcoming series that left the listing moved, went live or were removed: re-read them below.
      for (const [id, k] of this.#known)
        if (!seen.has(id) && k.series.lifecycle === 'upcoming') k.readAt = -Infinity;
    }

    // Live listing: often while anything is live or about to start, rarely otherwise, never when
    // no channel takes live cards or results.
    const busy = [...this.#known.values()].some((k) => {
      const band = pollBand(k.series, now);
      return (band === 'live' || band === 'imminent') && this.#tracked(k.series);
    });
    const liveEvery = busy ? POLL_INTERVAL_MS.live : POLL_INTERVAL_MS.near;
    const wantsLive = this.#subs.some((s) => s.kinds.has('live') || s.kinds.has('results'));
    if (wantsLive && now - this.#liveAt >= liveEvery) {
      this.#liveAt = now;
      const live = await this.#counted(() =>
        this.#o.client.series.list(
          { filter: [...this.#unionFilter(), ['lifecycle', '=', 'live']], take: 50 },
          BACKGROUND,
        ),
      );
      const liveIds = new Set(live.map((s) => s.id));
      for (const s of live) this.#remember(s, now);
      // Series we held as live that left the listing ended (or vanished briefly): re-read them.
      for (const [id, k] of this.#known)
        if (k.series.lifecycle === 'live' && !liveIds.has(id)) k.readAt = -Infinity;
    }

    // Adaptive re-reads, batched: each band at its own pace, and any reminder about to go out fresh.
    const stale: number[] = [];
    for (const [id, k] of this.#known) {
      // Series only digests list need nothing fresher than the window scan.
      if (!this.#tracked(k.series)) continue;
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
      }
    }
    await this.#loadLabels();
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

  /** Does any channel want this series' reminders, live card or result (which need fresh reads)? */
  #tracked(series: Series): boolean {
    for (const sub of this.#subscribersOf(series)) {
      if (sub.kinds.has('reminders') || sub.kinds.has('live') || sub.kinds.has('results')) return true;
    }
    return false;
  }

  readonly #leadSets = new WeakMap<Subscription[], number[]>();

  /** The distinct reminder leads of a series' subscribers (cached with the subscriber list). */
  #leadsOf(series: Series): number[] {
    const list = this.#subscribersOf(series);
    let leads = this.#leadSets.get(list);
    if (!leads) {
      leads = [...new Set(list.filter((s) => s.kinds.has('reminders')).flatMap((s) => s.leads))];
      this.#leadSets.set(list, leads);
    }
    return leads;
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

  async #loadFollowedRosters(): Promise<void> {
    const teams = await this.#counted(() => this.#o.client.teams.getMany(this.#union.teams, BACKGROUND));
    for (const t of teams) this.#teams.set(t.id, t);
    this.#followedRosters = teams.flatMap((t) => (t.standing_roster ? [t.standing_roster.roster.id] : []));
    for (const t of teams) if (t.standing_roster) this.#rosterTeam.set(t.standing_roster.roster.id, t.id);
  }

  /** Names for the cards and rosters for team follows: batched, only for ids not seen before. */
  async #loadLabels(): Promise<void> {
    const rosters = new Set<number>();
    const tournaments = new Set<number>();
    const casters = new Set<number>();
    for (const { series } of this.#known.values()) {
      for (const p of series.participants) if (!this.#rosterTeam.has(p.roster.id)) rosters.add(p.roster.id);
      if (!this.#tournaments.has(series.tournament.id)) tournaments.add(series.tournament.id);
      for (const c of series.casters) if (!this.#casters.has(c.caster.id)) casters.add(c.caster.id);
    }
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
    if (rosterList.length > 0) this.#subscribers.clear();
  }

  async #counted<T>(read: () => Promise<T>): Promise<T> {
    this.stats.reads++;
    return read();
  }

  // ---- reminders -------------------------------------------------------------------------------

  async #reminders(now: number): Promise<void> {
    const jobs: (() => Promise<void>)[] = [];
    for (const known of this.#known.values()) {
      const { series } = known;
      if (series.start === null) continue;
      const subs = this.#subscribersOf(series).filter((s) => s.kinds.has('reminders'));
      if (subs.length === 0) continue;
      const leads = [...new Set(subs.flatMap((s) => s.leads))];
      // Leads pooled from several channels are planned independently; each channel's own leads decide
      // below which of its due reminders supersede the others.
      for (const plan of planReminders(series, leads, now, { supersede: false })) {
        if (plan.action === 'wait') continue;
        const group = `r:${series.id}:${plan.lead}:${series.start}`;
        if (this.#groupsDone.has(group)) continue;
        const members = subs.filter((s) => s.leads.includes(plan.lead));
        if (plan.action === 'drop') {
          // Never sent late: logged once, and nothing is written (a restart decides the same way).
          this.#groupsDone.add(group);
          if (!this.#loggedDrops.has(group)) {
            this.#loggedDrops.add(group);
            this.stats.dropped += members.length;
            this.#o.logger.info(
              { series: series.id, lead: plan.lead, lifecycle: series.lifecycle },
              'reminder dropped: series started or removed',
            );
          }
          continue;
        }
        // Each member's own decision for this lead (a shorter due lead of theirs supersedes it).
        let pending = false;
        for (const sub of members) {
          const own = planReminders(series, sub.leads, now).find((p) => p.lead === plan.lead);
          if (own?.action !== 'send') continue;
          const key = ledgerKey(
            'reminder',
            series.id,
            `${plan.lead}m@${Date.parse(series.start) / 60_000}`,
            sub,
          );
          if (this.#done.has(key)) continue;
          pending = true;
          const movedFrom =
            known.firstStart !== null && known.firstStart !== series.start ? known.firstStart : undefined;
          jobs.push(async () => {
            await this.#send('reminder', key, sub, async (delivery) => {
              const casters = series.casters.flatMap((c) => {
                const found = this.#casters.get(c.caster.id);
                return found ? [found] : [];
              });
              const reply = reminderReply(series, this.labels, sub, {
                lead: plan.lead,
                casters,
                ...(movedFrom ? { movedFrom } : {}),
              });
              return (await delivery.post(target(sub), reply, key)).messageId;
            });
          });
        }
        if (!pending) this.#groupsDone.add(group);
      }
    }
    await runLimited(jobs, 32);
  }

  // ---- live cards and results ------------------------------------------------------------------

  async #liveAndResults(now: number): Promise<void> {
    const live: Known[] = [];
    const ended: Known[] = [];
    for (const k of this.#known.values()) {
      if (k.series.lifecycle === 'live') live.push(k);
      else if (k.series.lifecycle === 'over' || k.series.lifecycle === 'over-forfeited') ended.push(k);
    }
    const wantedLive = live.filter((k) => this.#subscribersOf(k.series).some((s) => s.kinds.has('live')));
    await this.#readLive(wantedLive, now);

    const jobs: (() => Promise<void>)[] = [];
    // One edit per series and spoiler policy, built once per tick and shared by every channel.
    const memo = new Map<string, { reply: Reply; json: string }>();
    for (const k of wantedLive) {
      const data = this.#live.get(k.series.id) ?? {};
      for (const sub of this.#subscribersOf(k.series)) {
        if (!sub.kinds.has('live')) continue;
        jobs.push(() => this.#updateCard(k.series, sub, data, memo));
      }
    }
    for (const k of ended) {
      const group = `o:${k.series.id}`;
      if (this.#groupsDone.has(group)) continue;
      const endAt = Date.parse(k.series.end ?? k.series.start ?? new Date(now).toISOString());
      if (endAt < now - this.#o.resultsLateWindowMs) {
        this.#groupsDone.add(group);
        continue;
      }
      let pending = false;
      for (const sub of this.#subscribersOf(k.series)) {
        if (!sub.kinds.has('live') && !sub.kinds.has('results')) continue;
        const key = ledgerKey('result', k.series.id, 'over', sub);
        if (this.#done.has(key)) continue;
        pending = true;
        jobs.push(() => this.#finish(k.series, sub, key));
      }
      if (!pending) this.#groupsDone.add(group);
    }
    await runLimited(jobs, 32);
  }

  /** Current maps (one batched read) and each live match's summary. */
  async #readLive(live: Known[], now: number): Promise<void> {
    if (live.length === 0 || now !== this.#liveAt) return;
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
    await runLimited(
      live.map((k) => async () => {
        const own = matches.filter((m) => m.series.id === k.series.id);
        const data: LiveData = { matches: own };
        const current = own.find((m) => m.lifecycle === 'live');
        if (current) {
          const api = k.series.coverage?.data?.live?.api?.fact;
          const useApi = api === 'available' || api === 'partial';
          try {
            data.summary = await this.#counted<LiveApiSummary | LiveCvSummary>(() =>
              useApi
                ? this.#o.client.matches.liveApi(current.id, BACKGROUND)
                : this.#o.client.matches.liveCv(current.id, BACKGROUND),
            );
          } catch {
            // No summary yet (or none for this match): the card shows the map score alone.
            const previous = this.#live.get(k.series.id);
            if (
              previous?.summary &&
              previous.matches?.find((m) => m.lifecycle === 'live')?.id === current.id
            ) {
              data.summary = previous.summary;
            }
          }
        }
        this.#live.set(k.series.id, data);
      }),
      8,
    );
  }

  async #updateCard(
    series: Series,
    sub: Subscription,
    data: LiveData,
    memo: Map<string, { reply: Reply; json: string }>,
  ): Promise<void> {
    const key = ledgerKey('live', series.id, 'card', sub);
    if (this.#disabled.has(targetKey(sub))) return;
    const casters = series.casters.flatMap((c) => {
      const found = this.#casters.get(c.caster.id);
      return found ? [found] : [];
    });
    const build = (first: boolean) =>
      liveReply(series, this.labels, sub, {
        ...(data.matches ? { matches: data.matches } : {}),
        ...(data.summary ? { summary: data.summary } : {}),
        casters,
        first,
      });
    let card = this.#cards.get(key);
    if (!card) {
      // After a restart the card's message is in the ledger: keep editing it, never post another.
      const existing = await this.#o.ledger.findMessage(key);
      if (existing) {
        card = { messageId: existing, last: '' };
        this.#cards.set(key, card);
      }
    }
    if (!card) {
      const reply = build(true);
      await this.#send('live', key, sub, async (delivery) => {
        const posted = await delivery.post(target(sub), reply, key);
        this.#cards.set(key, { messageId: posted.messageId, last: JSON.stringify(reply.cards) });
        return posted.messageId;
      });
      return;
    }
    const memoKey = `${series.id}|${sub.spoilers}`;
    let edit = memo.get(memoKey);
    if (!edit) {
      const built = build(false);
      edit = { reply: built, json: JSON.stringify(built.cards) };
      memo.set(memoKey, edit);
    }
    const { reply, json: content } = edit;
    if (content === card.last) return;
    card.last = content;
    const messageId = card.messageId;
    this.#pacer.schedule(targetKey(sub), key, () => this.#edit(sub, messageId, reply));
  }

  /** Ends a series in one channel: freezes its live card with the result, or posts the result. */
  async #finish(series: Series, sub: Subscription, key: string): Promise<void> {
    const cardKey = ledgerKey('live', series.id, 'card', sub);
    const cardId = this.#cards.get(cardKey)?.messageId ?? (await this.#o.ledger.findMessage(cardKey));
    if (cardId !== undefined) {
      const data = this.#live.get(series.id) ?? {};
      const reply = liveReply(series, this.labels, sub, {
        ...(data.matches ? { matches: data.matches } : {}),
        first: false,
      });
      await this.#send('result', key, sub, async (delivery) => {
        await delivery.edit(target(sub), cardId, reply);
        return cardId;
      });
      return;
    }
    if (!sub.kinds.has('results')) {
      this.#done.add(key);
      return;
    }
    await this.#send(
      'result',
      key,
      sub,
      async (delivery) =>
        (await delivery.post(target(sub), resultReply(series, this.labels, sub), key)).messageId,
    );
  }

  async #edit(sub: Subscription, messageId: string, reply: Reply): Promise<void> {
    const delivery = this.#o.deliveries[sub.platform];
    if (!delivery || this.#disabled.has(targetKey(sub))) return;
    try {
      await delivery.edit(target(sub), messageId, reply);
      this.stats.edits++;
    } catch (error) {
      if (error instanceof DeliveryError && error.kind === 'permanent') await this.#disable(sub, error);
      else this.stats.transientFailures++;
      // A transient edit failure needs no retry of its own: the next change edits again (last write wins).
    }
  }

  // ---- digests ---------------------------------------------------------------------------------

  async #digests(now: number): Promise<void> {
    const jobs: (() => Promise<void>)[] = [];
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
        pending = true;
        jobs.push(() => this.#sendDigest(sub, key, slot, day));
      }
      if (!pending) this.#groupsDone.add(groupKey);
    }
    await runLimited(jobs, 32);
  }

  async #sendDigest(sub: Subscription, key: string, slot: DigestSlot, day: Series[]): Promise<void> {
    const mine = day.filter((s) => this.#subscriberSet(s).has(sub));
    if (mine.length === 0 && sub.digestWhenEmpty === 'skip') {
      if (await this.#o.ledger.claim(key)) await this.#o.ledger.fail(key, 'skipped: nothing scheduled');
      this.#done.add(key);
      return;
    }
    await this.#send(
      'digest',
      key,
      sub,
      async (delivery) =>
        (await delivery.post(target(sub), digestReply(mine, this.labels, sub, slot.localDate), key))
          .messageId,
    );
  }

  // ---- the ledger protocol ---------------------------------------------------------------------

  /**
   * Claim, send, mark: the one way anything is posted. A transient failure releases the key and
   * backs off; a permanent one fails the key and disables the subscription.
   */
  async #send(
    kind: keyof NotifierStats['sent'],
    key: string,
    sub: Subscription,
    act: (d: Delivery) => Promise<string>,
  ): Promise<void> {
    if (this.#done.has(key) || this.#disabled.has(targetKey(sub))) return;
    const delivery = this.#o.deliveries[sub.platform];
    if (!delivery) return;
    const now = this.#o.clock.nowMs();
    const retry = this.#retry.get(key);
    if (retry && retry.notBefore > now) return;
    if (!(await this.#o.ledger.claim(key))) {
      const entry = await this.#o.ledger.get(key);
      if (entry && entry.state !== 'claimed') this.#done.add(key);
      return;
    }
    let messageId: string;
    try {
      messageId = await act(delivery);
    } catch (error) {
      if (error instanceof DeliveryError && error.kind === 'permanent') {
        await this.#o.ledger.fail(key, error.code);
        this.#done.add(key);
        await this.#disable(sub, error);
        return;
      }
      this.stats.transientFailures++;
      await this.#o.ledger.release(key);
      const attempts = (retry?.attempts ?? 0) + 1;
      const hinted = error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0;
      const backoff = Math.min(10 * 60_000, this.#o.retryBaseMs * 2 ** (attempts - 1));
      this.#retry.set(key, { attempts, notBefore: now + Math.max(backoff, hinted) });
      this.#o.logger.warn({ key, attempts, err: error }, 'notification failed for now; will retry');
      return;
    }
    await this.#o.ledger.markSent(key, messageId);
    this.#done.add(key);
    this.#retry.delete(key);
    this.stats.sent[kind]++;
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
    try {
      const settings: Settings = await this.#o.tenants.get(sub.tenantId);
      const channel = settings.channels.find((c) => c.id === sub.channelId);
      if (!channel || channel.disabled) return;
      channel.disabled = { reason: `${error.code}: ${error.message}`, at };
      settings.adminNotices.push(
        `Notifications to channel ${channel.name ?? channel.id} were turned off: ${error.message} (${error.code}). ` +
          'Fix the bot’s access to the channel, then turn them on again with /settings.',
      );
      await this.#o.tenants.save(sub.tenantId, settings);
    } catch (saveError) {
      this.#o.logger.error(
        { tenant: sub.tenantId, err: saveError },
        'could not record the disabled subscription',
      );
    }
  }
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
