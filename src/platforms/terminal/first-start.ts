/**
 * The terminal's first start: a new terminal tenant gets its own channel subscribed to every kind of
 * notification, so `npm start` shows reminders, live cards, results and the digest without a
 * `/settings channel-add` first. An existing tenant's settings are never touched (a user who removed
 * the channel keeps it removed).
 */
import { channelSubscriptionSchema, NOTIFICATION_KINDS } from '../../bot/settings.ts';
import type { TenantStore } from '../../bot/tenants.ts';
import { TERMINAL_CHANNEL, TERMINAL_TENANT_ID } from './chat.ts';

/** Subscribes the terminal chat's channel when the terminal tenant is new; true when it did. */
export async function subscribeTerminalOnFirstStart(
  tenants: Pick<TenantStore, 'update' | 'list'>,
): Promise<boolean> {
  if ((await tenants.list()).includes(TERMINAL_TENANT_ID)) return false;
  let added = false;
  await tenants.update(TERMINAL_TENANT_ID, (settings) => {
    added = !settings.channels.some((c) => c.id === TERMINAL_CHANNEL.id);
    if (added) {
      settings.channels.push(
        channelSubscriptionSchema.parse({
          id: TERMINAL_CHANNEL.id,
          name: TERMINAL_CHANNEL.name,
          kinds: [...NOTIFICATION_KINDS],
        }),
      );
    }
    return settings;
  });
  return added;
}
