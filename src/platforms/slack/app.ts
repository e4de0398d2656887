/**
 * Matchday on Slack: a Bolt app in Socket Mode (bot token + app-level token) or over HTTP (bot token +
 * signing secret; Bolt's HTTPReceiver verifies `v0` signatures over the raw body within 5 minutes and
 * answers 401 before any listener runs).
 *
 * Bolt only refuses timestamps older than 5 minutes; a guard in front of its receiver refuses those
 * more than 5 minutes ahead as well (and a missing timestamp), so the window is symmetric.
 *
 * One slash command, `/matchday <command> <arguments>`: acked at once (Slack's 3 s), parsed by the
 * shared text parser, run by the shared runtime, answered through `respond()`: ephemeral unless the
 * reply is meant for the channel. Whether the user is a workspace admin or owner comes from
 * `users.info`: asked afresh for every command that can change settings (/settings, /follow), cached
 * for at most 5 seconds for the others (which may still treat admins differently). Uninstalling the app or revoking its token purges the workspace.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Logger as BoltLogger, HTTPReceiver, LogLevel } from '@slack/bolt';
import type { AnyCommand, ChannelCheck } from '../../bot/command.ts';
import { UserError } from '../../bot/command.ts';
import type { Logger } from '../../bot/logger.ts';
import { pageActionLine } from '../../bot/pages.ts';
import { COLOURS, errorReply, messageSpans, type Reply } from '../../bot/reply.ts';
import type { CommandCall } from '../../bot/runtime.ts';
import type { TenantStore } from '../../bot/tenants.ts';
import { parseCommandText } from '../../bot/text-args.ts';
import { cmd } from '../../core/errors.ts';
import { slackTenantId, slackTenantKey } from '../../core/tenant-id.ts';
import { type ChatPlatform, InFlight } from '../platform.ts';
import { createDeliveryClient, SlackDelivery, type SlackDeliveryOptions } from './delivery.ts';
import { uploadImages } from './files.ts';
import { SLASH_COMMAND } from './mrkdwn.ts';
import { LINK_ACTION, PAGE_ACTION_ID, REVEAL_ACTION, renderReply, revealMessage } from './render.ts';

/** What the Slack platform needs of the Matchday app (`createApp` provides all of it). */
interface SlackHost {
  runtime: {
    readonly commands: AnyCommand[];
    find(name: string): AnyCommand | undefined;
    execute(call: CommandCall): Promise<Reply>;
  };
  tenants: Pick<TenantStore, 'purge'>;
  logger: Logger;
}

interface SlackOptions {
  botToken: string;
  /** An app-level token (xapp-...) selects Socket Mode. */
  appToken?: string;
  /** Without an app token: HTTP mode, requests verified with this secret. */
  signingSecret?: string;
  /** HTTP mode: the port to listen on (0 picks a free one). Default 3000. */
  port?: number;
  /** HTTP mode: the address to listen on. Default all interfaces. */
  host?: string;
  /** The Web API base, e.g. a loopback fake in tests. Default Slack's own. */
  apiUrl?: string;
  /** Retries of Web API calls made while answering a command (p-retry options). Default 2 retries. */
  retryConfig?: { retries: number; factor?: number; minTimeout?: number; maxTimeout?: number };
  /** Pacing and rate-limit settings of the notification delivery (tests shrink the time unit). */
  delivery?: Omit<SlackDeliveryOptions, 'client'>;
}

export interface SlackPlatform extends ChatPlatform {
  readonly bolt: App;
  /** Posts and edits notifications: give it to the notifier as `deliveries.slack`. */
  readonly delivery: SlackDelivery;
  readonly mode: 'socket' | 'http';
  /** HTTP mode: the port actually listened on. */
  readonly port?: number;
  /** The workspace the bot token belongs to (from auth.test). */
  readonly teamId?: string;
  leave(): Promise<void>;
  stop(): Promise<void>;
}

/** Slack's signature window (https://docs.slack.dev/authentication/verifying-requests-from-slack). */
const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** Whether a request timestamp is present and within the window, in the past or the future. */
function freshTimestamp(header: string | string[] | undefined, nowMs: number): boolean {
  if (typeof header !== 'string' || !/^\d{1,12}$/.test(header)) return false;
  return Math.abs(Math.floor(nowMs / 1000) - Number(header)) <= SIGNATURE_WINDOW_SECONDS;
}

/** Slash command text arrives with `&`, `<`, `>` as entities; the parser wants the characters. */
function decodeCommandText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** Bolt's logger interface over pino. Payloads Bolt logs at debug carry response_urls: scrub them. */
function boltLogger(logger: Logger): BoltLogger {
  const child = logger.child({ platform: 'slack' });
  const text = (messages: unknown[]) =>
    messages
      .map((m) => (m instanceof Error ? m.message : typeof m === 'string' ? m : JSON.stringify(m)))
      .join(' ')
      .replace(/("response_urls?"\s*:\s*)("[^"]*"|\[[^\]]*\])/g, '$1"[redacted]"')
      .replace(/(response_url=|trigger_id=)[^&\s"]+/g, '$1[redacted]')
      .replace(/("trigger_id"\s*:\s*)"[^"]*"/g, '$1"[redacted]"');
  const level = (): LogLevel => {
    const pinoLevel = logger.level;
    if (pinoLevel === 'debug' || pinoLevel === 'trace') return LogLevel.DEBUG;
    if (pinoLevel === 'info') return LogLevel.INFO;
    if (pinoLevel === 'warn') return LogLevel.WARN;
    return LogLevel.ERROR;
  };
  return {
    debug: (...m: unknown[]) => child.debug(text(m)),
    info: (...m: unknown[]) => child.info(text(m)),
    warn: (...m: unknown[]) => child.warn(text(m)),
    error: (...m: unknown[]) => child.error(text(m)),
    setLevel: () => {},
    getLevel: level,
    setName: () => {},
  };
}

type WebClient = App['client'];

/**
 * Whether the user is a workspace admin or owner, from `users.info` (never from the command text).
 * `undefined` when Slack could not say: the caller refuses rather than guesses.
 */
async function isWorkspaceAdmin(
  client: WebClient,
  userId: string,
  logger: Logger,
): Promise<boolean | undefined> {
  try {
    const { user } = await client.users.info({ user: userId });
    return user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true;
  } catch (error) {
    logger.warn(
      { code: (error as { data?: { error?: string } }).data?.error ?? (error as Error).message },
      'users.info failed',
    );
    return undefined;
  }
}

/** How long a command that cannot change settings trusts a looked-up admin status. */
const ADMIN_CACHE_MS = 5_000;

/** Admin status per workspace and user, for commands that are not admin-only. */
class AdminCache {
  readonly #entries = new Map<string, { admin: boolean; at: number }>();
  constructor(readonly now: () => number = Date.now) {}

  get(key: string): boolean | undefined {
    const entry = this.#entries.get(key);
    return entry && this.now() - entry.at < ADMIN_CACHE_MS ? entry.admin : undefined;
  }

  set(key: string, admin: boolean): void {
    if (this.#entries.size > 10_000) this.#entries.clear();
    this.#entries.set(key, { admin, at: this.now() });
  }
}

/** Can Matchday post in a channel? `conversations.info`: it must exist, be unarchived, and have the bot. */
function channelCheck(client: WebClient): ChannelCheck {
  return {
    async check(channelId) {
      try {
        const { channel } = await client.conversations.info({ channel: channelId });
        if (channel?.is_archived)
          return { ok: false, missing: ['an unarchived channel (this one is archived)'] };
        if (channel?.is_member === false) {
          return {
            ok: false,
            missing: ['membership of the channel (invite it there with /invite @Matchday)'],
          };
        }
        return channel?.name ? { ok: true, name: channel.name } : { ok: true };
      } catch (error) {
        const code = (error as { data?: { error?: string } }).data?.error;
        if (code === 'channel_not_found') {
          return {
            ok: false,
            missing: ['access to the channel (for a private channel, invite it with /invite @Matchday)'],
          };
        }
        throw error;
      }
    },
  };
}

interface SlashPayload {
  text: string;
  user_id: string;
  user_name: string;
  team_id: string;
  enterprise_id?: string;
  channel_id: string;
  channel_name: string;
}

/** Answers one `/matchday` command text. Never throws: every failure becomes a reply. */
async function answerCommand(
  host: SlackHost,
  client: WebClient,
  payload: SlashPayload,
  admins: AdminCache = new AdminCache(),
): Promise<Reply> {
  const { runtime, logger } = host;
  // `/matchday` alone is `/matchday help`.
  const text = decodeCommandText(payload.text ?? '').trim() || 'help';
  try {
    const parsed = parseCommandText(text, runtime.commands);
    const command = runtime.find(parsed.command);
    const tenantKey = slackTenantKey(payload.team_id, payload.enterprise_id);
    const cacheKey = `${tenantKey}/${payload.user_id}`;
    // Commands that can change settings (/settings, /follow) always ask Slack, so a demoted admin is
    // refused at once; others accept a status up to ADMIN_CACHE_MS old.
    const live = command?.adminOnly === true || command?.usesSettings === true;
    let isAdmin = live ? undefined : admins.get(cacheKey);
    if (isAdmin === undefined) {
      isAdmin = await isWorkspaceAdmin(client, payload.user_id, logger);
      if (isAdmin === undefined) {
        if (command?.adminOnly) {
          return errorReply(
            'Sorry',
            'Could not check with Slack whether you are a workspace admin. Please try again in a minute.',
          );
        }
        isAdmin = false;
      } else admins.set(cacheKey, isAdmin);
    }
    const call: CommandCall = {
      platform: 'slack',
      tenantKey,
      user: { id: payload.user_id, name: payload.user_name, isAdmin },
      channel: { id: payload.channel_id, name: payload.channel_name },
      command: parsed.command,
      ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
      args: parsed.args,
      channels: channelCheck(client),
    };
    return await runtime.execute(call);
  } catch (error) {
    if (error instanceof UserError) {
      return errorReply('Not quite', [...messageSpans(error.rich), ' See ', cmd('help'), '.'], {
        suggestions: error.suggestions,
      });
    }
    logger.error({ err: error }, 'slack command failed');
    return errorReply(
      'Sorry',
      'Something went wrong while answering. It has been logged; please try again later.',
      { colour: COLOURS.error },
    );
  }
}

/** The respond() body for a reply: blocks, fallback text, and who sees it. */
function responseOf(reply: Reply): {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
  blocks: unknown[];
} {
  const message = renderReply(reply);
  return {
    response_type: reply.ephemeral ? 'ephemeral' : 'in_channel',
    text: message.text,
    blocks: message.blocks,
  };
}

/** Registers the listeners: the slash command, reveal and link buttons, uninstall events. */
function registerListeners(bolt: App, host: SlackHost): void {
  const { logger } = host;
  const admins = new AdminCache();

  bolt.command(SLASH_COMMAND, async ({ command, ack, respond, client }) => {
    // Ack first: Slack shows the user an error if nothing is acked within 3 s.
    await ack();
    const reply = await answerCommand(host, client, command, admins);
    try {
      await respond(responseOf(reply) as Parameters<typeof respond>[0]);
    } catch (error) {
      logger.warn(
        { err: (error as Error).message, command: command.text.split(/\s+/)[0] },
        'slack respond failed',
      );
    }
    // Pictures (standings, brackets) follow the answer as files in the channel.
    await uploadImages(client, command.channel_id, reply, logger);
  });

  bolt.action(new RegExp(`^${REVEAL_ACTION}`), async ({ ack, action, respond }) => {
    await ack();
    const value = (action as { value?: string }).value ?? '';
    // Only the clicker sees it; the message itself keeps the spoiler hidden.
    await respond({ response_type: 'ephemeral', replace_original: false, ...revealMessage(value) });
  });

  // A page button: the page's command line runs as if typed by the clicker; the message is replaced
  // by the other page, and a refusal (an ephemeral reply) goes to the clicker alone.
  bolt.action(new RegExp(`^${PAGE_ACTION_ID}_`), async ({ ack, action, body, respond, client }) => {
    await ack();
    const line = pageActionLine((action as { value?: string }).value ?? '');
    if (line === undefined || body.type !== 'block_actions') return;
    const reply = await answerCommand(
      host,
      client,
      {
        text: line,
        user_id: body.user.id,
        user_name: body.user.username ?? body.user.name ?? 'someone',
        team_id: body.team?.id ?? body.user.team_id ?? '',
        ...(body.enterprise?.id ? { enterprise_id: body.enterprise.id } : {}),
        channel_id: body.channel?.id ?? '',
        channel_name: body.channel?.name ?? '',
      },
      admins,
    );
    try {
      const { response_type: _type, ...message } = responseOf(reply);
      await respond(
        reply.ephemeral
          ? { response_type: 'ephemeral', replace_original: false, ...message }
          : { replace_original: true, ...message },
      );
    } catch (error) {
      logger.warn({ err: (error as Error).message, button: line }, 'slack page respond failed');
    }
  });

  // Link buttons open their URL in the browser; Slack still sends an action, which must be acked.
  bolt.action(new RegExp(`^${LINK_ACTION}`), async ({ ack }) => {
    await ack();
  });

  const purge = async (reason: string, body: { team_id?: string; enterprise_id?: string | null }) => {
    if (!body.team_id) return;
    const tenantId = slackTenantId(body.team_id, body.enterprise_id);
    await host.tenants.purge(tenantId);
    logger.info({ tenant: tenantId, reason }, 'slack workspace purged');
  };
  bolt.event('app_uninstalled', async ({ body }) => {
    await purge('app_uninstalled', body);
  });
  bolt.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot token matters: Matchday holds no user tokens.
    if ((event.tokens.bot ?? []).length > 0) await purge('tokens_revoked', body);
  });

  bolt.error(async (error) => {
    logger.error({ code: error.code, err: error.message }, 'slack listener failed');
  });
}

/**
 * Starts Matchday on Slack. Checks the bot token with `auth.test` first, so a wrong token stops
 * start-up with a clear message; then starts Bolt in Socket Mode (app token) or HTTP mode (signing
 * secret).
 */
export async function startSlack(host: SlackHost, options: SlackOptions): Promise<SlackPlatform> {
  const { logger } = host;
  const mode = options.appToken ? 'socket' : 'http';
  if (mode === 'http' && !options.signingSecret) {
    throw new Error(
      'Slack needs SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode) besides SLACK_BOT_TOKEN.',
    );
  }
  const apiUrl = options.apiUrl
    ? options.apiUrl.endsWith('/')
      ? options.apiUrl
      : `${options.apiUrl}/`
    : undefined;
  const deliveryClient = createDeliveryClient(options.botToken, apiUrl ? { apiUrl } : {});

  let auth: { team_id?: string; user_id?: string; bot_id?: string };
  try {
    auth = await deliveryClient.auth.test();
  } catch (error) {
    const code = (error as { data?: { error?: string } }).data?.error;
    throw new Error(
      code
        ? `Slack refused SLACK_BOT_TOKEN (${code}). Check the bot token (xoxb-...) under OAuth & Permissions in the Slack app settings.`
        : `Could not reach the Slack API${apiUrl ? ` at ${apiUrl}` : ''}: ${(error as Error).message}`,
    );
  }

  const clientOptions = {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    // Set explicitly: Socket Mode would otherwise write 100 retries into these options.
    retryConfig: options.retryConfig ?? { retries: 2 },
  };
  const common = {
    token: options.botToken,
    // Known from auth.test, so Bolt makes no call of its own at construction.
    ...(auth.bot_id ? { botId: auth.bot_id } : {}),
    ...(auth.user_id ? { botUserId: auth.user_id } : {}),
    clientOptions,
    logger: boltLogger(logger),
  };

  let bolt: App;
  let server: Server | undefined;
  // Commands and clicks received and not yet answered: leaving Slack lets them finish.
  const inFlight = new InFlight();
  if (mode === 'socket') {
    bolt = new App({ ...common, socketMode: true, appToken: options.appToken });
    trackListeners(bolt, inFlight);
    registerListeners(bolt, host);
    await bolt.start();
  } else {
    const receiver = new HTTPReceiver({
      signingSecret: options.signingSecret!,
      endpoints: '/slack/events',
      logger: common.logger,
    });
    bolt = new App({ ...common, receiver });
    trackListeners(bolt, inFlight);
    registerListeners(bolt, host);
    // The guard runs on headers alone; the receiver then reads the raw body and checks the signature.
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (!freshTimestamp(req.headers['x-slack-request-timestamp'], Date.now())) {
        res.writeHead(401).end();
        return;
      }
      receiver.requestListener(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(options.port ?? 3000, options.host, () => resolve());
    });
  }
  const port = server ? (server.address() as AddressInfo).port : undefined;
  logger.info({ mode, team: auth.team_id, port }, 'Matchday is running on Slack');

  // Leaving closes the Socket Mode connection (Slack sends the next events to the app's other
  // connections, the other processes) or stops the HTTP listener taking connections (the load
  // balancer sends them elsewhere); answers go through the Web API and response URLs, which stay.
  let left: Promise<void> | undefined;
  const listening = server;
  const leave = () => {
    left ??= (async () => {
      if (listening) {
        const closed = new Promise<void>((resolve) => listening.close(() => resolve()));
        listening.closeIdleConnections();
        logger.info(
          { answering: inFlight.size },
          'stopped taking Slack requests; finishing what was received',
        );
        await inFlight.settled();
        // Keep-alive connections that sent nothing new are closed, so `close` can finish.
        listening.closeAllConnections();
        await closed;
      } else {
        await bolt.stop();
        logger.info({ answering: inFlight.size }, 'left the Slack socket; finishing what was received');
        await inFlight.settled();
      }
    })();
    return left;
  };

  const delivery = new SlackDelivery({
    client: deliveryClient,
    ...options.delivery,
  });
  return {
    bolt,
    delivery,
    mode,
    ...(port !== undefined ? { port } : {}),
    ...(auth.team_id ? { teamId: auth.team_id } : {}),
    leave,
    stop: async () => {
      await leave();
      server?.closeAllConnections();
    },
  };
}

/** Every listener (command, click, event) runs as tracked work: `leave` waits for what was received. */
function trackListeners(bolt: App, inFlight: InFlight): void {
  bolt.use(({ next }) => inFlight.track(next()));
}
