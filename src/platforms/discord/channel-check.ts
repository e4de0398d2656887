/**
 * The setup checks for a server's channels (`/settings`): may Matchday post in a channel, start
 * threads there, make the server's scheduled events? Answered from its own member's permissions
 * in the client's cache (fetched when missing), with what is missing named as Discord names it.
 */

import { type Client, type Guild, PermissionFlagsBits, type PermissionsBitField } from 'discord.js';
import type { ChannelCheck } from '../../bot/command.ts';

/** What a notification channel needs. */
const REQUIRED = [
  [PermissionFlagsBits.ViewChannel, 'View Channel'],
  [PermissionFlagsBits.SendMessages, 'Send Messages'],
  [PermissionFlagsBits.EmbedLinks, 'Embed Links'],
] as const;

/** What threads for a match need in the channel (`/settings threads`). */
const THREADS = [
  [PermissionFlagsBits.CreatePublicThreads, 'Create Public Threads'],
  [PermissionFlagsBits.SendMessagesInThreads, 'Send Messages in Threads'],
] as const;

type Missing = { ok: false; missing: string[] };

const notInServer = (): Missing => ({
  ok: false,
  missing: ['Matchday is not in this server (invite it first)'],
});

/** The setup check for one server's channels (view, send, embed links; threads; events). */
export function channelCheck(client: Client, guildId: string): ChannelCheck {
  return {
    async check(channelId) {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return notInServer();
      const channel = await findChannel(guild, channelId);
      if (!channel) return { ok: false, missing: ['View Channel'] };
      // discord.js files a channel from an interaction's payload under the interaction's server, so
      // another server's channel can look local: its own guild id is what counts.
      if (channel.guildId !== guildId)
        return { ok: false, missing: ['access (the channel belongs to another server)'] };
      if (!channel.isTextBased() || channel.isVoiceBased()) return { ok: false, missing: ['a text channel'] };
      const me = await botMember(guild);
      const missing = lacking(me ? channel.permissionsFor(me) : null, REQUIRED);
      return missing.length === 0 ? { ok: true, name: channel.name } : { ok: false, missing };
    },
    async threads(channelId) {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return notInServer();
      const channel = await findChannel(guild, channelId);
      if (!channel || channel.guildId !== guildId) return { ok: false, missing: ['View Channel'] };
      const me = await botMember(guild);
      const missing = lacking(me ? channel.permissionsFor(me) : null, THREADS);
      return missing.length === 0 ? { ok: true } : { ok: false, missing };
    },
    async events() {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return notInServer();
      const me = await botMember(guild);
      const can =
        me?.permissions.has(PermissionFlagsBits.ManageEvents) ||
        me?.permissions.has(PermissionFlagsBits.CreateEvents);
      return can ? { ok: true } : { ok: false, missing: ['Manage Events'] };
    },
  };
}

async function findChannel(guild: Guild, channelId: string) {
  return guild.channels.cache.get(channelId) ?? (await guild.channels.fetch(channelId).catch(() => null));
}

async function botMember(guild: Guild) {
  return guild.members.me ?? (await guild.members.fetchMe().catch(() => null));
}

/** The names of the `required` permissions that `permissions` lacks (all of them without any). */
function lacking(
  permissions: Readonly<PermissionsBitField> | null,
  required: readonly (readonly [bigint, string])[],
): string[] {
  return required.filter(([bit]) => !permissions?.has(bit)).map(([, name]) => name);
}
