/**
 * Direct-message reminders (docs/commands.md, "Reminders by direct message"): each person with follows
 * gets their reminders by DM (channel `dm:<user id>`), of the followed teams only, at their own leads and
 * time zone, through the same jobs and ledger as a channel. A DM that fails for good (closed DMs) pauses
 * the person's reminders, and they are told in their next `/me` answer.
 */

import { personIdOf, type UserStore } from '../../bot/users.ts';
import { cmd } from '../../core/errors.ts';
import { spanned, translator } from '../../i18n/i18n.ts';
import type { DeliveryError } from '../delivery-error.ts';
import { platformOf, type Subscription } from '../plan.ts';
import type { NotifyLogger } from '../types.ts';

export type NotifyUsers = Pick<UserStore, 'users' | 'get' | 'update'>;

/**
 * One DM subscription per person with follows (not paused): what they chose (`/me dms`: reminders
 * at their leads, live cards, results) of their teams' series within each follow's tier and
 * qualifier options, results under their spoiler policy.
 */
export async function dmSubscriptions(users: NotifyUsers, logger: NotifyLogger): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  let keys: string[] = [];
  try {
    keys = await users.users();
  } catch (error) {
    logger.warn({ err: error }, 'personal follows cannot be read; no DM reminders this round');
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
        // Each team's options, and since when it is followed (nothing already over is announced).
        followOptions: new Map(
          profile.follows.map(({ team, tier, noQualifiers, since }) => [
            team,
            {
              noQualifiers,
              ...(tier !== undefined ? { tier } : {}),
              ...(since !== undefined ? { since: Date.parse(since) } : {}),
            },
          ]),
        ),
        kinds: new Set(profile.dms),
        leads: [...profile.leads].sort((a, b) => b - a),
        spoilers: profile.spoilers,
        t: translator(profile.language),
        timezone: profile.timezone,
        digestTime: '09:00',
        digestWhenEmpty: 'skip',
        ...(profile.quiet ? { quiet: profile.quiet } : {}),
      });
    } catch (error) {
      logger.warn({ err: error }, 'skipping a profile that cannot be read');
    }
  }
  return subs;
}

/** Is this subscription a person's DMs (not a channel)? */
export function isDm(sub: Subscription): boolean {
  return sub.channelId.startsWith('dm:');
}

/** Pauses a person's DM reminders after a permanent failure; they are told once, in their next /me answer. */
export async function pauseDms(
  users: NotifyUsers,
  sub: Subscription,
  error: DeliveryError,
  at: string,
  logger: NotifyLogger,
): Promise<void> {
  try {
    await users.update(sub.tenantId, (profile) => ({
      ...profile,
      paused: { reason: `${error.code}: ${error.message}`, at },
      notices: [
        ...profile.notices,
        spanned(sub.t, 'cards.dm.paused', {}, { command: cmd('me follow') }),
      ].slice(-10),
    }));
  } catch (saveError) {
    logger.error({ err: saveError }, 'could not record the paused DM reminders');
  }
}
