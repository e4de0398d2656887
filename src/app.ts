/**
 * Builds a running Matchday from its configuration: the clock, the logger, the esports data service
 * (embedded when no `ESPORTS_API_URL` is set), the data client, the tenant store, the name index and
 * the command runtime. Platforms (terminal, Discord, Slack) and the notifier attach to the result;
 * `close()` takes everything down in reverse order.
 */
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { AnyCommand } from './bot/command.ts';
import { createLogger, type Logger, routeCronLogs } from './bot/logger.ts';
import { createNameIndex, type NameIndex } from './bot/names.ts';
import { type RateLimit, Runtime, type RuntimeDeps } from './bot/runtime.ts';
import { StatusTracker } from './bot/status.ts';
import { isLasting, StoreError } from './bot/store-backend.ts';
import { openTenantStore, type TenantStore } from './bot/tenants.ts';
import { openUserStore, type UserStore } from './bot/users.ts';
import { createClient, type EsportsClient } from './client/client.ts';
import type { SharedBudgetPlan } from './client/shared-budget.ts';
import type { Config } from './config.ts';
import { Clock } from './core/clock.ts';
import type { Platform } from './core/tenant-id.ts';
import type { FeedPush } from './feed/feed.ts';
import { createFeed, type Feed } from './feed/feed.ts';
import { keepNamesShared, NAMES_REFRESH_MS, openSnapshotStore, warmNames } from './feed/warm.ts';
import { enterWorld, worldOf, worldScoped } from './feed/world-store.ts';
import type { Delivery } from './notify/delivery.ts';
import type { Ledger } from './notify/ledger.ts';
import type { Notifier } from './notify/notifier.ts';
import type { RunningService } from './service/index.ts';

/** Requests per second of the embedded service (and the client against it) unless ESPORTS_RATE says otherwise. */
const EMBEDDED_RATE = 50;

export interface App {
  config: Config;
  clock: Clock;
  /** The embedded local service, when no real one is configured. */
  service?: RunningService;
  client: EsportsClient;
  tenants: TenantStore;
  /** Personal profiles (`/me`, calendars), beside the tenant settings. */
  users: UserStore;
  names: NameIndex;
  /** The shared picture commands read first (absent unless `AppOverrides.feed` asked for one). */
  feed?: Feed;
  /** The name index's first load from the service, when it runs behind the commands (`namesInBackground`). */
  namesWarming?: Promise<void>;
  runtime: Runtime;
  logger: Logger;
  /** Set while this process runs the notifier (`attachNotifier`, or while it holds the notifier lease). */
  notifier?: Notifier;
  /**
   * The notifier lease of this process, in the store every process on it shares (Redis, or the SQLite
   * file): absent only with a store in memory, where the one process always leads.
   */
  lease?: { readonly leading: boolean; readonly token: number };
  /**
   * A store failure found at start that waiting does not mend (a damaged SQLite file, a refused
   * password): commands answer without settings, the notifier stays off, and the banner and
   * `/readyz` say why.
   */
  storeProblem?: StoreError;
  /** Why the notifier is off, when it failed to start (the banner and `/readyz` say it). */
  notifierOff?: string;
  /** Registers cleanup to run on `close()` (platforms, notifier); last registered runs first. */
  onClose(cleanup: () => Promise<void> | void): void;
  close(): Promise<void>;
}

interface AppOverrides {
  clock?: Clock;
  logger?: Logger;
  /** The commands to serve; default `commands/index.ts`. */
  commands?: AnyCommand[];
  perUserLimit?: RateLimit;
  /** Skip the first name-index load (tests that do not need names). */
  skipNameRefresh?: boolean;
  /** Secrets for the logger's scrubber; the embedded service's secret is added to it. */
  secrets?: Set<string>;
  /** Told about every command call (the operations metrics' latency histogram). */
  onCommand?: RuntimeDeps['onExecuted'];
  /**
   * Run the feed and keep it and the name index in the store: 'poller' (a long-running Matchday)
   * refreshes them, sharing one refresher with other processes on the store; 'reader' (`matchday
   * ask`) starts from what is stored and reads only a stale live listing.
   */
  feed?: 'poller' | 'reader';
  /** Load the name index and start the feed without waiting for them (start-up: banner first). */
  warmInBackground?: boolean;
  /**
   * Load the stored name index and snapshot, but refresh an index the store lacks in the background
   * (`matchday ask`: names asked for are looked up; `App.namesWarming` says when the load is done).
   */
  namesInBackground?: boolean;
  /** The process answers one command and ends (`matchday ask`): `/status` says its figures are its own. */
  oneShot?: boolean;
}

/** How old a stored name index a reader (`matchday ask`) still uses as it is. */
const READER_NAMES_MAX_AGE_MS = 24 * 3600_000;

/** Creates the app. Throws `StoreError` when the store cannot be opened; nothing is left running then. */
export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const secrets = overrides.secrets ?? new Set(config.secrets);
  for (const secret of config.secrets) secrets.add(secret);
  const logger = overrides.logger ?? createLogger({ level: config.logLevel, secrets });
  const clock =
    overrides.clock ??
    new Clock({
      ...(config.clockSpeed ? { speed: config.clockSpeed } : {}),
      ...(config.clockStart ? { start: config.clockStart } : {}),
    });
  const { onClose, close } = cleanupList(logger);
  try {
    const { tenants, users } = await openStores(config, logger, onClose);
    const storeProblem = await lastingProblem(tenants);
    const connection = await connectService(config, clock, secrets, onClose);
    const client = await openClient(config, connection, logger, onClose);
    const names = createNameIndex({ client, clock, logger });
    const { feed, namesWarming } = await startNames(config, overrides, {
      client,
      ...(connection.push ? { push: connection.push } : {}),
      clock,
      logger,
      names,
      onClose,
    });
    const commands = overrides.commands ?? (await import('../commands/index.ts')).commands;
    const { service } = connection;
    const app: App = {
      config,
      clock,
      ...(service ? { service } : {}),
      client,
      tenants,
      users,
      names,
      ...(feed ? { feed } : {}),
      ...(namesWarming ? { namesWarming } : {}),
      ...(storeProblem ? { storeProblem } : {}),
      runtime: undefined as unknown as Runtime,
      logger,
      onClose,
      close,
    };
    app.runtime = commandRuntime(app, commands, overrides);
    return app;
  } catch (error) {
    await close();
    throw error;
  }
}

type OnClose = App['onClose'];

/** The store's failure at start when it is one that lasts (`isLasting`); a passing outage is not. */
async function lastingProblem(tenants: TenantStore): Promise<StoreError | undefined> {
  try {
    await tenants.list();
    return undefined;
  } catch (error) {
    return error instanceof StoreError && isLasting(error.failure) ? error : undefined;
  }
}

/** `onClose` registers cleanups; `close` runs them, last registered first, logging what fails. */
function cleanupList(logger: Logger): { onClose: OnClose; close: () => Promise<void> } {
  const cleanups: (() => Promise<void> | void)[] = [];
  let closed = false;
  const onClose = (cleanup: () => Promise<void> | void) => {
    // Something started in the background after close() (a late name-index warm-up) stops at once.
    if (closed)
      void Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
    else cleanups.push(cleanup);
  };
  async function close(): Promise<void> {
    closed = true;
    while (cleanups.length > 0) {
      const cleanup = cleanups.pop()!;
      try {
        await cleanup();
      } catch (error) {
        logger.warn({ err: error }, 'error while shutting down');
      }
    }
  }
  return { onClose, close };
}

/**
 * The tenant and user stores, first: the part most likely to be misconfigured, and it needs no
 * network. A Redis that came back empty is refilled from this process's mirror: said on stderr at
 * start (later restores are logged), as a deliberate FLUSHDB would otherwise be undone silently.
 */
async function openStores(
  config: Config,
  logger: Logger,
  onClose: OnClose,
): Promise<{ tenants: TenantStore; users: UserStore }> {
  let starting = true;
  const onRestore = (notice: string) => {
    if (starting) process.stderr.write(`${notice}\n`);
  };
  const tenants = await openTenantStore(config.store, { logger, onRestore });
  onClose(() => tenants.close());
  const users = await openUserStore(config.store, { logger, onRestore });
  starting = false;
  onClose(() => users.close());
  return { tenants, users };
}

/** Where the client connects, with what; the embedded service when it is the one. */
interface Connection {
  service?: RunningService;
  baseUrl: string;
  secret?: string;
  /** The push root and the secret it takes, when the service has (or may have) push. */
  push?: { url: string; secret: string };
  /** v2: the client id and secret. */
  v2Pair?: { id: string; secret: string };
  /** Requests per second, when set or embedded. */
  rate?: number;
}

/** The configured service, or the embedded one started for this process (its secrets kept from logs). */
async function connectService(
  config: Config,
  clock: Clock,
  secrets: Set<string>,
  onClose: OnClose,
): Promise<Connection> {
  // The embedded service is ours alone: a higher budget than the real service's 5/s lets the name
  // index load in about a second instead of ten. ESPORTS_RATE=5 restores the real service's pace.
  const embedded = !config.esports.url;
  const embeddedRate = config.esports.rate ?? EMBEDDED_RATE;
  const rate = config.esports.rate ?? (embedded ? EMBEDDED_RATE : undefined);
  const baseUrl = config.esports.url;
  const secret = config.esports.secret;
  const v2 = config.esports.api === 'v2';
  let v2Pair =
    v2 && config.esports.clientId && config.esports.clientSecret
      ? { id: config.esports.clientId, secret: config.esports.clientSecret }
      : undefined;
  const known = { ...(v2Pair ? { v2Pair } : {}), ...(rate !== undefined ? { rate } : {}) };
  const pushOff = config.esports.push === 'off';
  if (baseUrl && (secret || v2)) {
    // The real service: push at ESPORTS_PUSH_URL, or beside the v3 root (off on v2: push speaks v3).
    const pushUrl = config.esports.push ?? (v2 ? undefined : defaultPushUrl(baseUrl));
    const push = !pushOff && pushUrl && secret ? { push: { url: pushUrl, secret } } : {};
    return { baseUrl, ...(secret !== undefined ? { secret } : {}), ...push, ...known };
  }
  const { startService } = await import('./service/index.ts');
  // A random secret for this start, known only to this process, and only in a header: another
  // local user who finds the loopback port cannot use it.
  const service = await startService({
    port: 0,
    querySecret: false,
    seed: config.esports.seed,
    clock,
    rate: embeddedRate,
    burst: Math.max(5, Math.ceil(embeddedRate)),
    // v2 (src/client/v2/): the configured pair, else the pair the service generates for this start.
    ...(v2Pair ? { v2Clients: [v2Pair] } : {}),
  });
  onClose(() => service.close());
  secrets.add(service.secret);
  v2Pair ??= service.v2.clients[0];
  if (v2Pair) secrets.add(v2Pair.secret);
  return {
    service,
    baseUrl: v2 ? service.v2.url : service.url,
    secret: service.secret,
    // The embedded world always has push. Its payloads are v3 summaries: a v2 client polls, so that
    // what a fan reads never differs from what its REST interface says.
    ...(pushOff || v2 ? {} : { push: { url: defaultPushUrl(service.url), secret: service.secret } }),
    ...(v2Pair ? { v2Pair } : {}),
    ...(rate !== undefined ? { rate } : {}),
  };
}

/** The push root beside a v3 root (`https://host/v3` -> `https://host/v3/push`). */
function defaultPushUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/push`;
}

/** The data client: v2 with a token shared through the store, or v3 with the secret. */
async function openClient(
  config: Config,
  { baseUrl, secret, v2Pair, rate }: Connection,
  logger: Logger,
  onClose: OnClose,
): Promise<EsportsClient> {
  const v2 = config.esports.api === 'v2';
  // On Redis, every process on this secret spends one shared budget (src/client/shared-budget.ts).
  const sharedBudget =
    config.store.kind === 'redis'
      ? await import('./client/redis-budget.ts').then(
          ({ RedisBudget }) =>
            (plan: SharedBudgetPlan) =>
              new RedisBudget(config.store.url, plan, { logger }),
        )
      : undefined;
  // v2: the token is shared with every process on the pair through the store (src/client/v2/token-store.ts).
  // (Loaded only on v2: its Redis and SQLite keyv stores are not for a v3 `ask` to pay for.)
  const tokens = v2 && v2Pair ? await import('./client/v2/token-store.ts') : undefined;
  const tokenStore = tokens?.openTokenStore(config.store);
  if (tokenStore) onClose(() => tokenStore.disconnect());
  // The lock beside it: one process at a time asks for a token, the others read it from the store.
  const tokenLock = tokens?.openTokenLock(config.store);
  if (tokenLock) onClose(() => tokenLock.close());
  const client = createClient({
    baseUrl,
    ...(v2 && v2Pair
      ? {
          v2: {
            clientId: v2Pair.id,
            clientSecret: v2Pair.secret,
            perMinute: 60 * (rate ?? 5),
            ...(tokenStore ? { tokenStore } : {}),
            ...(tokenLock ? { tokenLock } : {}),
          },
        }
      : { secret }),
    logger,
    ...(sharedBudget ? { sharedBudget } : {}),
    ...(rate !== undefined ? { rate: { perSecond: rate, burst: Math.max(5, Math.ceil(rate)) } } : {}),
  });
  onClose(() => client.close());
  return client;
}

/**
 * The name index loaded and kept fresh: with a feed (`overrides.feed`), both warmed from the store
 * and refreshed by one process at a time; else the index refreshes itself. Returns the feed.
 */
async function startNames(
  config: Config,
  overrides: AppOverrides,
  parts: {
    client: EsportsClient;
    clock: Clock;
    logger: Logger;
    names: NameIndex;
    onClose: OnClose;
    push?: { url: string; secret: string };
  },
): Promise<{ feed?: Feed; namesWarming?: Promise<void> }> {
  const { client, clock, logger, names, onClose } = parts;
  if (!overrides.feed) {
    if (!overrides.skipNameRefresh) {
      try {
        await names.refresh();
      } catch (error) {
        // Commands still work; names resolve once a later refresh succeeds.
        logger.warn({ err: error }, 'the name index could not be loaded; retrying in the background');
      }
    }
    names.start();
    onClose(() => names.stop());
    return {};
  }
  // Warm from the store: the name index and the feed's snapshot, each refreshed only when stale
  // and by one process at a time (leases in the store).
  const stored = openSnapshotStore(config.store);
  onClose(() => stored.close());
  // What is cached belongs to the world it was read from: another seed or service starts afresh.
  const world = worldOf(config.esports);
  await enterWorld(stored, world, clock.nowMs(), logger);
  const snapshots = worldScoped(stored, world);
  const owner = randomUUID();
  const maxAgeMs = overrides.feed === 'poller' ? NAMES_REFRESH_MS : READER_NAMES_MAX_AGE_MS;
  const mode = overrides.feed;
  // Push: one socket, held by the process that refreshes the feed (the lease holder on the store).
  let push: FeedPush | undefined;
  if (mode === 'poller' && parts.push) {
    const { PushConsumer } = await import('./client/push.ts');
    push = new PushConsumer({ ...parts.push, logger });
  }
  const feed = createFeed({
    client,
    clock,
    logger,
    store: snapshots,
    owner,
    mode,
    ...(push ? { push } : {}),
  });
  onClose(() => feed.stop());
  let namesWarming: Promise<void> | undefined;
  const warm = async () => {
    const { refreshing } = await warmNames(names, snapshots, clock, owner, {
      maxAgeMs,
      logger,
      waitForFirst: !overrides.namesInBackground,
    });
    namesWarming = refreshing;
    if (mode === 'poller') onClose(keepNamesShared(names, snapshots, clock, owner, logger));
    try {
      await feed.start();
    } catch (error) {
      logger.warn({ err: error }, 'the feed could not start; commands ask the service directly');
    }
  };
  // `npm start` shows its banner first and fills the data in behind it (a slow service must not
  // hold the banner for minutes); `ask` waits, since its one command needs the names.
  if (overrides.warmInBackground) {
    warm().catch((error: unknown) =>
      logger.warn({ err: error }, 'the name index could not be loaded; commands resolve names once it is'),
    );
  } else await warm();
  return { feed, ...(namesWarming ? { namesWarming } : {}) };
}

/** The command runtime over the app's parts, with the status `/status` reads. */
function commandRuntime(app: App, commands: AnyCommand[], overrides: AppOverrides): Runtime {
  const { config, client, feed, onClose } = app;
  const tracker = new StatusTracker({
    clientStats: () => client.stats(),
    ...(feed ? { lastPollAt: () => feed.lastLiveReadAt, feedFilling: () => feed.filling } : {}),
    notifier: () => app.notifier !== undefined,
    clockSpeed: () => app.clock.speed,
    oneShot: overrides.oneShot === true,
  });
  onClose(() => tracker.close());
  return new Runtime({
    commands,
    status: () => tracker.status(),
    client,
    names: app.names,
    ...(feed ? { picture: feed } : {}),
    tenants: app.tenants,
    users: app.users,
    ...(config.calendar ? { calendarUrl: calendarUrlOf(config.calendar.baseUrl) } : {}),
    clock: app.clock,
    logger: app.logger,
    ...(overrides.perUserLimit ? { perUserLimit: overrides.perUserLimit } : {}),
    // A settings change (channels, games, leads) should reach the notifier's next tick.
    onSettingsSaved: () => app.notifier?.invalidate(),
    ...(overrides.onCommand ? { onExecuted: overrides.onCommand } : {}),
  });
}

/** The public URL of a personal calendar token. */
function calendarUrlOf(baseUrl: string): (token: string) => string {
  return (token) => `${baseUrl}/calendar/${token}.ics`;
}

/**
 * Starts the notifier with the platforms' deliveries. Its ledger lives beside the tenant store:
 * a SQLite file next to the settings, or the same Redis.
 */
export async function attachNotifier(
  app: App,
  deliveries: Partial<Record<Platform, Delivery>>,
): Promise<Notifier> {
  const { notifier, close } = await openNotifier(app, deliveries);
  app.onClose(close);
  return notifier;
}

/**
 * Opens the ledger and starts the notifier (sets `app.notifier`); `close` stops it (posts under way
 * finish), closes the ledger and unsets `app.notifier`. The notifier lease (`notify/leader.ts`) opens
 * and closes it as the lease comes and goes.
 */
export async function openNotifier(
  app: App,
  deliveries: Partial<Record<Platform, Delivery>>,
): Promise<{ notifier: Notifier; close: () => Promise<void> }> {
  // Every tick would read the settings and fail: off, with the reason, rather than on and failing.
  if (app.storeProblem) throw app.storeProblem;
  const store = app.config.store;
  const identity = app.config.notify.instance ? { holder: app.config.notify.instance } : {};
  let ledger: Ledger;
  if (store.kind === 'sqlite') {
    const { openSqliteLedger } = await import('./notify/sqlite-ledger.ts');
    ledger = await openSqliteLedger(
      store.path === ':memory:' ? ':memory:' : join(dirname(store.path), 'ledger.sqlite'),
      {
        ...identity,
        startFresh: app.config.notify.startFresh,
        usedBefore: async () => (await app.tenants.list()).length > 0,
        logger: app.logger,
      },
    );
  } else {
    const { RedisLedger, DEFAULT_LEDGER_MIRROR_PATH } = await import('./notify/redis-ledger.ts');
    // The ledger mirror (beside the settings mirror, off with it): what Redis forgets, it keeps.
    const { SqliteLedger } = await import('./notify/sqlite-ledger.ts');
    const mirror = store.mirror === false ? {} : { mirror: new SqliteLedger(DEFAULT_LEDGER_MIRROR_PATH) };
    ledger = new RedisLedger(store.url, { ...identity, ...mirror });
  }
  // Loaded only by a process that notifies (`matchday ask` never loads the notifier).
  const { createNotifier } = await import('./notify/notifier.ts');
  // node-cron's warnings (a missed or overlapping notifier tick) would print into the terminal chat.
  routeCronLogs(app.logger, (await import('node-cron')).default);
  const notifier = createNotifier({
    client: app.client,
    // With a feed running, the notifier reads it (one upstream reader for commands and notifications);
    // without one it runs its own feed, over the app's name index either way.
    ...(app.feed ? { feed: { feed: app.feed, names: app.names } } : { names: app.names }),
    tenants: app.tenants,
    clock: app.clock,
    ledger,
    deliveries,
    logger: app.logger,
    users: app.users,
  });
  try {
    await notifier.start();
  } catch (error) {
    await notifier.stop().catch(() => undefined);
    await ledger.close().catch(() => undefined);
    throw error;
  }
  app.notifier = notifier;
  const close = async () => {
    if (app.notifier === notifier) app.notifier = undefined;
    await notifier.stop();
    await ledger.close();
  };
  return { notifier, close };
}
