/**
 * A server's lifecycle as Discord tells it: removed from a server (kicked, or the server deleted),
 * Matchday purges its settings and subscriptions; a deleted channel can never be posted to again,
 * so its subscription is dropped. Either way the notifier re-reads who wants what. A scheduled event
 * deleted (GUILD_SCHEDULED_EVENT_DELETE, read from the gateway's packet: it carries the whole event,
 * which discord.js' cache would not keep) goes to the notifier, which records one of its own events
 * deleted by hand (`src/notify/scheduled-events.ts`). Errors are logged, never thrown (an error in an
 * async listener would be an unhandled rejection).
 */

import { type Channel, type Client, Events, GatewayDispatchEvents, type Guild } from 'discord.js';
import type { App } from '../../app.ts';
import type { Logger } from '../../bot/logger.ts';
import { discordTenantId } from '../../core/tenant-id.ts';

/** What the listeners use of the app; `notifier` is read at each event (it comes and goes with the lease). */
type LifecycleApp = Pick<App, 'tenants' | 'notifier'>;

/** Listens for servers left and channels deleted. */
export function listenForServerChanges(client: Client, app: LifecycleApp, logger: Logger): void {
  client.on(Events.GuildDelete, (guild: Guild) => {
    purgeServer(app, guild.id, logger).catch((error) =>
      logger.error({ err: error, guild: guild.id }, 'could not purge a server that was left'),
    );
  });
  client.ws.on(GatewayDispatchEvents.GuildScheduledEventDelete, (event: unknown) => {
    const {
      id,
      guild_id: guildId,
      description,
    } = (event ?? {}) as {
      id?: unknown;
      guild_id?: unknown;
      description?: unknown;
    };
    if (typeof id !== 'string' || typeof guildId !== 'string') return;
    app.notifier
      ?.scheduledEventDeleted(guildId, {
        id,
        description: typeof description === 'string' ? description : null,
      })
      .catch((error: unknown) =>
        logger.error({ err: error, guild: guildId, event: id }, 'could not record a scheduled event deleted'),
      );
  });
  client.on(Events.ChannelDelete, (channel: Channel) => {
    if (!('guildId' in channel) || !channel.guildId) return;
    dropChannel(app, channel.guildId, channel.id, logger).catch((error) =>
      logger.error({ err: error, channel: channel.id }, 'could not drop a deleted channel'),
    );
  });
}

async function purgeServer(app: LifecycleApp, guildId: string, logger: Logger): Promise<void> {
  await app.tenants.purge(discordTenantId(guildId));
  logger.info({ guild: guildId }, 'left a server; its data was purged');
  app.notifier?.invalidate();
}

async function dropChannel(
  app: LifecycleApp,
  guildId: string,
  channelId: string,
  logger: Logger,
): Promise<void> {
  const tenantId = discordTenantId(guildId);
  const tenants = await app.tenants.list();
  if (!tenants.includes(tenantId)) return;
  const settings = await app.tenants.get(tenantId);
  if (!settings.channels.some((c) => c.id === channelId)) return;
  await app.tenants.update(tenantId, (latest) => ({
    ...latest,
    channels: latest.channels.filter((c) => c.id !== channelId),
  }));
  logger.info({ guild: guildId, channel: channelId }, 'channel deleted; its subscription was dropped');
  app.notifier?.invalidate();
}
