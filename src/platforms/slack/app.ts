/**
 * Matchday on Slack: a Bolt app in Socket Mode (bot token + app-level token) or over HTTP (bot token +
 * signing secret; Bolt's HTTPReceiver verifies `v0` signatures over the raw body within 5 minutes and
 * answers 401 before any listener runs).
 *
 * Bolt only refuses timestamps older than 5 minutes; a guard in front of its receiver refuses those
 * more than 5 minutes ahead as well (and a missing timestamp), so the window is symmetric.
 *
 * What Matchday does with each command, click and event is in `listeners.ts`.
 */

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type AppOptions, type Logger as BoltLogger, HTTPReceiver, LogLevel } from '@slack/bolt';
import type { Logger } from '../../bot/logger.ts';
import { guardedServer, LISTEN_BACKLOG } from '../../core/http-guard.ts';
import { type ChatPlatform, InFlight } from '../platform.ts';
import { createDeliveryClient, SlackDelivery, type SlackDeliveryOptions } from './delivery.ts';
import { registerListeners, type SlackHost } from './listeners.ts';

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
  const auth = await checkBotToken(deliveryClient, apiUrl);
  const common = boltOptions(options, apiUrl, auth, logger);

  // Commands and clicks received and not yet answered: leaving Slack lets them finish.
  const inFlight = new InFlight();
  const { bolt, server } =
    mode === 'socket'
      ? await startSocketMode(host, { ...common, socketMode: true, appToken: options.appToken }, inFlight)
      : await startHttpMode(host, common, options, inFlight);
  const port = server ? (server.address() as AddressInfo).port : undefined;
  logger.info({ mode, team: auth.team_id, port }, 'Matchday is running on Slack');

  const leave = leaver(bolt, server, inFlight, logger);
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

/** What `auth.test` says of the bot token. */
interface BotAuth {
  team_id?: string;
  user_id?: string;
  bot_id?: string;
}

/** `auth.test` with the bot token: a refused token or an unreachable API becomes a clear message. */
async function checkBotToken(
  client: ReturnType<typeof createDeliveryClient>,
  apiUrl: string | undefined,
): Promise<BotAuth> {
  try {
    return await client.auth.test();
  } catch (error) {
    const code = (error as { data?: { error?: string } }).data?.error;
    throw new Error(
      code
        ? `Slack refused SLACK_BOT_TOKEN (${code}). Check the bot token (xoxb-...) under OAuth & Permissions in the Slack app settings.`
        : `Could not reach the Slack API${apiUrl ? ` at ${apiUrl}` : ''}: ${(error as Error).message}`,
    );
  }
}

/** Bolt's options for either mode: the bot token, what auth.test told, the Web API client, logging. */
function boltOptions(
  options: SlackOptions,
  apiUrl: string | undefined,
  auth: BotAuth,
  logger: Logger,
): AppOptions & { logger: BoltLogger } {
  const clientOptions = {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    // Set explicitly: Socket Mode would otherwise write 100 retries into these options.
    retryConfig: options.retryConfig ?? { retries: 2 },
  };
  return {
    token: options.botToken,
    // Known from auth.test, so Bolt makes no call of its own at construction.
    ...(auth.bot_id ? { botId: auth.bot_id } : {}),
    ...(auth.user_id ? { botUserId: auth.user_id } : {}),
    clientOptions,
    logger: boltLogger(logger),
  };
}

/** Socket Mode: Bolt connects out to Slack with the app token; there is no server of our own. */
async function startSocketMode(
  host: SlackHost,
  options: AppOptions,
  inFlight: InFlight,
): Promise<{ bolt: App; server?: undefined }> {
  const bolt = new App(options);
  trackListeners(bolt, inFlight);
  registerListeners(bolt, host);
  await bolt.start();
  return { bolt };
}

/**
 * HTTP mode: our own server, with the timestamp guard in front of Bolt's receiver. The guard runs on
 * headers alone; the receiver then reads the raw body and checks the signature.
 */
async function startHttpMode(
  host: SlackHost,
  common: AppOptions & { logger: BoltLogger },
  options: SlackOptions,
  inFlight: InFlight,
): Promise<{ bolt: App; server: Server }> {
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret!,
    endpoints: '/slack/events',
    logger: common.logger,
  });
  const bolt = new App({ ...common, receiver });
  trackListeners(bolt, inFlight);
  registerListeners(bolt, host);
  // The public port's connection cap and short timeouts (`core/http-guard.ts`).
  const { server } = guardedServer((req: IncomingMessage, res: ServerResponse) => {
    if (!freshTimestamp(req.headers['x-slack-request-timestamp'], Date.now())) {
      res.writeHead(401).end();
      return;
    }
    receiver.requestListener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 3000, host: options.host, backlog: LISTEN_BACKLOG }, () =>
      resolve(),
    );
  });
  return { bolt, server };
}

/** Every listener (command, click, event) runs as tracked work: `leave` waits for what was received. */
function trackListeners(bolt: App, inFlight: InFlight): void {
  bolt.use(({ next }) => inFlight.track(next()));
}

/**
 * The platform's `leave`, which does its work once however often it is called. Leaving closes the
 * Socket Mode connection (Slack sends the next events to the app's other connections, the other
 * processes) or stops the HTTP listener taking connections (the load balancer sends them elsewhere);
 * answers go through the Web API and response URLs, which stay.
 */
function leaver(
  bolt: App,
  server: Server | undefined,
  inFlight: InFlight,
  logger: Logger,
): () => Promise<void> {
  let left: Promise<void> | undefined;
  return () => {
    left ??= server ? stopListening(server, inFlight, logger) : leaveSocket(bolt, inFlight, logger);
    return left;
  };
}

/** HTTP mode: no new connections; what was received is answered, then the server closes. */
async function stopListening(server: Server, inFlight: InFlight, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  logger.info({ answering: inFlight.size }, 'stopped taking Slack requests; finishing what was received');
  await inFlight.settled();
  // Keep-alive connections that sent nothing new are closed, so `close` can finish.
  server.closeAllConnections();
  await closed;
}

/** Socket Mode: the connection closes at once; what was received is still answered. */
async function leaveSocket(bolt: App, inFlight: InFlight, logger: Logger): Promise<void> {
  await bolt.stop();
  logger.info({ answering: inFlight.size }, 'left the Slack socket; finishing what was received');
  await inFlight.settled();
}
