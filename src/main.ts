/**
 * `npm start` / `matchday start`: runs Matchday per its configuration.
 *
 * - No configuration: the local esports data service in-process on a free loopback port with a
 *   real-time clock, the client against it, the SQLite store, the notifier and the terminal chat.
 * - `ESPORTS_API_URL` + `ESPORTS_API_SECRET`: the real service instead of the embedded one.
 * - `DISCORD_TOKEN` and/or Slack variables: the Discord bot and/or the Slack app instead of the
 *   terminal chat (their modules are loaded only then).
 */
import { fstatSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client as DiscordClient } from 'discord.js';
import { type App, attachNotifier, createApp, openNotifier } from './app.ts';
import { createLogger, type Logger } from './bot/logger.ts';
import { StoreError, storeFailureText } from './bot/store-backend.ts';
import { calendarRoute, startCalendarServer } from './calendar/server.ts';
import { type Config, ConfigError, loadConfig, safeUrl } from './config.ts';
import type { Platform } from './core/tenant-id.ts';
import { TERMINAL_TENANT_ID } from './core/tenant-id.ts';
import type { Delivery } from './notify/delivery.ts';
import { NotifierLease } from './notify/leader.ts';
import { LedgerError } from './notify/ledger.ts';
import { OpsMetrics, type OpsServer, startOperations } from './ops/operations.ts';
import type { ChatPlatform } from './platforms/platform.ts';
import { startChat } from './platforms/terminal/chat.ts';
import { TerminalDelivery } from './platforms/terminal/delivery.ts';
import { liveSummary, subscribeTerminal } from './platforms/terminal/first-start.ts';
import { DEFAULT_WIDTH, renderReply, wrapLine } from './platforms/terminal/render.ts';
import { openLease } from './stores/open-lease.ts';

/** Where the terminal chat writes its logs (beside the SQLite store, or in ./data). */
function logFileFor(config: Config): string {
  return config.store.kind === 'sqlite' && config.store.path !== ':memory:'
    ? join(dirname(config.store.path), 'matchday.log')
    : './data/matchday.log';
}

/** The running Discord client, once started (its shards are reported by the operations endpoint). */
let discordClient: DiscordClient | undefined;

/** Each shard of this process: id, discord.js status (0 = ready) and last heartbeat ping. */
function discordShards(): { id: number; status: number; ping: number }[] {
  if (!discordClient) return [];
  return [...discordClient.ws.shards.values()].map((shard) => ({
    id: shard.id,
    status: shard.status,
    ping: shard.ping,
  }));
}

async function startPlatforms(
  app: App,
  config: Config,
  started: Partial<Record<Platform, ChatPlatform>>,
): Promise<Partial<Record<Platform, Delivery>>> {
  // Each platform's module (and its library) is loaded only when that platform is configured.
  if (config.discord) {
    const { startDiscord } = await import('./platforms/discord/bot.ts');
    const bot = await startDiscord(app, {
      token: config.discord.token,
      appId: config.discord.appId,
      apiUrl: config.discord.apiUrl,
      // Sharding across processes: this one runs these shards of the total (discord.js `shards`).
      ...(config.discord.shards
        ? { client: { shards: config.discord.shards.ids, shardCount: config.discord.shards.count } }
        : {}),
    });
    discordClient = bot.client;
    started.discord = bot;
  }
  if (config.slack) {
    const { startSlack } = await import('./platforms/slack/app.ts');
    started.slack = await startSlack(app, { ...config.slack });
  }
  const deliveries: Partial<Record<Platform, Delivery>> = {};
  for (const [platform, chat] of Object.entries(started) as [Platform, ChatPlatform][]) {
    deliveries[platform] = chat.delivery;
    app.onClose(() => chat.stop());
  }
  return deliveries;
}

function notifyLine(app: App): string {
  const on = 'reminders, live cards and digests are on';
  if (app.lease)
    return app.lease.leading
      ? `${on} (this process holds the notifier lease, term ${app.lease.token})`
      : 'standing by: another process holds the notifier lease (this one takes over if it stops)';
  if (app.notifier) return on;
  return `off (${app.notifierOff ?? 'the notifier did not start; see the log'})`;
}

/** The start-up banner: what runs, and how to connect the rest. */
export function banner(
  app: App,
  mode: 'terminal' | 'platforms' | 'headless',
  logFile?: string,
  live?: string,
): string {
  const { config } = app;
  const sizes = app.names.sizes();
  const data = app.service
    ? `embedded local esports service at ${config.esports.api === 'v2' ? app.service.v2.url : app.service.url} (seed ${config.esports.seed}, ${clockWords(config)})`
    : `esports service at ${safeUrl(config.esports.url ?? '')}`;
  const lines = [
    `Matchday is running${mode === 'terminal' ? ' in your terminal' : mode === 'headless' ? ' headless (notifier only, no chat)' : ''}.`,
    `  data    ${data}`,
    `  names   ${
      sizes.teams || sizes.tournaments || sizes.games
        ? `${sizes.teams ?? 0} teams, ${sizes.tournaments ?? 0} tournaments, ${sizes.games ?? 0} games`
        : 'loading in the background (commands answer meanwhile)'
    }`,
    `  store   ${safeUrl(config.store.url)}${app.storeProblem ? ` (${storeFailureText(app.storeProblem.failure)}: settings are unavailable; see the log)` : ''}`,
    `  config  ${config.envFile ? `${config.envFile}, under the environment` : 'the environment (no .env file here)'}`,
    `  notify  ${notifyLine(app)}`,
  ];
  if (config.discord?.shards)
    lines.push(
      `  shards  Discord shards ${config.discord.shards.ids.join(', ')} of ${config.discord.shards.count}`,
    );
  if (logFile) lines.push(`  logs    ${logFile}`);
  if (config.ops)
    lines.push(`  ops     http://${config.ops.host}:${config.ops.port} (/healthz, /readyz, /metrics)`);
  if (config.calendar)
    lines.push(`  ical    ${config.calendar.baseUrl}/calendar/<token>.ics (/me calendar gives yours)`);
  if (live) lines.push(`  live    ${live}`);
  // The terminal's width at most (a long path continues under its value, a URL stays whole); not
  // wrapped when stdout is a file or a pipe.
  const width = process.stdout.isTTY ? process.stdout.columns || DEFAULT_WIDTH : Number.POSITIVE_INFINITY;
  const wrapped = lines.flatMap((line) => wrapLine(line, width, 10));
  if (mode === 'terminal') {
    // One paragraph, wrapped as a whole (pre-cut lines wrapped again read ragged).
    const help =
      "Type /help for the commands, Tab to complete, exit to leave. You are this chat's admin: try " +
      '/settings show. Connect Discord (DISCORD_TOKEN, DISCORD_APP_ID), Slack (SLACK_BOT_TOKEN with ' +
      'SLACK_APP_TOKEN or SLACK_SIGNING_SECRET) or the real esports service (ESPORTS_API_URL, ' +
      'ESPORTS_API_SECRET): see .env.example.';
    wrapped.push('', ...wrapLine(help, width));
  }
  return `${wrapped.join('\n')}\n\n`;
}

export async function run(argv: string[]): Promise<void> {
  const config = configFromArgs(argv);
  if (!config) return;
  const platformsWanted = Boolean(config.discord || config.slack);
  // A container or service manager gives no terminal: stdin is /dev/null (or closed). The terminal
  // chat would read nothing and end at once, so Matchday runs as a notifier-only service instead.
  const headless = !platformsWanted && stdinIsNothing();
  const logFile = platformsWanted || headless ? undefined : logFileFor(config);
  const running = await openApp(config, logFile);
  if (!running) return;
  const { app, logger } = running;
  const shutdown = gracefulStop(running);
  const failed = async (what: string, error: unknown, text: string) => {
    logger.error({ err: error }, what);
    process.stderr.write(`Matchday could not start: ${text}\n`);
    await shutdown();
    process.exitCode = 1;
  };

  const { users, tenants, client, names, clock } = app;
  const calendar = config.calendar
    ? calendarRoute({ users, tenants, client, names, clock, logger })
    : undefined;
  if (calendar && config.calendar?.port !== undefined) {
    const { host, port } = config.calendar;
    try {
      const server = await startCalendarServer(calendar, { host, port, logger });
      app.onClose(() => server.close());
    } catch (error) {
      const why = `the calendar endpoint (CALENDAR_PORT=${port}) could not listen on ${host}`;
      return failed('the calendar endpoint failed to start', error, `${why}: ${(error as Error).message}`);
    }
  }
  if (running.metrics && config.ops) {
    try {
      const route = config.calendar?.port === undefined ? calendar : undefined;
      running.ops = await startOperations(app, config.ops, running.metrics, route);
    } catch (error) {
      const why = `the operations endpoint (METRICS_PORT=${config.ops.port}) could not listen on ${config.ops.host}`;
      return failed('the operations endpoint failed to start', error, `${why}: ${(error as Error).message}`);
    }
  }

  let deliveries: Partial<Record<Platform, Delivery>> = {};
  if (platformsWanted) {
    try {
      deliveries = await startPlatforms(app, config, running.platforms);
    } catch (error) {
      return failed('a chat platform failed to start', error, (error as Error).message);
    }
  }
  watchDiscord(running);
  if (Object.keys(deliveries).length > 0) {
    await startNotifier(app, deliveries);
    const stopped = untilSignal();
    process.stdout.write(banner(app, 'platforms'));
    await stopped;
    await shutdown();
    return;
  }

  const terminal = new TerminalDelivery();
  const live = await startTerminalNotifier(running, terminal);
  if (headless) await runHeadless(app, terminal, 'stdin is not a terminal');
  else await runTerminalChat(running, terminal, logFile, live);
  await shutdown();
}

/** What `run` opened, closed by its graceful stop. */
interface Running {
  app: App;
  config: Config;
  logger: Logger;
  metrics?: OpsMetrics;
  ops?: OpsServer;
  /** The chat platforms started (Discord, Slack): left first on a graceful stop. */
  platforms: Partial<Record<Platform, ChatPlatform>>;
}

/** The configuration from the environment and `--api`; undefined (said on stdout or stderr) when none. */
function configFromArgs(argv: string[]): Config | undefined {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'Usage: matchday start [--api v2|v3]\n\nConfiguration comes from environment variables; see .env.example.\n--api v2 speaks the earlier (v2) interface (same as ESPORTS_API_VERSION=v2).\n',
    );
    return undefined;
  }
  // `--api v2|v3`: the interface to speak, over ESPORTS_API_VERSION.
  const apiAt = argv.indexOf('--api');
  const api = apiAt >= 0 ? (argv[apiAt + 1] ?? '') : undefined;
  if (api !== undefined && api !== 'v2' && api !== 'v3') {
    process.stderr.write(`--api "${api}" is not an interface: use --api v2 or --api v3.\n`);
    process.exitCode = 2;
    return undefined;
  }
  try {
    const config = loadConfig(undefined, api ? { api } : {});
    for (const warning of config.envWarnings ?? []) process.stderr.write(`warning: ${warning}\n`);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
    return undefined;
  }
}

/** The logger (to the log file in the terminal chat, else stderr) and the app; undefined if it failed. */
async function openApp(config: Config, logFile: string | undefined): Promise<Running | undefined> {
  const secrets = new Set(config.secrets);
  const logger = logFile
    ? createLogger({ level: config.logLevel, secrets, file: logFile })
    : createLogger({ level: config.logLevel, secrets, pretty: process.stderr.isTTY === true });
  const metrics = config.ops ? new OpsMetrics() : undefined;
  try {
    const app = await createApp(config, {
      logger,
      secrets,
      feed: 'poller',
      warmInBackground: true,
      ...(metrics ? { onCommand: metrics.observeCommand } : {}),
    });
    return { app, config, logger, ...(metrics ? { metrics } : {}), platforms: {} };
  } catch (error) {
    metrics?.close();
    logger.error({ err: error }, 'start-up failed');
    process.stderr.write(`Matchday could not start: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return undefined;
  }
}

/**
 * Graceful stop (SIGTERM), as a replica behind others should stop:
 * 1. /readyz turns 503, and this process leaves the chat platforms (the Discord gateway session
 *    and the Slack socket close), so they route new commands to the other processes; the
 *    commands already received are answered. A command that still reaches the runtime after that
 *    (the terminal, `ask`) gets a short "restarting" notice.
 * 2. The notifier stops: posts under way finish, and the notifier lease is released at once, so
 *    another process takes the notifications over without waiting for the lease to expire.
 * 3. Everything else closes in reverse order of opening.
 * Bounded: a stop that hangs past SHUTDOWN_LIMIT_MS exits 1 (orchestrators send SIGKILL at 10 s).
 */
function gracefulStop(running: Running): () => Promise<void> {
  const { app, logger, metrics } = running;
  let shuttingDown = false;
  return async () => {
    if (shuttingDown) return;
    shuttingDown = true;
    const forced = setTimeout(() => {
      logger.error({ limitMs: SHUTDOWN_LIMIT_MS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    forced.unref();
    if (running.ops) running.ops.draining = true;
    await Promise.all(
      Object.entries(running.platforms).map(([platform, chat]) =>
        chat.leave().catch((error: unknown) => logger.warn({ err: error, platform }, 'leaving failed')),
      ),
    );
    app.runtime.closing = true;
    await app.close();
    await running.ops?.close();
    metrics?.close();
    clearTimeout(forced);
  };
}

/** With Discord and the operations endpoint: the shards in the metrics, and a readiness check. */
function watchDiscord({ ops, metrics }: Running): void {
  if (!discordClient || !ops || !metrics) return;
  metrics.use({ shards: discordShards });
  ops.check('discord', async () => {
    const shards = discordShards();
    const down = shards.filter((shard) => shard.status !== 0).map((shard) => shard.id);
    if (shards.length === 0 || down.length > 0)
      throw new Error(`shard${down.length === 1 ? '' : 's'} ${down.join(', ') || '(none)'} not connected`);
  });
}

/**
 * The notifier over the terminal tenant's channel: on first start it is subscribed, so
 * notifications show at once. Returns the banner's live line.
 */
async function startTerminalNotifier(
  { app, config, logger }: Running,
  terminal: TerminalDelivery,
): Promise<string | undefined> {
  const subscribe = async () => {
    try {
      const done = await subscribeTerminal(app.tenants, app.clock.now(), config.systemTimeZone);
      app.notifier?.invalidate();
      logger.info({ tenant: TERMINAL_TENANT_ID, done }, 'terminal channel: notifications from now on');
    } catch (error) {
      logger.warn({ err: error }, 'could not subscribe the terminal channel; use /settings channel-add');
    }
  };
  // A known terminal tenant's `since` moves before the notifier's first tick (nothing that ended
  // while Matchday was off is replayed). A first start subscribes after the notifier started: its
  // ledger check reads "tenants but no ledger file" as a lost ledger.
  const known = await app.tenants.list().then(
    (ids) => ids.includes(TERMINAL_TENANT_ID),
    () => false,
  );
  if (known) await subscribe();
  await startNotifier(app, { terminal });
  if (!known) await subscribe();
  try {
    return await liveSummary(app.client, app.tenants);
  } catch (error) {
    logger.warn({ err: error }, 'could not count the live series for the banner');
    return undefined;
  }
}

/** The terminal chat, until it ends (exit, end of input, SIGTERM; SIGINT too without a TTY). */
async function runTerminalChat(
  { app, logger }: Running,
  terminal: TerminalDelivery,
  logFile: string | undefined,
  live: string | undefined,
): Promise<void> {
  process.stdout.write(banner(app, 'terminal', logFile, live));
  const historyFile = join(dirname(logFile ?? './data/matchday.log'), 'chat-history.txt');
  const chat = startChat(app, {
    input: process.stdin,
    output: process.stdout,
    history: readHistory(historyFile),
  });
  // `matchday start | head`: a closed stdout ends the chat instead of crashing it.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') chat.close();
  });
  await terminal.attach((reply, header, update) => chat.showReply(reply, header, update));
  let signalled = false;
  const endChat = () => {
    signalled = true;
    chat.close();
  };
  process.once('SIGTERM', endChat);
  if (!process.stdin.isTTY) process.once('SIGINT', endChat);
  await chat.closed;
  process.off('SIGTERM', endChat);
  process.off('SIGINT', endChat);
  if (process.stdin.isTTY) writeHistory(historyFile, chat.history(), logger);
  logger.info({ tenant: TERMINAL_TENANT_ID }, 'terminal chat ended');
  // Piped input that ended before any command (`docker run -i` with nothing attached, `< /dev/null`
  // through a pipe): there was never a chat to serve, so keep serving notifications instead of
  // exiting 0 as if the work were done.
  if (!process.stdin.isTTY && !signalled && chat.history().length === 0) {
    await runHeadless(app, terminal, 'stdin ended before any command');
  }
}

/**
 * True when stdin can never carry a chat: not a terminal, and /dev/null (a character device that is
 * not a TTY) or closed. A pipe or a file may carry commands (`matchday start < commands.txt`).
 */
function stdinIsNothing(): boolean {
  if (process.stdin.isTTY) return false;
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true; // EBADF: no stdin at all
  }
}

/** Resolves at the first SIGINT or SIGTERM. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = on('SIGINT');
    const onTerm = on('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

/**
 * The notifier-only service: no chat platform is configured and there is no terminal to chat in.
 * Notifications for the terminal channel are written to stdout as plain text (a container's log);
 * commands are answered by `matchday ask "/..."` (or a chat platform, once configured). Runs until
 * SIGINT or SIGTERM.
 */
async function runHeadless(app: App, terminal: TerminalDelivery, why: string): Promise<void> {
  // Listen before saying so: whoever reads the line may send SIGTERM at once.
  const stopped = untilSignal();
  const message =
    `Matchday is running headless (${why}; no DISCORD_TOKEN or SLACK_BOT_TOKEN): notifier-only service, ` +
    `${app.notifier ? 'notifications for the terminal channel are written to stdout' : app.lease ? 'standing by for the notifier lease (another process holds it)' : 'but the notifier did not start (see the log)'}; ` +
    'no chat. Set DISCORD_TOKEN or SLACK_BOT_TOKEN to serve a chat platform, or run with a terminal (docker run -it) to chat here.';
  process.stdout.write(banner(app, 'headless'));
  app.logger.info({ mode: 'headless', notifier: Boolean(app.notifier) }, message);
  process.stderr.write(`${message}\n`);
  await terminal.attach(async (reply, header) => {
    const timezone = await app.tenants
      .get(TERMINAL_TENANT_ID)
      .then((settings) => settings.timezone)
      .catch(() => 'UTC');
    const text = renderReply(reply, { colour: false, timezone, now: app.clock.now() });
    process.stdout.write(`${header}\n${text.replace(/\n{2,}/g, '\n')}\n\n`);
  });
  const signal = await stopped;
  app.logger.info({ signal }, 'shutting down');
}

/** A stop must end within 10 s (Kubernetes' and Docker's default grace): 9 s leaves a margin. */
const SHUTDOWN_LIMIT_MS = 9_000;

/** The chat's previous lines, most recent first (only interactive sessions keep history). */
function readHistory(file: string): string[] {
  if (!process.stdin.isTTY) return [];
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(0, HISTORY_LINES);
  } catch {
    return [];
  }
}

function writeHistory(file: string, lines: string[], logger: Logger): void {
  try {
    writeFileSync(file, `${lines.slice(0, HISTORY_LINES).join('\n')}\n`, { mode: 0o600 });
  } catch (error) {
    logger.warn({ err: error }, 'could not save the chat history');
  }
}

const HISTORY_LINES = 500;

async function startNotifier(app: App, deliveries: Partial<Record<Platform, Delivery>>): Promise<void> {
  try {
    // Every tick would read the settings and fail (and on SQLite the lease lives in that very file):
    // off, with the reason, rather than on and failing.
    if (app.storeProblem) throw app.storeProblem;
    const store = app.config.store;
    if (store.kind === 'sqlite' && store.path === ':memory:') {
      // A store in memory is this process's alone: nobody to share the notifier with.
      await attachNotifier(app, deliveries);
      return;
    }
    // Many processes on one store (one Redis, or one SQLite file): only the holder of the lease in that
    // store runs the notifier; the others stand by and take it over when the holder dies or stops.
    let close: (() => Promise<void>) | undefined;
    let failure: unknown;
    const lease = new NotifierLease({
      lease: await openLease(store),
      logger: app.logger,
      lead: async () => {
        try {
          close = (await openNotifier(app, deliveries)).close;
        } catch (error) {
          failure = error;
          throw error;
        }
      },
      resign: async () => {
        await close?.();
        close = undefined;
      },
    });
    try {
      await lease.start();
    } catch (error) {
      await lease.stop().catch(() => undefined);
      throw error;
    }
    // A ledger or store that cannot be used (damaged, missing, refused) is not mended by trying again:
    // the notifier is off, and says why, as it is for a single process.
    if (!lease.leading && (failure instanceof LedgerError || failure instanceof StoreError)) {
      await lease.stop();
      throw failure;
    }
    app.lease = lease;
    app.onClose(() => lease.stop());
  } catch (error) {
    // Commands still work without notifications; the banner says the notifier is off.
    app.logger.error({ err: error }, 'the notifier failed to start');
    // A ledger or store problem is the operator's to fix: said on the terminal too, not only in the log.
    app.notifierOff =
      error instanceof StoreError
        ? storeFailureText(error.failure)
        : error instanceof LedgerError
          ? 'the notification ledger could not be opened; see the log'
          : 'the notifier did not start; see the log';
    if (error instanceof LedgerError || error instanceof StoreError)
      process.stderr.write(`Notifications are off: ${error.message}\n`);
  }
}

/** The embedded clock in the banner: its speed, and the instant it started from when CLOCK_START set one. */
function clockWords({ clockSpeed, clockStart }: Config): string {
  const speed = clockSpeed ? `clock at ${clockSpeed}x real time` : 'real-time clock';
  return clockStart ? `${speed} from ${clockStart.toISOString().slice(0, 16).replace('T', ' ')} UTC` : speed;
}
