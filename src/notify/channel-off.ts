/**
 * What the notifier records when a platform refuses a channel (raised by the dispatcher): a channel
 * that failed for good is turned off in its owner's settings (a tenant's channel, or a person's DMs
 * paused), a channel whose threads were refused has only its threads turned off; each with one
 * notice for the server's admins. Applied to the latest stored settings, so an admin's change made
 * meanwhile is kept.
 */
import type { Settings } from '../bot/settings.ts';
import type { TenantStore } from '../bot/tenants.ts';
import { cmd } from '../core/errors.ts';
import type { DeliveryError } from './delivery-error.ts';
import { isDm, type NotifyUsers, pauseDms } from './jobs/dm.ts';
import type { Subscription } from './plan.ts';
import type { NotifyLogger } from './types.ts';

/** Threads refused (permissions lost): the channel's threads off in its stored settings, with a notice. */
export async function recordThreadsOff(
  tenants: Pick<TenantStore, 'update'>,
  sub: Subscription,
  error: DeliveryError,
  logger: NotifyLogger,
): Promise<void> {
  logger.warn(
    { tenant: sub.tenantId, channel: sub.channelId, code: error.code },
    'threads turned off for a channel: the platform refused them',
  );
  try {
    await tenants.update(sub.tenantId, (settings: Settings) => {
      const channel = settings.channels.find((c) => c.id === sub.channelId);
      if (!channel?.threads) return settings;
      delete channel.threads;
      settings.adminNotices.push([
        `Threads in channel ${channel.name ?? channel.id} were turned off: Discord refused them (Matchday needs Create Public Threads and Send Messages in Threads there). ` +
          'Live cards and the other notifications go on. Grant those permissions to Matchday’s role in the channel, then turn threads on again with ',
        cmd('settings threads'),
        '.',
      ]);
      return settings;
    });
  } catch (saveError) {
    logger.error({ tenant: sub.tenantId, err: saveError }, 'could not record the threads turned off');
  }
}

/** A channel failed for good: turned off where its owner sees it (settings and admin notices, or a profile). */
export async function recordDisabled(
  to: { tenants: Pick<TenantStore, 'update'>; users: NotifyUsers | undefined; logger: NotifyLogger },
  sub: Subscription,
  error: DeliveryError,
  at: string,
): Promise<void> {
  const { tenants, users, logger } = to;
  logger.warn({ tenant: sub.tenantId, channel: sub.channelId, code: error.code }, 'subscription disabled');
  if (isDm(sub)) {
    if (users) await pauseDms(users, sub, error, at, logger);
    return;
  }
  try {
    await tenants.update(sub.tenantId, (settings: Settings) => {
      const channel = settings.channels.find((c) => c.id === sub.channelId);
      if (!channel || channel.disabled) return settings;
      channel.disabled = { reason: `${error.code}: ${error.message}`, at };
      settings.adminNotices.push([
        `Notifications to channel ${channel.name ?? channel.id} were turned off: ${error.message} (${error.code}). ` +
          'Fix the bot’s access to the channel, then turn them on again with ',
        cmd('settings channel-add'),
        '.',
      ]);
      return settings;
    });
  } catch (saveError) {
    logger.error({ tenant: sub.tenantId, err: saveError }, 'could not record the disabled subscription');
  }
}
