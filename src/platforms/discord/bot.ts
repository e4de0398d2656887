/**
 * Matchday on Discord: a discord.js client with the two non-privileged intents it needs (Guilds, GuildScheduledEvents),
 * and its listeners, one file each: slash commands (`slash-command.ts`, which also holds the
 * interaction deadlines), autocomplete (`autocomplete.ts`), page buttons (`page-button.ts`), the
 * server lifecycle (`server-lifecycle.ts`: leaving a server purges its data; a deleted channel
 * drops its subscription). Setup checks for channels are in `channel-check.ts`, the notifications
 * delivery in `delivery.ts`. This file connects, routes interactions, and leaves and stops.
 *
 * Every listener catches its own errors (an error in an async listener would be an unhandled
 * rejection), and every failure still answers the interaction.
 */

import {
  Client,
  type ClientOptions,
  DefaultRestOptions,
  Events,
  GatewayIntentBits,
  type Interaction,
  Options,
  type RateLimitData,
} from 'discord.js';
import type { App } from '../../app.ts';
import type { ChannelCheck } from '../../bot/command.ts';
import type { Logger } from '../../bot/logger.ts';
import { pageActionLine } from '../../bot/pages.ts';
import { type ChatPlatform, InFlight } from '../platform.ts';
import { answerAutocomplete } from './autocomplete.ts';
import { channelCheck } from './channel-check.ts';
import { DiscordDelivery, type DiscordDeliveryOptions } from './delivery.ts';
import { answerPageButton } from './page-button.ts';
import { listenForServerChanges } from './server-lifecycle.ts';
import { type Answering, answerCommand } from './slash-command.ts';

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

/** Starts the Discord client and resolves once the gateway is ready. */
export async function startDiscord(app: DiscordApp, options: DiscordOptions): Promise<DiscordBot> {
  const logger = app.logger.child({ platform: 'discord' });
  const client = discordClient(options);
  const delivery = new DiscordDelivery({ rest: client.rest, ...options.delivery });
  const channels = (guildId: string): ChannelCheck => channelCheck(client, guildId);
  // Interactions received and not yet answered: leaving the gateway lets them finish.
  const inFlight = new InFlight();
  const answering = { runtime: app.runtime, logger, channels, deferAfterMs: options.deferAfterMs ?? 2000 };
  listenForInteractions(client, answering, inFlight);
  listenForServerChanges(client, app, logger);
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardError, (error) => logger.warn({ err: error }, 'discord gateway error'));
  client.on(Events.Warn, (message) => logger.warn({ message }, 'discord warning'));
  await connect(client, options, logger);

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
  return { client, delivery, channelCheck: channels, leave, stop };
}

/** The discord.js client: the Guilds and GuildScheduledEvents intents only, no mentions unless asked, small caches, REST limits. */
function discordClient(options: DiscordOptions): Client {
  const maxWait = options.maxRateLimitWaitMs ?? 10_000;
  const restOverrides = options.client?.rest ?? {};
  return new Client({
    ...options.client,
    // Slash commands need no privileged intent: no message content, no member list, no presences.
    // GuildScheduledEvents (not privileged): an event of Matchday's deleted by hand is told at once.
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents],
    // A safety net under every message: the renderer sets allowed_mentions on each one as well.
    allowedMentions: { parse: [] },
    // Only the bot's own member is needed (for channel permission checks); messages are never read.
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
      PresenceManager: 0,
      // Scheduled events are read over REST by the notifier; the gateway's deletes are read from the packet.
      GuildScheduledEventManager: 0,
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
}

/** Routes each interaction to its answer (slash command, autocomplete, page button), tracked until answered. */
function listenForInteractions(client: Client, answering: Answering, inFlight: InFlight): void {
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    const page =
      interaction.isButton() && interaction.guildId ? pageActionLine(interaction.customId) : undefined;
    const handled = interaction.isChatInputCommand()
      ? answerCommand(interaction, answering)
      : interaction.isAutocomplete()
        ? answerAutocomplete(interaction, answering)
        : interaction.isButton() && page !== undefined
          ? answerPageButton(interaction, page, answering)
          : Promise.resolve();
    inFlight
      .track(handled)
      .catch((error) =>
        answering.logger.error({ err: error, interaction: interaction.id }, 'interaction handler failed'),
      );
  });
}

/** Logs in and waits for READY; on failure the client is destroyed and the error says what to fix. */
async function connect(client: Client, options: DiscordOptions, logger: Logger): Promise<void> {
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
