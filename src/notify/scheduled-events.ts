/**
 * Discord scheduled events (docs/discord.md, "Scheduled events"): a server whose notification channel has
 * `/settings events channel:#x enabled:true` sees its followed series (the channel's teams and the
 * server's follows) as Guild Scheduled Events, kept in step with the series:
 *
 * - created (external, with the stream link as location) for a followed series that is upcoming,
 *   starts within the notifier's window (26 h) and has not started; nearest first, never more
 *   uncompleted events in the server than Discord allows (100, counting the server's own events);
 * - moved (start and end; a postponement is a move) and renamed (a participant revealed) when the
 *   series changes;
 * - started (status active) when the series goes live, completed when it is over;
 * - cancelled when the series is deleted; deleted when the team is no longer followed.
 *
 * The events themselves are the record: each carries `Matchday · series <id>` as the last line of
 * its description, so a restart, another process or a lost answer finds what exists by listing
 * the server's events (one request per server, again every `relistMs`), never by memory alone, and
 * never creates an event twice. Only the notifier's lease holder runs this, once per tick, from the
 * series the notifier already read: no extra request to the data service.
 *
 * What a listing cannot tell is why one of Matchday's events is missing: an event an admin deleted
 * (or cancelled) by hand must stay deleted, through the relist and a restart. The ledger (the store
 * the notifications use: it survives restarts and every process shares it) keeps that, per server
 * and series (`eventKeys`): `made` holds the id of the event Matchday made (sent), or that Matchday
 * closed it itself (failed, written before it cancels, completes or deletes it); `deleted` (failed)
 * marks a series whose event was deleted by hand. A series gets that mark when a listing lacks the
 * event `made` still holds as open before the series' start (from its start on Discord may end an
 * event itself), when an edit answers 10070 (Unknown Guild Scheduled Event), or when the gateway
 * says GUILD_SCHEDULED_EVENT_DELETE for it (`deletedInDiscord`); it never gets an event again in
 * that server. An event Matchday made before this record existed is adopted by the next listing.
 *
 * A refusal for missing permission (Discord 50013 or 50001) turns the server's events off and tells
 * its admins once, like a channel whose posts are refused; everything else is retried next tick.
 */

import type { SeriesLabels } from '../bot/format.ts';
import { gameTag, matchup, tournamentName } from '../bot/format.ts';
import { watchUrl } from '../bot/format-streams.ts';
import type { Settings } from '../bot/settings.ts';
import { cmd } from '../core/errors.ts';
import { type Translate, translator } from '../i18n/i18n.ts';
import type { Caster, Series } from '../protocol/types.ts';
import { DeliveryError } from './delivery-error.ts';
import { type Ledger, ledgerKey } from './ledger.ts';
import type { Subscription } from './plan.ts';

/** Discord's statuses: 1 scheduled, 2 active, 3 completed, 4 cancelled (3 and 4 are final). */
export type EventStatus = 1 | 2 | 3 | 4;

/** What Matchday sets on an event. */
export interface EventSpec {
  name: string;
  /** ISO instants. */
  start: string;
  end: string;
  /** The stream link, else the tournament (Discord needs a location on an external event). */
  location: string;
  description: string;
}

/** An event as listed by the platform. */
export interface GuildEvent extends EventSpec {
  id: string;
  status: EventStatus;
}

/** Edits of an existing event: any fields, and a status change. */
export type EventPatch = Partial<EventSpec> & { status?: EventStatus };

/** The platform's side (Discord: `DiscordScheduledEvents`, REST through discord.js). */
export interface ScheduledEventsApi {
  list(guildId: string): Promise<GuildEvent[]>;
  create(guildId: string, spec: EventSpec): Promise<GuildEvent>;
  edit(guildId: string, eventId: string, patch: EventPatch): Promise<GuildEvent>;
  remove(guildId: string, eventId: string): Promise<void>;
}

/** Discord refuses a 101st uncompleted event in a server (JSON code 30038). */
export const DISCORD_EVENT_LIMIT = 100;
/** Discord events are written in English (their text is the event's, not a reply); not yet per tenant. */
const ENGLISH = translator('en');
const HOUR = 3600_000;
const MARKER = /Matchday · series (\d+)$/;

/** The series an event of Matchday's mirrors, from its description's last line; else undefined. */
export function seriesOfEvent(event: Pick<GuildEvent, 'description'>): number | undefined {
  const found = MARKER.exec(event.description.trimEnd());
  return found ? Number(found[1]) : undefined;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The event of a series: teams and game as the name (never a score), the stream as location. */
export function eventSpec(
  series: Series,
  labels: SeriesLabels,
  stream: Caster | undefined,
  t: Translate = ENGLISH,
): EventSpec {
  const start = Date.parse(series.start!);
  const end = series.end ? Date.parse(series.end) : start + Math.max(1, series.best_of) * HOUR;
  const tag = gameTag(labels, series.game.id);
  const tournament = tournamentName(labels, series.tournament.id, t);
  const url = stream ? watchUrl(stream) : undefined;
  const stage = labels.substage(series.substage.id)?.title;
  const lines = [
    `${tournament}${stage ? ` · ${stage}` : ''}`,
    `${t('cards.calendar.bestOf', { count: series.best_of })} · ${t('cards.calendar.tier', { tier: series.tier })}`,
    ...(stream
      ? [
          `${t('cards.calendar.watch', { name: stream.display_name, platform: stream.stream.platform.name })}${url ? ` ${url}` : ''}`,
        ]
      : []),
    // The marker Matchday finds its own events by (MARKER): the same in every language.
    `Matchday · series ${series.id}`,
  ];
  return {
    name: clip(`${matchup(series, labels, t)}${tag ? ` (${tag})` : ''}`, 100),
    start: new Date(start).toISOString(),
    end: new Date(Math.max(end, start + 60_000)).toISOString(),
    location: clip(url ?? tournament, 100),
    description: lines.join('\n').slice(-1000),
  };
}

export type EventAction =
  | { op: 'create'; spec: EventSpec }
  | { op: 'edit'; patch: EventPatch; why: 'moved' | 'live' | 'over' | 'cancelled' }
  | { op: 'remove' }
  | { op: 'none' };

/** The slice of the ledger the mirror keeps its record in. */
export type EventLedger = Pick<Ledger, 'get' | 'getMany' | 'markSentMany' | 'fail'>;

/**
 * The ledger keys of one series' event in one server: `made` (the event Matchday made, or that it
 * closed it) and `deleted` (someone deleted it by hand: never made again).
 */
export function eventKeys(guildId: string, seriesId: number): { made: string; deleted: string } {
  const target = { platform: 'discord' as const, tenantId: `discord:${guildId}`, channelId: 'events' };
  return {
    made: ledgerKey('event', seriesId, 'made', target),
    deleted: ledgerKey('event', seriesId, 'deleted', target),
  };
}

const isOver = (s: Series) => s.lifecycle === 'over' || s.lifecycle === 'over-forfeited';
const isGone = (s: Series) => s.deleted_at !== null || s.lifecycle === 'deleted';
/** Before its start, nothing but a person removes an event of an upcoming series (Discord may act from the start on). */
const beforeStart = (s: Series, now: number) =>
  !isGone(s) &&
  (s.lifecycle === 'upcoming' || s.lifecycle === 'unknown') &&
  s.start !== null &&
  Date.parse(s.start) > now;

/**
 * What to do for one series in one server, given its event (if Matchday made one) and whether the
 * server follows it. Pure: the tests and the mirror share it.
 */
export function eventAction(
  series: Series,
  event: GuildEvent | undefined,
  followed: boolean,
  spec: EventSpec | undefined,
  now: number,
): EventAction[] {
  if (!event) {
    const canCreate =
      followed &&
      spec !== undefined &&
      !isGone(series) &&
      (series.lifecycle === 'upcoming' || series.lifecycle === 'unknown') &&
      Date.parse(spec.start) > now;
    return canCreate ? [{ op: 'create', spec }] : [];
  }
  if (event.status === 1) {
    if (isGone(series)) return [{ op: 'edit', patch: { status: 4 }, why: 'cancelled' }];
    if (series.lifecycle === 'live') return [{ op: 'edit', patch: { status: 2 }, why: 'live' }];
    // Over before Matchday saw it live: Discord completes only an active event.
    if (isOver(series))
      return [
        { op: 'edit', patch: { status: 2 }, why: 'live' },
        { op: 'edit', patch: { status: 3 }, why: 'over' },
      ];
    if (!followed) return [{ op: 'remove' }];
    if (spec) {
      const patch: EventPatch = {};
      for (const field of ['name', 'start', 'end', 'location', 'description'] as const)
        if (event[field] !== spec[field]) patch[field] = spec[field];
      // Discord refuses a start in the past: a late series keeps its event until it goes live.
      if (patch.start !== undefined && Date.parse(patch.start) <= now) {
        delete patch.start;
        delete patch.end;
      }
      if (Object.keys(patch).length > 0) return [{ op: 'edit', patch, why: 'moved' }];
    }
    return [];
  }
  if (event.status === 2 && (isOver(series) || isGone(series)))
    return [{ op: 'edit', patch: { status: 3 }, why: 'over' }];
  return [];
}

/** One server's wish: its tenant, and the teams its event channels follow. */
export interface GuildWish {
  tenantId: string;
  guildId: string;
  teams: Set<number>;
  /** The server's language: the words of its events' descriptions. */
  t: Translate;
}

/** The servers that want events, from the notifier's subscriptions (Discord channels with `events`). */
export function eventWishes(subs: Iterable<Subscription>): Map<string, GuildWish> {
  const wishes = new Map<string, GuildWish>();
  for (const sub of subs) {
    if (!sub.events || sub.platform !== 'discord' || sub.channelId.startsWith('dm:')) continue;
    const guildId = sub.tenantId.slice('discord:'.length);
    const wish = wishes.get(guildId) ?? {
      tenantId: sub.tenantId,
      guildId,
      teams: new Set<number>(),
      t: sub.t,
    };
    for (const team of sub.teams) wish.teams.add(team);
    wishes.set(guildId, wish);
  }
  return wishes;
}

export interface MirrorInput {
  now: number;
  wishes: Map<string, GuildWish>;
  /** Every series the notifier knows (its window), by id. */
  series: ReadonlyMap<number, Series>;
  /** The teams playing a series (from the rosters), empty while unknown. */
  teamsOf(series: Series): number[];
  labels: SeriesLabels;
  streamOf(series: Series): Caster | undefined;
}

export interface MirrorOptions {
  api: ScheduledEventsApi;
  /** Where the events Matchday made, and those deleted by hand, are recorded (the notifier's ledger). */
  ledger: EventLedger;
  tenants: { update(tenantId: string, change: (current: Settings) => Settings): Promise<Settings> };
  logger: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Simulated ms between full listings of a server's events. Default 10 minutes. */
  relistMs?: number;
  /** Most uncompleted events in a server (Discord: 100). */
  limit?: number;
}

export interface MirrorStats {
  created: number;
  edited: number;
  removed: number;
  lists: number;
}

export class ScheduledEventsMirror {
  readonly stats: MirrorStats = { created: 0, edited: 0, removed: 0, lists: 0 };
  readonly #o: Required<MirrorOptions>;
  /** Per server: its listed events (all of them, Matchday's or not) and when they were listed. */
  readonly #guilds = new Map<string, { events: Map<string, GuildEvent>; listedAt: number }>();
  /** Servers whose events were refused for good (until the setting is turned on again). */
  readonly #blocked = new Set<string>();
  /**
   * `guild:series` whose event someone deleted by hand, as read from the ledger (its `deleted` mark is
   * final, so what is here stays true); a series not here is checked in the ledger before it is made.
   */
  readonly #deletedByHand = new Set<string>();

  constructor(options: MirrorOptions) {
    this.#o = { relistMs: 10 * 60_000, limit: DISCORD_EVENT_LIMIT, ...options };
  }

  /** Brings every server's events in step with its followed series; a server's failure stays its own. */
  async sync(input: MirrorInput): Promise<void> {
    for (const blocked of this.#blocked) if (!input.wishes.has(blocked)) this.#blocked.delete(blocked);
    // Servers that turned events off (in this process' memory) get their scheduled events removed.
    const guilds = new Set([...input.wishes.keys(), ...this.#guilds.keys()]);
    for (const guildId of guilds) {
      if (this.#blocked.has(guildId)) continue;
      const wish = input.wishes.get(guildId);
      try {
        await this.#syncGuild(guildId, wish, input);
      } catch (error) {
        await this.#failed(guildId, wish, error);
      }
    }
  }

  async #syncGuild(guildId: string, wish: GuildWish | undefined, input: MirrorInput): Promise<void> {
    const { api } = this.#o;
    let state = this.#guilds.get(guildId);
    const fresh = !state || input.now - state.listedAt >= this.#o.relistMs;
    if (!state || fresh) {
      const listed = await api.list(guildId);
      this.stats.lists++;
      state = { events: new Map(listed.map((e) => [e.id, e])), listedAt: input.now };
      this.#guilds.set(guildId, state);
    }
    const ours = new Map<number, GuildEvent>();
    for (const event of state.events.values()) {
      const series = seriesOfEvent(event);
      if (series !== undefined && (event.status === 1 || event.status === 2)) ours.set(series, event);
    }
    const open = () => [...state.events.values()].filter((e) => e.status === 1 || e.status === 2).length;
    const followedIds = (s: Series) => wish !== undefined && input.teamsOf(s).some((t) => wish.teams.has(t));
    const candidates = [...input.series.values()]
      .filter((s) => s.start !== null && (ours.has(s.id) || followedIds(s)))
      .sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!) || a.id - b.id);
    if (fresh) await this.#reconcile(guildId, ours, candidates, input.now);
    for (const series of candidates) {
      const event = ours.get(series.id);
      const followed = followedIds(series) && !this.#deletedByHand.has(`${guildId}:${series.id}`);
      const spec = eventSpec(series, input.labels, input.streamOf(series), wish?.t);
      for (const action of eventAction(series, event, followed, spec, input.now)) {
        if (action.op === 'create') {
          if (open() >= this.#o.limit) break;
          // Another process may have seen a deletion by hand (the gateway) since this server's listing.
          if (await this.#deletedMarked(guildId, series.id)) break;
          const made = await api.create(guildId, action.spec);
          state.events.set(made.id, made);
          this.stats.created++;
          // Lost if this fails: the next listing (the failure relists) finds the event and adopts it.
          await this.#o.ledger.markSentMany([[eventKeys(guildId, series.id).made, made.id]]);
        } else if (action.op === 'edit' && event) {
          // Closed by Matchday itself: recorded first, so its absence later is not taken for a deletion by hand.
          if (action.patch.status === 3 || action.patch.status === 4)
            await this.#closing(guildId, event, action.why);
          const edited = await this.#edit(guildId, event, action.patch);
          if (!edited) break;
          state.events.set(edited.id, edited);
          Object.assign(event, edited);
          this.stats.edited++;
        } else if (action.op === 'remove' && event) {
          await this.#closing(guildId, event, 'removed');
          await api.remove(guildId, event.id);
          state.events.delete(event.id);
          this.stats.removed++;
        }
      }
    }
    if (!wish && ![...state.events.values()].some((e) => seriesOfEvent(e) !== undefined && e.status === 1))
      this.#guilds.delete(guildId);
  }

  /** An edit; an event deleted by hand meanwhile (10070) is forgotten and not made again. */
  async #edit(guildId: string, event: GuildEvent, patch: EventPatch): Promise<GuildEvent | undefined> {
    try {
      return await this.#o.api.edit(guildId, event.id, patch);
    } catch (error) {
      if (error instanceof DeliveryError && error.code === 'UNKNOWN_EVENT') {
        this.#guilds.get(guildId)?.events.delete(event.id);
        const series = seriesOfEvent(event);
        if (series !== undefined)
          await this.#markDeleted(guildId, series, event.id, 'Discord answered 10070');
        return undefined;
      }
      throw error;
    }
  }

  /**
   * After a fresh listing: the series' records read in one round trip. A `deleted` mark is kept in
   * memory; a listed event of Matchday's that `made` does not hold is adopted (made before the record
   * existed, or its record was lost); an event `made` holds as open that the listing lacks, before
   * the series' start, was deleted by hand.
   */
  async #reconcile(
    guildId: string,
    ours: ReadonlyMap<number, GuildEvent>,
    candidates: readonly Series[],
    now: number,
  ): Promise<void> {
    const keys = candidates.map((series) => ({ series, ...eventKeys(guildId, series.id) }));
    const records = await this.#o.ledger.getMany(keys.flatMap((k) => [k.made, k.deleted]));
    const adopt: [string, string][] = [];
    for (const { series, made, deleted } of keys) {
      if (records.has(deleted)) {
        this.#deletedByHand.add(`${guildId}:${series.id}`);
        continue;
      }
      const record = records.get(made);
      const open = record?.state === 'sent' ? record.messageId : undefined;
      const listed = ours.get(series.id);
      if (listed) {
        if (open !== listed.id) adopt.push([made, listed.id]);
      } else if (open !== undefined && beforeStart(series, now)) {
        await this.#markDeleted(guildId, series.id, open, "missing from the server's events");
      }
    }
    await this.#o.ledger.markSentMany(adopt);
  }

  /** True when the series' event was deleted by hand in this server (memory first, then the ledger). */
  async #deletedMarked(guildId: string, seriesId: number): Promise<boolean> {
    const tag = `${guildId}:${seriesId}`;
    if (this.#deletedByHand.has(tag)) return true;
    if (!(await this.#o.ledger.get(eventKeys(guildId, seriesId).deleted))) return false;
    this.#deletedByHand.add(tag);
    return true;
  }

  /** Matchday is about to cancel, complete or delete its event: its absence from now on is its own doing. */
  async #closing(guildId: string, event: GuildEvent, why: string): Promise<void> {
    const series = seriesOfEvent(event);
    if (series === undefined) return;
    await this.#o.ledger.fail(
      eventKeys(guildId, series).made,
      `closed by Matchday: ${why} (event ${event.id})`,
    );
  }

  /** Someone deleted the series' event by hand: recorded for good, never made again in this server. */
  async #markDeleted(guildId: string, seriesId: number, eventId: string, how: string): Promise<void> {
    await this.#o.ledger.fail(
      eventKeys(guildId, seriesId).deleted,
      `deleted by hand in Discord (event ${eventId}: ${how})`,
    );
    this.#deletedByHand.add(`${guildId}:${seriesId}`);
    this.#o.logger.info(
      { guild: guildId, series: seriesId, event: eventId, how },
      'a scheduled event was deleted by hand in Discord; it is not made again',
    );
  }

  /**
   * Discord's gateway said GUILD_SCHEDULED_EVENT_DELETE (for any delete, Matchday's own too): an event
   * that `made` still holds as Matchday's open event was deleted by hand. Other processes see the
   * mark in the ledger.
   */
  async deletedInDiscord(guildId: string, event: { id: string; description?: string | null }): Promise<void> {
    const state = this.#guilds.get(guildId);
    const known = state?.events.get(event.id);
    state?.events.delete(event.id);
    const series = seriesOfEvent({ description: event.description ?? known?.description ?? '' });
    if (series === undefined) return;
    const record = await this.#o.ledger.get(eventKeys(guildId, series).made);
    if (record?.state === 'sent' && record.messageId === event.id)
      await this.#markDeleted(guildId, series, event.id, 'GUILD_SCHEDULED_EVENT_DELETE');
  }

  async #failed(guildId: string, wish: GuildWish | undefined, error: unknown): Promise<void> {
    const known = error instanceof DeliveryError ? error : undefined;
    if (known?.code === 'EVENT_LIMIT') {
      // Counted from a listing that missed events made meanwhile by people: list again next tick.
      this.#guilds.delete(guildId);
      this.#o.logger.warn(
        { guild: guildId },
        'Discord refused a scheduled event: the server has 100 uncompleted',
      );
      return;
    }
    if (known?.kind !== 'permanent' || !wish) {
      this.#guilds.delete(guildId);
      this.#o.logger.warn({ guild: guildId, code: known?.code, err: error }, 'scheduled events: will retry');
      return;
    }
    this.#blocked.add(guildId);
    this.#guilds.delete(guildId);
    this.#o.logger.warn({ guild: guildId, code: known.code }, 'scheduled events turned off');
    try {
      await this.#o.tenants.update(wish.tenantId, (settings) => {
        const on = settings.channels.filter((c) => c.events);
        if (on.length === 0) return settings;
        for (const channel of on) channel.events = false;
        settings.adminNotices.push([
          `Discord scheduled events were turned off: ${known.message} Give Matchday the Manage Events permission in Server Settings > Roles, then turn them on again with `,
          cmd('settings events'),
          '.',
        ]);
        return settings;
      });
    } catch (saveError) {
      this.#o.logger.warn({ guild: guildId, err: saveError }, 'could not record scheduled events turned off');
    }
  }
}
