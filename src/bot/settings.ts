/**
 * A tenant's settings: one Discord guild or Slack workspace (or the terminal). Stored as one JSON
 * document per tenant, validated by this schema, with a version number and a migration path.
 */
import { z } from 'zod';
import { LOCALES } from '../i18n/i18n.ts';

export const SETTINGS_VERSION = 1;

export const NOTIFICATION_KINDS = ['reminders', 'live', 'results', 'digest'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** `show`: results in the clear; `spoiler`: wrapped as a spoiler; `hide`: withheld. */
export const SPOILER_POLICIES = ['show', 'spoiler', 'hide'] as const;
export type SpoilerPolicy = (typeof SPOILER_POLICIES)[number];

/** Reminder leads: 1 to 5 of them, each 1 minute to 24 hours before the start. */
export const leadMinutes = z
  .array(
    z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
  )
  .min(1)
  .max(5);
/** A time of day, HH:MM. */
export const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, e.g. 09:00');

/** Is `zone` an IANA time zone this runtime knows (e.g. Europe/Berlin)? */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const channelSubscriptionSchema = z.object({
  /** The platform's channel id. */
  id: z.string().min(1),
  name: z.string().optional(),
  /** Game ids; empty means the tenant's games. */
  games: z.array(z.number().int().nonnegative()).default([]),
  /** Tiers; empty means the tenant's tiers. */
  tiers: z.array(z.number().int().min(1).max(4)).default([]),
  /** Team ids announced whatever their tier. */
  teams: z.array(z.number().int().nonnegative()).default([]),
  kinds: z.array(z.enum(NOTIFICATION_KINDS)).default([...NOTIFICATION_KINDS]),
  /** Minutes before the start; empty means the tenant's reminder lead times. */
  leads: z
    .array(
      z
        .number()
        .int()
        .min(1)
        .max(24 * 60),
    )
    .max(5)
    .default([]),
  /** A role id to mention on notifications. */
  role: z.string().optional(),
  /**
   * When the channel was subscribed (ISO). Nothing that was over before then is announced here: no
   * results of series that ended earlier, no live card of a series already live (its result still
   * comes). Absent on subscriptions older than this field: no such limit.
   */
  since: z.iso.datetime().optional(),
  /** Set when a permanent delivery failure turned this subscription off. */
  disabled: z.object({ reason: z.string(), at: z.string() }).optional(),
  /**
   * Discord only (`/settings events`): the followed series of this channel (its teams and the
   * server's follows) are mirrored as the server's scheduled events (`src/notify/scheduled-events.ts`).
   */
  events: z.boolean().optional(),
  /**
   * `/settings threads`: each live card gets a thread (Discord thread, Slack thread replies) where
   * every finished game is posted as a reply, the running story under the card edited in place.
   */
  threads: z.boolean().optional(),
});
export type ChannelSubscription = z.infer<typeof channelSubscriptionSchema>;

/**
 * A stored message for people (an admin notice, a personal notice): plain text, or text with
 * commands in it (`{ command: 'settings' }`), which each platform writes in its own syntax.
 */
export const noticeSchema = z.union([
  z.string(),
  z.array(z.union([z.string(), z.object({ command: z.string() })])),
]);

export const settingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION),
  /** Game ids; empty means every game. */
  games: z.array(z.number().int().nonnegative()).default([]),
  tiers: z.array(z.number().int().min(1).max(4)).min(1).default([1, 2]),
  timezone: z.string().refine(isTimeZone, 'an IANA time zone such as Europe/Berlin').default('UTC'),
  spoilers: z.enum(SPOILER_POLICIES).default('show'),
  /** The language of every reply, card and notification (`src/i18n/`). */
  language: z.enum(LOCALES).default('en'),
  reminderLeads: leadMinutes.default([15]),
  digestTime: hhmm.default('09:00'),
  /** On a day with nothing scheduled: skip the digest or say so. */
  digestWhenEmpty: z.enum(['skip', 'say']).default('say'),
  liveUpdates: z.boolean().default(true),
  /** Teams the tenant follows: announced in every channel whatever their tier. */
  follows: z.array(z.number().int().nonnegative()).default([]),
  /**
   * One subscription per channel id: a document listing a channel twice (written around
   * `/settings`, which refuses it) keeps the first, so the channel is not notified twice.
   */
  channels: z
    .array(channelSubscriptionSchema)
    .default([])
    .transform((list) => list.filter((c, i) => list.findIndex((other) => other.id === c.id) === i)),
  /** Messages for the tenant's admins, shown once in the next admin command's answer. */
  adminNotices: z.array(noticeSchema).default([]),
});
export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(): Settings {
  return settingsSchema.parse({ version: SETTINGS_VERSION });
}

/**
 * Migrations from each older version to the next. A stored document older than SETTINGS_VERSION is
 * walked forward one step at a time, then validated.
 */
const MIGRATIONS: Record<number, (old: Record<string, unknown>) => Record<string, unknown>> = {
  // 0: the unversioned shape of early development builds, where `spoilers` was a boolean.
  0: (old) => ({ ...old, version: 1, spoilers: old.spoilers === true ? 'spoiler' : 'show' }),
};

/** Reads a stored document of any known version into current settings; unknown junk becomes defaults. */
export function migrateSettings(stored: unknown): Settings {
  if (stored === undefined || stored === null || typeof stored !== 'object') return defaultSettings();
  let doc = stored as Record<string, unknown>;
  let version = typeof doc.version === 'number' ? doc.version : 0;
  while (version < SETTINGS_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) break;
    doc = step(doc);
    version = typeof doc.version === 'number' ? doc.version : version + 1;
  }
  const parsed = settingsSchema.safeParse(doc);
  return parsed.success ? parsed.data : defaultSettings();
}
