/**
 * Personal profiles (docs/commands.md, "Follow privately"): what one person follows, wherever they use
 * Matchday, stored per user, not per tenant. A user is `<platform>:<user id>` (Discord user ids and
 * terminal users are global; a Slack user is `slack:<workspace>.<user>`, since Slack ids belong to a
 * workspace). Each has one profile document in the same store as the tenant settings (a `users`
 * table beside `tenants` in SQLite, `matchday:users:*` keys in Redis), changed the same way:
 * compare-and-set on a revision, the change re-applied when another writer got there first.
 *
 * Calendar tokens: a profile holds its calendar token; a second document, `calendar:<sha256 of the
 * token>`, names the profile it belongs to, so a calendar request finds its owner in two reads
 * without listing anyone. The profile is the truth: a token whose profile no longer holds it
 * (renewed, revoked) is unknown, whatever index document is left behind.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { safeUrl } from '../config.ts';
import { UserError } from '../core/errors.ts';
import type { Platform } from '../core/tenant-id.ts';
import { LOCALES } from '../i18n/i18n.ts';
import { type Backend, changeDocument, guarded, MAX_ATTEMPTS, openDocuments } from './documents.ts';
import type { Logger } from './logger.ts';
import { hhmm, isTimeZone, leadMinutes, noticeSchema, SPOILER_POLICIES } from './settings.ts';
import type { TenantStoreOptions } from './store-backend.ts';
import { classifyStoreError, type DocumentStore, StoreError } from './store-backend.ts';

export const PROFILE_VERSION = 1;

/** Most teams one person follows. */
export const MAX_PERSONAL_FOLLOWS = 25;

export const personalFollowSchema = z.object({
  team: z.number().int().nonnegative(),
  /** Only series of this tier or a higher one (1 is the top); absent: every tier. */
  tier: z.number().int().min(1).max(4).optional(),
  /** Leave out qualifiers (series whose tournament or stage is a qualifier). */
  noQualifiers: z.boolean().default(false),
  /** When the person began following it: no live card or result of what was already live or over then. */
  since: z.iso.datetime().optional(),
});
export type PersonalFollow = z.infer<typeof personalFollowSchema>;

export const profileSchema = z.object({
  version: z.literal(PROFILE_VERSION),
  follows: z.array(personalFollowSchema).max(MAX_PERSONAL_FOLLOWS).default([]),
  /** Reminder minutes before the start (DM reminders, calendar alarms). */
  leads: leadMinutes.default([15]),
  timezone: z.string().refine(isTimeZone, 'an IANA time zone such as Europe/Berlin').default('UTC'),
  /**
   * What reaches the person by DM of their teams' series: reminders at their leads, a live card when
   * a series goes live (updated in place, frozen with the result), and the result (a post, when the
   * live card is off). `/me dms` changes it.
   */
  dms: z.array(z.enum(['reminders', 'live', 'results'])).default(['reminders', 'live', 'results']),
  /** How results appear in their DMs: in the clear, behind a spoiler, or withheld. */
  spoilers: z.enum(SPOILER_POLICIES).default('spoiler'),
  /** The language of their DMs (`en`, `pt`, `de`); English until they choose another. */
  language: z.enum(LOCALES).default('en'),
  /** No DMs between these local times (`from` may be later than `to`: over midnight): held, then sent unless stale. */
  quiet: z.object({ from: hhmm, to: hhmm }).optional(),
  /** The secret of the personal calendar URL, and when it was issued. */
  calendar: z.object({ token: z.string().min(32), issuedAt: z.iso.datetime() }).optional(),
  /** Set when a DM could not be delivered (DMs closed): DM reminders stop until the person follows again. */
  paused: z.object({ reason: z.string(), at: z.iso.datetime() }).optional(),
  /** Messages for the person, shown once in their next /me answer. */
  notices: z.array(noticeSchema).max(10).default([]),
});
export type Profile = z.infer<typeof profileSchema>;

export function defaultProfile(): Profile {
  return profileSchema.parse({ version: PROFILE_VERSION });
}

/** The platform's own id of the person behind a store key (`slack:T1.U2` -> `U2`). */
export function personIdOf(userKey: string): string {
  const id = userKey.slice(userKey.indexOf(':') + 1);
  return userKey.startsWith('slack:') ? id.slice(id.indexOf('.') + 1) : id;
}

/** The store key of the person behind a command call. */
export function userKeyOf(platform: Platform, tenantKey: string, userId: string): string {
  return platform === 'slack' ? `slack:${tenantKey}.${userId}` : `${platform}:${userId}`;
}

const USER_KEY = /^(discord|slack|terminal):[A-Za-z0-9_.-]{1,140}$/;
/** 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface UserStore {
  /** The person's profile; defaults when they never saved one. */
  get(userKey: string): Promise<Profile>;
  /** Applies `change` to the latest stored profile atomically (may run more than once); returns what was stored. */
  update(userKey: string, change: (current: Profile) => Profile): Promise<Profile>;
  /** The person's calendar token: the stored one, or a new one (also when `renew`: the old one stops working). */
  calendarToken(userKey: string, renew?: boolean): Promise<string>;
  /** The person a calendar token belongs to and their profile; undefined when unknown or revoked. */
  ownerOfToken(token: string): Promise<{ userKey: string; profile: Profile } | undefined>;
  /** A notification channel's calendar token (`/settings calendar`), made on first use or when `renew`. */
  channelCalendarToken(tenantId: string, channelId: string, renew?: boolean): Promise<string>;
  /** The channel a calendar token belongs to; undefined when unknown or revoked. */
  channelOfToken(token: string): Promise<{ tenantId: string; channelId: string } | undefined>;
  /** Every person with a stored profile. */
  users(): Promise<string[]>;
  close(): Promise<void>;
}

function checkUserKey(userKey: string): void {
  if (!USER_KEY.test(userKey))
    throw new UserError('BAD_USER', `"${userKey.slice(0, 60)}" is not a user; expected <platform>:<id>.`);
}

/** A channel's calendar document: `channel:<tenant id>/<channel id>`. */
const CHANNEL_KEY = /^channel:((?:discord|slack|terminal):[A-Za-z0-9_.-]{1,64})\/([A-Za-z0-9_#:-]{1,64})$/;
const channelDoc = (tenantId: string, channelId: string) => {
  const key = `channel:${tenantId}/${channelId}`;
  if (!CHANNEL_KEY.test(key))
    throw new UserError('BAD_CHANNEL', 'That is not a channel of a server or workspace.');
  return key;
};
const calendarSchema = z.object({ token: z.string().min(32), issuedAt: z.iso.datetime() });

const tokenDoc = (token: string) => `calendar:${createHash('sha256').update(token).digest('hex')}`;
const newToken = () => randomBytes(32).toString('base64url');

/** A backend failure as a `StoreError` that says what the store was doing. */
function failure(where: string, action: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  return new StoreError(
    `The profile store (${where}) failed to ${action}: ${(error as Error)?.message ?? String(error)}`,
    classifyStoreError(error),
    { cause: error },
  );
}

/** The stored profile (defaults when absent or invalid) and the revision it was read at. */
async function readProfile(
  backend: Backend,
  userKey: string,
): Promise<{ profile: Profile; revision: number }> {
  const stored = await guarded(backend, 'read a profile', () => backend.documents.read(userKey));
  if (!stored) return { profile: defaultProfile(), revision: 0 };
  let value: unknown;
  try {
    value = JSON.parse(stored.doc);
  } catch {
    value = undefined;
  }
  const parsed = profileSchema.safeParse(value);
  if (!parsed.success) backend.logger.warn({ user: userKey }, 'stored profile invalid; using defaults');
  return { profile: parsed.success ? parsed.data : defaultProfile(), revision: stored.revision };
}

/** The profile as stored, or `INVALID_PROFILE` naming the first problem. */
function validProfile(profile: Profile): Profile {
  const parsed = profileSchema.safeParse(profile);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UserError(
    'INVALID_PROFILE',
    `That is not valid: ${issue?.path.join('.') || 'profile'}: ${issue?.message ?? 'invalid'}.`,
  );
}

async function updateProfile(
  backend: Backend,
  userKey: string,
  change: (current: Profile) => Profile,
): Promise<Profile> {
  checkUserKey(userKey);
  return changeDocument(backend, userKey, {
    read: () => readProfile(backend, userKey).then(({ profile: value, revision }) => ({ value, revision })),
    apply: (current) => validProfile(change(current)),
    saving: 'save a profile',
    busy: `The profile of ${userKey} kept changing while saving it.`,
  });
}

/** The owner an index document names for a well-formed token, if any. */
async function indexOwner(backend: Backend, token: string): Promise<string | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const index = await guarded(backend, 'read a calendar token', () =>
    backend.documents.read(tokenDoc(token)),
  );
  if (!index) return undefined;
  const owner = (JSON.parse(index.doc) as { owner?: unknown }).owner;
  return typeof owner === 'string' ? owner : undefined;
}

const sameToken = (held: string | undefined, token: string) =>
  held !== undefined &&
  held.length === token.length &&
  timingSafeEqual(Buffer.from(held), Buffer.from(token));

async function removeToken(backend: Backend, token: string): Promise<void> {
  await backend.documents
    .remove(tokenDoc(token))
    .catch((error: unknown) => backend.logger.warn({ err: error }, 'could not remove an old calendar token'));
}

async function personalToken(backend: Backend, userKey: string, renew: boolean): Promise<string> {
  checkUserKey(userKey);
  const before = (await readProfile(backend, userKey)).profile.calendar?.token;
  if (before && !renew) return before;
  const token = newToken();
  // The index first: a token the profile never takes leads nowhere (its profile does not hold it).
  await guarded(backend, 'save a calendar token', () =>
    backend.documents.write(tokenDoc(token), JSON.stringify({ owner: userKey }), 0),
  );
  const stored = await updateProfile(backend, userKey, (current) =>
    current.calendar && current.calendar.token !== before
      ? current // another call issued one meanwhile: keep it
      : { ...current, calendar: { token, issuedAt: new Date().toISOString() } },
  );
  const kept = stored.calendar!.token;
  for (const old of [before, token]) if (old && old !== kept) await removeToken(backend, old);
  return kept;
}

async function ownerOfToken(
  backend: Backend,
  token: string,
): Promise<{ userKey: string; profile: Profile } | undefined> {
  const owner = await indexOwner(backend, token);
  if (!owner || !USER_KEY.test(owner)) return undefined;
  const { profile } = await readProfile(backend, owner);
  return sameToken(profile.calendar?.token, token) ? { userKey: owner, profile } : undefined;
}

/** A channel's calendar document: the token it holds (if valid) and its revision (0: none). */
async function readChannelCalendar(
  backend: Backend,
  key: string,
): Promise<{ token: string | undefined; revision: number }> {
  const stored = await guarded(backend, 'read a channel calendar', () => backend.documents.read(key));
  const held = stored ? calendarSchema.safeParse(JSON.parse(stored.doc)) : undefined;
  return { token: held?.success ? held.data.token : undefined, revision: stored?.revision ?? 0 };
}

async function channelToken(backend: Backend, tenantId: string, channelId: string, renew: boolean) {
  const key = channelDoc(tenantId, channelId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { token: before, revision } = await readChannelCalendar(backend, key);
    if (before && !renew) return before;
    const token = newToken();
    const stored = await guarded(backend, 'save a channel calendar', async () => {
      await backend.documents.write(tokenDoc(token), JSON.stringify({ owner: key }), 0);
      const doc = JSON.stringify({ token, issuedAt: new Date().toISOString() });
      return (await backend.documents.write(key, doc, revision)) !== undefined;
    });
    if (!stored) {
      await removeToken(backend, token); // another admin got there first: read theirs
      continue;
    }
    if (before) await removeToken(backend, before);
    return token;
  }
  throw new StoreError(`The calendar of ${key} kept changing while saving it.`, 'busy');
}

async function channelOfToken(
  backend: Backend,
  token: string,
): Promise<{ tenantId: string; channelId: string } | undefined> {
  const owner = await indexOwner(backend, token);
  const match = owner ? CHANNEL_KEY.exec(owner) : null;
  if (!owner || !match) return undefined;
  const { token: held } = await readChannelCalendar(backend, owner);
  return sameToken(held, token) ? { tenantId: match[1]!, channelId: match[2]! } : undefined;
}

/** The profile logic (validation, compare-and-set retries, calendar tokens) over a document backend. */
export function userStoreOver(documents: DocumentStore, logger: Logger, where: string): UserStore {
  const backend: Backend = { documents, logger, failure: (action, error) => failure(where, action, error) };
  return {
    async get(userKey) {
      checkUserKey(userKey);
      return (await readProfile(backend, userKey)).profile;
    },
    update: (userKey, change) => updateProfile(backend, userKey, change),
    calendarToken: (userKey, renew = false) => personalToken(backend, userKey, renew),
    ownerOfToken: (token) => ownerOfToken(backend, token),
    channelCalendarToken: (tenantId, channelId, renew = false) =>
      channelToken(backend, tenantId, channelId, renew),
    channelOfToken: (token) => channelOfToken(backend, token),
    users: () =>
      guarded(backend, 'list profiles', async () =>
        (await documents.ids()).filter((id) => USER_KEY.test(id)),
      ),
    close: () => documents.close(),
  };
}

/** Opens the profile store beside the tenant settings (same SQLite file or the same Redis). */
export async function openUserStore(store: Config['store'], options: TenantStoreOptions): Promise<UserStore> {
  const where = safeUrl(store.url);
  return userStoreOver(await openDocuments(store, where, options, 'users'), options.logger, where);
}
