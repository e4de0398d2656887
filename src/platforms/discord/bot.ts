/**
 * Matchday on Discord: a discord.js client with the one non-privileged intent it needs (Guilds),
 * slash commands and autocomplete through the command runtime, setup checks for notification
 * channels, the server lifecycle (leaving a server purges its data; a deleted channel drops its
 * subscriptions), and the notifications delivery.
 *
 * Discord's deadlines shape the interaction path: the first answer must arrive within 3 s. A
 * command that needs the data service is deferred at once and its reply edited in; any other
 * command answers directly, and is deferred anyway if it has not finished after `deferAfterMs`.
 * Autocomplete cannot be deferred: it answers from the cached name index, never the service.
 * Every listener catches its own errors (an error in an async listener would be an unhandled
 * rejection), and every failure still answers the interaction.
 */

import {
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  Client,
  type ClientOptions,
  type CommandInteractionOption,
  DefaultRestOptions,
  Events,
  GatewayIntentBits,
  type Guild,
  type Interaction,
  MessageFlags,
  Options,
  PermissionFlagsBits,
  type RateLimitData,
} from 'discord.js';
import type { App } from '../../app.ts';
import type { ChannelCheck } from '../../bot/command.ts';
import { pageActionLine } from '../../bot/pages.ts';
import { COLOURS, notice, type Reply } from '../../bot/reply.ts';
import type { CommandCall } from '../../bot/runtime.ts';
import { optionsOf, parseCommandText } from '../../bot/text-args.ts';
import { discordTenantId } from '../../core/tenant-id.ts';
import { type ChatPlatform, InFlight } from '../platform.ts';
import { DiscordDelivery, type DiscordDeliveryOptions } from './delivery.ts';
import { type DiscordMessage, editOptions, interactionOptions, renderReply } from './render.ts';

/** What the bot uses of the app (the whole `App` in production; tests may pass the same). */
type DiscordApp = Pick<App, 'runtime' | 'tenants' | 'logger' | 'notifier' | 'onClose'>;

interface DiscordOptions {
  token: string;
  /** The application id; READY tells it too, so it is only checked against that. */
  appId?: string;
  /** Discord's API base (`DISCORD_API_URL`); default Discord's own. */
  apiUrl?: string;
  /** A command not yet answered after this long is deferred. Default 2000 ms (Discord allows 3 s). */
  deferAfterMs?: number;
  /** A rate-limit wait longer than this is not waited out inline: it fails as transient. Default 10 s. */
  maxRateLimitWaitMs?: number;
  /** Extra discord.js client options (tests: `rest: { retries, timeout }`, `ws`). */
  client?: Partial<ClientOptions>;
  /** Pacing of notifications (see `DiscordDelivery`). */
  delivery?: Omit<DiscordDeliveryOptions, 'rest'>;
  /** How long to wait for the gateway's READY. Default 30 s. */
  readyTimeoutMs?: number;
}

export interface DiscordBot extends ChatPlatform {
  client: Client;
  delivery: DiscordDelivery;
  /** The setup check for one server's channels (view, send, embed links). */
  channelCheck(guildId: string): ChannelCheck;
  leave(): Promise<void>;
  stop(): Promise<void>;
}

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

const APOLOGY = notice(
  'Sorry',
  'Something went wrong while answering. It has been logged; please try again.',
  {
    colour: COLOURS.error,
    ephemeral: true,
  },
);

/** `{ subcommand, args }` from an interaction's options; channels and roles arrive as their ids. */
function readOptions(data: readonly CommandInteractionOption[]): {
  subcommand?: string;
  args: Record<string, unknown>;
} {
  const first = data[0];
  // Type 1: a subcommand, whose own options hold the values (Matchday declares no groups).
  if (first && first.type === 1)
    return { subcommand: first.name, args: readOptions(first.options ?? []).args };
  const args: Record<string, unknown> = {};
  for (const option of data)
    if (option.value !== undefined && option.value !== null) args[option.name] = option.value;
  return { args };
}

/** Starts the Discord client and resolves once the gateway is ready. */
export async function startDiscord(app: DiscordApp, options: DiscordOptions): Promise<DiscordBot> {
  const logger = app.logger.child({ platform: 'discord' });
  const deferAfterMs = options.deferAfterMs ?? 2000;
  const maxWait = options.maxRateLimitWaitMs ?? 10_000;
  const restOverrides = options.client?.rest ?? {};
  const client = new Client({
    ...options.client,
    // Slash commands need no privileged intent: no message content, no member list, no presences.
    intents: [GatewayIntentBits.Guilds],
    // A safety net under every message: the renderer sets allowed_mentions on each one as well.
    allowedMentions: { parse: [] },
    // Only the bot's own member is needed (for channel permission checks); messages are never read.
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
      PresenceManager: 0,
      ReactionManager: 0,
    }),
    rest: {
      ...(options.apiUrl ? { api: options.apiUrl } : {}),
      timeout: 10_000,
      retries: 2,
      rejectOnRateLimit: (data: RateLimitData) => data.retryAfter > maxWait,
      // A message with a file (a standings picture) is multipart: discord.js builds Node's own
      // FormData, which its undici request cannot stream when another undici (7, the project's)
      // handles the request ("action is not a function"); Node's own fetch sends it. Others as before.
      makeRequest: (url: string, init: Parameters<typeof DefaultRestOptions.makeRequest>[1]) =>
        init.body instanceof FormData
          ? (fetch(url, init as RequestInit) as ReturnType<typeof DefaultRestOptions.makeRequest>)
          : DefaultRestOptions.makeRequest(url, init),
      ...restOverrides,
    },
  });
  const delivery = new DiscordDelivery({ rest: client.rest, ...options.delivery });

  const channelCheck = (guildId: string): ChannelCheck => ({
    async check(channelId) {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return { ok: false, missing: ['Matchday is not in this server (invite it first)'] };
      const channel =
        guild.channels.cache.get(channelId) ?? (await guild.channels.fetch(channelId).catch(() => null));
      if (!channel) return { ok: false, missing: ['View Channel'] };
      // discord.js files a channel from an interaction's payload under the interaction's server, so
      // another server's channel can look local: its own guild id is what counts.
      if (channel.guildId !== guildId)
        return { ok: false, missing: ['access (the channel belongs to another server)'] };
      if (!channel.isTextBased() || channel.isVoiceBased()) return { ok: false, missing: ['a text channel'] };
      const me = guild.members.me ?? (await guild.members.fetchMe().catch(() => null));
      const permissions = me ? channel.permissionsFor(me) : null;
      const missing = REQUIRED.filter(([bit]) => !permissions?.has(bit)).map(([, name]) => name);
      return missing.length === 0 ? { ok: true, name: channel.name } : { ok: false, missing };
    },
    async threads(channelId) {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return { ok: false, missing: ['Matchday is not in this server (invite it first)'] };
      const channel =
        guild.channels.cache.get(channelId) ?? (await guild.channels.fetch(channelId).catch(() => null));
      if (!channel || channel.guildId !== guildId) return { ok: false, missing: ['View Channel'] };
      const me = guild.members.me ?? (await guild.members.fetchMe().catch(() => null));
      const permissions = me ? channel.permissionsFor(me) : null;
      const missing = THREADS.filter(([bit]) => !permissions?.has(bit)).map(([, name]) => name);
      return missing.length === 0 ? { ok: true } : { ok: false, missing };
    },
    async events() {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return { ok: false, missing: ['Matchday is not in this server (invite it first)'] };
      const me = guild.members.me ?? (await guild.members.fetchMe().catch(() => null));
      const can =
        me?.permissions.has(PermissionFlagsBits.ManageEvents) ||
        me?.permissions.has(PermissionFlagsBits.CreateEvents);
      return can ? { ok: true } : { ok: false, missing: ['Manage Events'] };
    },
  });

  async function send(
    interaction: ChatInputCommandInteraction,
    reply: Reply,
    deferred: boolean,
    deferredEphemeral: boolean,
  ): Promise<void> {
    // A paged reply is one message, so its page buttons edit the whole of it.
    const messages = renderReply(reply, reply.pager ? { single: true } : {});
    const [first, ...rest] = messages as [DiscordMessage, ...DiscordMessage[]];
    if (!deferred) {
      await interaction.reply(interactionOptions(first));
    } else if (reply.ephemeral && !deferredEphemeral) {
      // A deferred answer keeps the visibility it was deferred with: an answer only for the user
      // (a mistake, a refusal) replaces the public "thinking" message with an ephemeral follow-up.
      await interaction
        .deleteReply()
        .catch((error) =>
          logger.warn({ err: error, interaction: interaction.id }, 'could not remove the deferred reply'),
        );
      await interaction.followUp(interactionOptions(first));
    } else {
      await interaction.editReply(editOptions(first));
    }
    for (const message of rest) await interaction.followUp(interactionOptions(message));
  }

  async function onCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    const context = {
      interaction: interaction.id,
      command: interaction.commandName,
      guild: interaction.guildId,
    };
    if (!interaction.guildId) {
      await interaction.reply(
        interactionOptions(
          renderReply(
            notice(
              'Matchday',
              'Matchday works in servers: use its commands in a server where it was added.',
              { ephemeral: true },
            ),
          )[0]!,
        ),
      );
      return;
    }
    const command = app.runtime.find(interaction.commandName);
    const deferredEphemeral = command?.ephemeral === true;
    let deferral: Promise<unknown> | undefined;
    const defer = () => {
      deferral ??= interaction.deferReply(deferredEphemeral ? { flags: MessageFlags.Ephemeral } : {});
      return deferral;
    };
    // Needs the service: defer at once (it may take its whole 2 s budget). Otherwise a safety timer.
    if (command?.usesService)
      void defer().catch((error) => logger.warn({ err: error, ...context }, 'defer failed'));
    const timer = command?.usesService
      ? undefined
      : setTimeout(
          () => void defer().catch((error) => logger.warn({ err: error, ...context }, 'defer failed')),
          deferAfterMs,
        );
    try {
      const { subcommand, args } = readOptions(interaction.options.data);
      const member = interaction.member;
      const call: CommandCall = {
        platform: 'discord',
        tenantKey: interaction.guildId,
        user: {
          id: interaction.user.id,
          name:
            (member && 'displayName' in member ? member.displayName : undefined) ??
            interaction.user.globalName ??
            interaction.user.username,
          // From this payload's member permissions, whatever the command's default permissions say.
          isAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
        },
        channel: {
          id: interaction.channelId,
          ...(interaction.channel && 'name' in interaction.channel && interaction.channel.name
            ? { name: interaction.channel.name }
            : {}),
        },
        command: interaction.commandName,
        ...(subcommand ? { subcommand } : {}),
        args,
        channels: channelCheck(interaction.guildId),
      };
      const reply = await app.runtime.execute(call);
      clearTimeout(timer);
      if (deferral) await deferral;
      await send(interaction, reply, deferral !== undefined, deferredEphemeral);
    } catch (error) {
      clearTimeout(timer);
      logger.error({ err: error, ...context }, 'answering a command failed');
      await apologise(interaction, deferral);
    }
  }

  /** Answers something, whatever state the interaction is in; never throws. */
  async function apologise(
    interaction: ChatInputCommandInteraction,
    deferral: Promise<unknown> | undefined,
  ): Promise<void> {
    try {
      const apology = renderReply(APOLOGY)[0]!;
      const options = interactionOptions(apology);
      if (deferral) {
        await deferral.catch(() => undefined);
        if (interaction.replied) await interaction.followUp(options);
        else await interaction.editReply(editOptions(apology));
      } else if (!interaction.replied) await interaction.reply(options);
      else await interaction.followUp(options);
    } catch (error) {
      logger.warn({ err: error, interaction: interaction.id }, 'could not answer the interaction at all');
    }
  }

  async function onAutocomplete(interaction: AutocompleteInteraction): Promise<void> {
    let choices: { name: string; value: string | number }[] = [];
    try {
      const command = app.runtime.find(interaction.commandName);
      const focused = interaction.options.getFocused(true);
      const subcommand = interaction.options.getSubcommand(false) ?? undefined;
      const def = command ? optionsOf(command, subcommand)[focused.name] : undefined;
      if (def?.autocomplete) {
        const numeric = def.type === 'integer' || def.type === 'number';
        choices = app.runtime
          .autocomplete(def.autocomplete, String(focused.value ?? ''))
          .slice(0, 25)
          .flatMap((choice): { name: string; value: string | number }[] => {
            const name = choice.name.length > 100 ? `${choice.name.slice(0, 99)}…` : choice.name;
            if (numeric) {
              const value = Number(choice.value);
              return Number.isFinite(value) && (def.type === 'number' || Number.isInteger(value))
                ? [{ name, value }]
                : [];
            }
            const value = String(choice.value);
            return value.length <= 100 ? [{ name: name || value, value }] : [];
          });
      }
    } catch (error) {
      logger.warn({ err: error, interaction: interaction.id }, 'autocomplete failed');
    }
    try {
      await interaction.respond(choices);
    } catch (error) {
      logger.warn({ err: error, interaction: interaction.id }, 'could not answer autocomplete');
    }
  }

  /**
   * A page button (`pageButtons`): the page's command line runs as if typed by the clicker, and
   * the message is updated in place; a refusal (e.g. a day now out of range) goes to the clicker
   * alone and leaves the message as it is.
   */
  async function onPageButton(interaction: ButtonInteraction, line: string): Promise<void> {
    const context = { interaction: interaction.id, button: line, guild: interaction.guildId };
    try {
      await interaction.deferUpdate();
      const parsed = parseCommandText(line, app.runtime.commands);
      const execution = await app.runtime.run({
        platform: 'discord',
        tenantKey: interaction.guildId ?? '',
        user: {
          id: interaction.user.id,
          name: interaction.user.globalName ?? interaction.user.username,
          isAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
        },
        channel: { id: interaction.channelId },
        command: parsed.command,
        ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
        args: parsed.args,
      });
      if (execution.outcome === 'ok')
        await interaction.editReply(editOptions(renderReply(execution.reply, { single: true })[0]!));
      else
        await interaction.followUp({
          ...interactionOptions(renderReply({ ...execution.reply, ephemeral: true })[0]!),
          flags: MessageFlags.Ephemeral,
        });
    } catch (error) {
      logger.error({ err: error, ...context }, 'answering a page button failed');
    }
  }

  // Interactions received and not yet answered: leaving the gateway lets them finish.
  const inFlight = new InFlight();
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    const page =
      interaction.isButton() && interaction.guildId ? pageActionLine(interaction.customId) : undefined;
    const handled = interaction.isChatInputCommand()
      ? onCommand(interaction)
      : interaction.isAutocomplete()
        ? onAutocomplete(interaction)
        : interaction.isButton() && page !== undefined
          ? onPageButton(interaction, page)
          : Promise.resolve();
    inFlight
      .track(handled)
      .catch((error) =>
        logger.error({ err: error, interaction: interaction.id }, 'interaction handler failed'),
      );
  });

  // Removed from a server (kicked, or the server deleted): its settings and subscriptions go too.
  client.on(Events.GuildDelete, (guild: Guild) => {
    app.tenants
      .purge(discordTenantId(guild.id))
      .then(() => {
        logger.info({ guild: guild.id }, 'left a server; its data was purged');
        app.notifier?.invalidate();
      })
      .catch((error) =>
        logger.error({ err: error, guild: guild.id }, 'could not purge a server that was left'),
      );
  });

  // A deleted channel can never be posted to again: drop its subscription.
  client.on(Events.ChannelDelete, (channel) => {
    if (!('guildId' in channel) || !channel.guildId) return;
    const tenantId = discordTenantId(channel.guildId);
    (async () => {
      const tenants = await app.tenants.list();
      if (!tenants.includes(tenantId)) return;
      const settings = await app.tenants.get(tenantId);
      if (!settings.channels.some((c) => c.id === channel.id)) return;
      await app.tenants.update(tenantId, (latest) => ({
        ...latest,
        channels: latest.channels.filter((c) => c.id !== channel.id),
      }));
      logger.info(
        { guild: channel.guildId, channel: channel.id },
        'channel deleted; its subscription was dropped',
      );
      app.notifier?.invalidate();
    })().catch((error) =>
      logger.error({ err: error, channel: channel.id }, 'could not drop a deleted channel'),
    );
  });

  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardError, (error) => logger.warn({ err: error }, 'discord gateway error'));
  client.on(Events.Warn, (message) => logger.warn({ message }, 'discord warning'));

  let readyTimer: NodeJS.Timeout | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    readyTimer = setTimeout(
      () => reject(new Error('Discord did not become ready in time.')),
      options.readyTimeoutMs ?? 30_000,
    );
    client.once(Events.ClientReady, () => {
      clearTimeout(readyTimer);
      resolve();
    });
  });
  // A failed login never waits for `ready`: without this, its timer would reject 30 s later with no
  // one listening (an unhandled rejection after the clear message), and keep the process alive.
  ready.catch(() => undefined);
  try {
    await client.login(options.token);
    await ready;
  } catch (error) {
    clearTimeout(readyTimer);
    await destroy(client);
    throw new Error(`Could not connect to Discord: ${describeLoginError(error)}`);
  }
  if (options.appId && client.application?.id && client.application.id !== options.appId) {
    logger.warn(
      { configured: options.appId, actual: client.application.id },
      "DISCORD_APP_ID does not match the bot token; using the token's application",
    );
  }
  logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'connected to Discord');

  let stopped = false;
  let left: Promise<void> | undefined;
  // Leaving closes the gateway session (close code 1000: Discord ends it and sends this bot's
  // interactions to its other sessions, the other processes); `client.destroy()` is discord.js' way
  // to close it, and it also forgets the token, so the token goes back to the REST client at once:
  // answers to interactions already received and notifications under way still go out.
  const leave = () => {
    left ??= (async () => {
      await destroy(client);
      if (!stopped) client.rest.setToken(options.token);
      logger.info({ answering: inFlight.size }, 'left the Discord gateway; finishing what was received');
      await inFlight.settled();
    })();
    return left;
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (left) await left;
    await destroy(client);
  };
  app.onClose(stop);
  return { client, delivery, channelCheck, leave, stop };
}

/** `client.destroy()` can hang on a half-open gateway; never wait for it longer than 2 s. */
async function destroy(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.destroy().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 2000);
    }),
  ]);
  clearTimeout(timer);
}

function describeLoginError(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  if (/TokenInvalid|401|Authentication failed/i.test(message))
    return 'Discord refused DISCORD_TOKEN. Copy the bot token again from the developer portal (Bot > Reset Token).';
  if (/intent/i.test(message)) return 'Discord refused the gateway intents.';
  return message;
}
