/**
 * The terminal's channel subscription. On first start a new terminal tenant gets its own channel
 * subscribed to every kind of notification, so `npm start` shows reminders, live cards, results and
 * the digest without a `/settings channel-add` first. A terminal shows what happens while it runs:
 * every start sets the channel's `since` to now, so neither the first start nor one after a day off
 * replays results (or the digest) of what ended before it; the banner says what is live instead.
 * A user who removed the channel keeps it removed, and nothing else of the settings is touched.
 */
import { channelSubscriptionSchema, NOTIFICATION_KINDS } from '../../bot/settings.ts';
import type { TenantStore } from '../../bot/tenants.ts';
import type { EsportsClient } from '../../client/types.ts';
import { TERMINAL_TENANT_ID } from '../../core/tenant-id.ts';
import { TERMINAL_CHANNEL } from './chat.ts';

/**
 * Subscribes the terminal chat's channel when the terminal tenant is new (`subscribed`), or moves
 * its `since` to `now` when it exists (`renewed`); `none` when the user removed the channel.
 */
export async function subscribeTerminal(
  tenants: Pick<TenantStore, 'update' | 'list'>,
  now: Date,
  /** A new tenant's time zone: the system's (`config.systemTimeZone`), not UTC. */
  timezone = 'UTC',
): Promise<'subscribed' | 'renewed' | 'none'> {
  const since = now.toISOString();
  const isNew = !(await tenants.list()).includes(TERMINAL_TENANT_ID);
  let done: 'subscribed' | 'renewed' | 'none' = 'none';
  await tenants.update(TERMINAL_TENANT_ID, (settings) => {
    done = 'none';
    const channel = settings.channels.find((c) => c.id === TERMINAL_CHANNEL.id);
    if (channel) {
      channel.since = since;
      done = 'renewed';
    } else if (isNew) {
      settings.timezone = timezone;
      settings.channels.push(
        channelSubscriptionSchema.parse({
          id: TERMINAL_CHANNEL.id,
          name: TERMINAL_CHANNEL.name,
          kinds: [...NOTIFICATION_KINDS],
          since,
        }),
      );
      done = 'subscribed';
    }
    return settings;
  });
  return done;
}

/**
 * The banner's one line about what is live in the terminal tenant's games and tiers: live cards
 * only follow series that go live from now on, so this says what else is on (one request).
 */
export async function liveSummary(
  client: Pick<EsportsClient, 'series'>,
  tenants: Pick<TenantStore, 'get'>,
): Promise<string> {
  const settings = await tenants.get(TERMINAL_TENANT_ID);
  const live = await client.series.list({
    filter: [
      ['lifecycle', '=', 'live'],
      ['tier', '<=', settings.tiers],
      ...(settings.games.length > 0 ? [['game.id', '<=', settings.games] as const] : []),
    ],
    take: 50,
  });
  const tiers = `tier${settings.tiers.length > 1 ? 's' : ''} ${settings.tiers.join(', ')}`;
  if (live.length === 0) return `nothing live now in ${tiers}; /series shows what is next`;
  const count = live.length === 50 ? '50+ series' : `${live.length} series`;
  return `${count} live now in ${tiers}: /live shows them`;
}
