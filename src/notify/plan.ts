/**
 * What is due, as pure functions of settings, series and "now": no I/O, no clock, so every rule
 * (reminder times, dropping late reminders, digest slots across daylight-saving changes, the late
 * window for digests) is unit-tested on its own. The notifier only feeds these and acts on them.
 */
import { DateTime } from 'luxon';
import type { NotificationKind, Settings, SpoilerPolicy } from '../bot/settings.ts';
import type { Platform } from '../core/tenant-id.ts';
import { type Translate, translator } from '../i18n/i18n.ts';
import type { Series } from '../protocol/types.ts';

/** A digest missed by downtime is still sent within this long after its slot, never later. */
export const DIGEST_LATE_WINDOW_MS = 3 * 3600_000;
/** Every tier the service knows; a union holding all of them needs no tier condition. */
export const ALL_TIERS = [1, 2, 3, 4] as const;

/** One channel's subscription with the tenant's defaults filled in. */
export interface Subscription {
  tenantId: string;
  platform: Platform;
  channelId: string;
  /** null: every game. */
  games: ReadonlySet<number> | null;
  tiers: ReadonlySet<number>;
  /** The channel's teams and the tenant's follows: announced whatever their tier or game. */
  teams: ReadonlySet<number>;
  kinds: ReadonlySet<NotificationKind>;
  /** Minutes before the start, largest first. */
  leads: readonly number[];
  role?: string;
  spoilers: SpoilerPolicy;
  /** The language its notifications are written in (the tenant's, or the person's). */
  t: Translate;
  timezone: string;
  digestTime: string;
  digestWhenEmpty: 'skip' | 'say';
  /** When the channel was subscribed (epoch ms); absent: always (see `announces`). */
  since?: number;
  /**
   * A person's quiet hours (`HH:MM` in `timezone`; DMs only): a reminder due then is held until they
   * end, and dropped if by then it is stale (the series started, or a shorter lead is due instead).
   */
  quiet?: { from: string; to: string };
  /** Discord: mirror this channel's followed series as the server's scheduled events. */
  events?: boolean;
  /** Each finished game of a live series as a reply in a thread under its live card. */
  threads?: boolean;
  /**
   * A person's options per followed team (DMs; `/me follow tier: qualifiers:`): only series of
   * that tier or a higher one, and no qualifiers. A team without an entry: every series.
   */
  followOptions?: ReadonlyMap<number, { tier?: number; noQualifiers: boolean; since?: number }>;
}

/** A qualifier: its tournament's or its stage's title says so ("Open Qualifier", "Qualifier Playoffs"). */
export function isQualifierTitle(...titles: (string | undefined)[]): boolean {
  return titles.some((t) => t !== undefined && /qualif/i.test(t));
}

/** Whether `now` falls in the quiet hours [from, to) in `timezone`; a span may cross midnight. */
export function inQuietHours(quiet: { from: string; to: string }, timezone: string, now: number): boolean {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const from = minutes(quiet.from);
  const to = minutes(quiet.to);
  if (from === to) return false;
  const local = DateTime.fromMillis(now, { zone: timezone });
  const at = local.hour * 60 + local.minute;
  return from < to ? at >= from && at < to : at >= from || at < to;
}

/** The platform of a tenant id (`discord:123` -> `discord`). */
export function platformOf(tenantId: string): Platform {
  const prefix = tenantId.slice(0, tenantId.indexOf(':'));
  if (prefix === 'discord' || prefix === 'slack' || prefix === 'terminal') return prefix;
  throw new RangeError(`"${tenantId}" is not a tenant id; expected <platform>:<id>, e.g. discord:1234.`);
}

/** The active subscriptions of one tenant (disabled channels are left out). */
export function subscriptionsOf(tenantId: string, settings: Settings): Subscription[] {
  const platform = platformOf(tenantId);
  const subs: Subscription[] = [];
  for (const channel of settings.channels) {
    if (channel.disabled) continue;
    const games = channel.games.length > 0 ? channel.games : settings.games;
    const kinds = new Set(channel.kinds);
    // The tenant-wide switch for live cards turns them off in every channel.
    if (!settings.liveUpdates) kinds.delete('live');
    const sub: Subscription = {
      tenantId,
      platform,
      channelId: channel.id,
      games: games.length > 0 ? new Set(games) : null,
      tiers: new Set(channel.tiers.length > 0 ? channel.tiers : settings.tiers),
      teams: new Set([...channel.teams, ...settings.follows]),
      kinds,
      leads: [...new Set(channel.leads.length > 0 ? channel.leads : settings.reminderLeads)].sort(
        (a, b) => b - a,
      ),
      spoilers: settings.spoilers,
      t: translator(settings.language),
      timezone: settings.timezone,
      digestTime: settings.digestTime,
      digestWhenEmpty: settings.digestWhenEmpty,
    };
    if (channel.role !== undefined) sub.role = channel.role;
    if (channel.since !== undefined) sub.since = Date.parse(channel.since);
    if (channel.events) sub.events = true;
    if (channel.threads) sub.threads = true;
    subs.push(sub);
  }
  return subs;
}

/** What all subscriptions together need read: the one union query of a tick. */
export interface Union {
  /** null: every game. */
  games: number[] | null;
  tiers: number[];
  teams: number[];
}

export function unionOf(subs: Iterable<Subscription>): Union {
  let allGames = false;
  const games = new Set<number>();
  const tiers = new Set<number>();
  const teams = new Set<number>();
  for (const sub of subs) {
    if (sub.games === null) allGames = true;
    else for (const g of sub.games) games.add(g);
    for (const t of sub.tiers) tiers.add(t);
    for (const t of sub.teams) teams.add(t);
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { games: allGames ? null : sorted(games), tiers: sorted(tiers), teams: sorted(teams) };
}

/**
 * Does the subscription want this series? A followed team's series always (within a person's
 * options for that team: tier, qualifiers); otherwise by game and tier. `teamsOf` names the teams
 * playing (from the rosters), empty while unknown; `qualifier` says whether the series is one.
 */
export function wants(
  sub: Subscription,
  series: Series,
  teamsOf: readonly number[],
  qualifier = false,
): boolean {
  for (const team of teamsOf) {
    if (!sub.teams.has(team)) continue;
    const options = sub.followOptions?.get(team);
    if (!options) return true;
    if ((options.tier === undefined || series.tier <= options.tier) && !(options.noQualifiers && qualifier))
      return true;
  }
  if (sub.games !== null && !sub.games.has(series.game.id)) return false;
  return sub.tiers.has(series.tier);
}

/**
 * Does a channel subscribed at `sub.since` hear of this series' `event`? Not of a result when the
 * series ended before the subscription (a new channel, or the terminal's first start, is not
 * flooded with the past), nor get a live card of a series that went live before it (it gets the
 * result when the series ends). A person's DMs go by when they followed each team (`teamsOf`, the
 * teams playing): a series is announced when one of its followed teams was followed by then.
 */
export function announces(
  sub: Subscription,
  series: Series,
  event: 'live' | 'result',
  teamsOf: readonly number[] = [],
): boolean {
  const at = event === 'result' ? (series.end ?? series.start) : series.start;
  if (at === null) return true;
  const when = Date.parse(at);
  if (sub.since !== undefined && when < sub.since) return false;
  const followed = sub.followOptions ? teamsOf.filter((t) => sub.teams.has(t)) : [];
  if (followed.length === 0) return true;
  return followed.some((t) => {
    const since = sub.followOptions?.get(t)?.since;
    return since === undefined || when >= since;
  });
}

/** Can this series still get a reminder? Not when deleted, postponed, without a start, or no longer upcoming. */
export function remindable(series: Series): boolean {
  return (
    series.deleted_at === null &&
    series.postponed_from === null &&
    series.start !== null &&
    (series.lifecycle === 'upcoming' || series.lifecycle === 'unknown')
  );
}

export type ReminderAction =
  /** Its time has come and the series has not started: send it now. */
  | 'send'
  /** Not yet. */
  | 'wait'
  /** Its time passed and the series has started (or is gone): never sent late. */
  | 'drop'
  /** A shorter lead is also due (after downtime): only the latest reminder goes out. */
  | 'superseded';

export interface ReminderPlan {
  lead: number;
  /** When it is due (start minus lead). */
  at: number;
  action: ReminderAction;
}

/**
 * The reminders of one series for the given leads at `now`. Only the shortest due lead is sent;
 * longer due leads are superseded (they were either sent on time already, or missed by downtime).
 * `supersede: false` plans the leads independently (for leads pooled from several channels).
 */
export function planReminders(
  series: Series,
  leads: readonly number[],
  now: number,
  options: { supersede?: boolean } = {},
): ReminderPlan[] {
  if (series.start === null) return [];
  const start = Date.parse(series.start);
  const open = remindable(series) && now < start;
  const plans: ReminderPlan[] = leads.map((lead) => {
    const at = start - lead * 60_000;
    if (now < at) return { lead, at, action: open ? 'wait' : 'drop' };
    return { lead, at, action: open ? 'send' : 'drop' };
  });
  const due = plans.filter((p) => p.action === 'send');
  if (options.supersede !== false && due.length > 1) {
    const shortest = Math.min(...due.map((p) => p.lead));
    for (const p of due) if (p.lead !== shortest) p.action = 'superseded';
  }
  // A removed series never gets its future reminders either.
  if (!remindable(series)) for (const p of plans) if (p.action === 'wait') p.action = 'drop';
  return plans;
}

/**
 * The last moment a channel's reminder for `lead` could go out (epoch ms): its series' start, or
 * earlier, when the channel's next shorter lead came due (that one replaces it, lateness rule 1).
 */
export function reminderLastMoment(start: number, lead: number, leads: readonly number[]): number {
  const shorter = leads.filter((l) => l < lead);
  return shorter.length === 0 ? start : start - Math.max(...shorter) * 60_000;
}

export interface DigestSlot {
  /** The tenant's local date of the digest (YYYY-MM-DD): the digest's identity. */
  localDate: string;
  /** The instant of the slot: the local time of day on that date, resolved in the zone. */
  at: number;
  /** The local day's bounds as instants (23 or 25 hours long on daylight-saving days). */
  dayStart: number;
  dayEnd: number;
}

/**
 * The digest slot of a local date. A time of day that does not exist on a spring-forward day
 * (02:30 in Europe/Berlin) moves forward by the gap, as luxon resolves it; one that exists twice on a
 * fall-back day is the first of the two. Either way each local date has exactly one slot.
 */
export function digestSlot(localDate: string, timezone: string, hhmm: string): DigestSlot {
  // Every tick asks for the same few hundred (zone, time, date) slots: resolved once each.
  const memoKey = `${localDate}|${timezone}|${hhmm}`;
  const memo = slotMemo.get(memoKey);
  if (memo) return memo;
  if (slotMemo.size > 50_000) slotMemo.clear();
  const slot = resolveSlot(localDate, timezone, hhmm);
  slotMemo.set(memoKey, slot);
  return slot;
}

const slotMemo = new Map<string, DigestSlot>();

function resolveSlot(localDate: string, timezone: string, hhmm: string): DigestSlot {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  const day = DateTime.fromISO(localDate, { zone: timezone }).startOf('day');
  const at = day.set({ hour, minute, second: 0, millisecond: 0 });
  return {
    localDate,
    at: at.toMillis(),
    dayStart: day.toMillis(),
    dayEnd: day.plus({ days: 1 }).startOf('day').toMillis(),
  };
}

/**
 * The digest to send at `now`, if any: the latest slot that has passed, within the late window.
 * Checks today and yesterday (a 23:00 slot is still due at 01:30 after downtime).
 */
export function dueDigest(
  now: number,
  timezone: string,
  hhmm: string,
  lateWindowMs = DIGEST_LATE_WINDOW_MS,
): DigestSlot | undefined {
  for (const date of localDates(now, timezone)) {
    const slot = digestSlot(date, timezone, hhmm);
    if (slot.at <= now && now < slot.at + lateWindowMs) return slot;
  }
  return undefined;
}

/** Today's and yesterday's local dates at `now` in the zone (the last pair is kept: ticks repeat). */
function localDates(now: number, timezone: string): [string, string] {
  const cached = datesMemo.get(timezone);
  if (cached && cached.now === now) return cached.dates;
  const today = DateTime.fromMillis(now, { zone: timezone });
  const dates: [string, string] = [today.toISODate()!, today.minus({ days: 1 }).toISODate()!];
  datesMemo.set(timezone, { now, dates });
  return dates;
}

const datesMemo = new Map<string, { now: number; dates: [string, string] }>();

/** The series a digest lists: those starting in the local day, not deleted and not finished. */
export function digestSeries(series: Iterable<Series>, slot: DigestSlot): Series[] {
  const out: Series[] = [];
  for (const s of series) {
    if (s.start === null || s.deleted_at !== null) continue;
    if (s.lifecycle !== 'upcoming' && s.lifecycle !== 'live' && s.lifecycle !== 'unknown') continue;
    const start = Date.parse(s.start);
    if (start >= slot.dayStart && start < slot.dayEnd) out.push(s);
  }
  return out.sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!) || a.id - b.id);
}
