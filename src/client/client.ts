/**
 * `createClient`: the esports data client (docs/data-client.md). Defaults are merged in one typed place; the
 * library never reads `process.env` (`src/config.ts` does, and passes options in).
 *
 *   const client = createClient({ baseUrl: 'https://api.example.com/v3', secret });
 *   const view = client.forCaller({ priority: 'interactive' });
 *   const upcoming = await view.series.list({ filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc', take: 10 });
 *   if (view.servedStale) reply.note('may be out of date');
 */
import { createHash } from 'node:crypto';
import Keyv from 'keyv';
import { lruStore, ResponseCache } from './cache.ts';
import { ClientClosedError } from './errors.ts';
import { Transport } from './http.ts';
import { type Logger, silentLogger } from './logger.ts';
import { Pipeline } from './pipeline.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { RetryPolicy } from './retry.ts';
import type { SharedBudget, SharedBudgetFactory } from './shared-budget.ts';
import { DEFAULT_TTL_MS, type TtlFamily } from './ttl.ts';
import type { EsportsClient } from './types.ts';
import { Embedded } from './v2/embedded.ts';
import type { TokenLock } from './v2/token-store.ts';
import { V2Transport } from './v2/transport.ts';
import { ClientView } from './view.ts';

export type { TtlFamily } from './ttl.ts';
export { DEFAULT_TTL_MS } from './ttl.ts';
export type * from './types.ts';

export interface ClientOptions {
  /**
   * The service root: ending in `/v3` (e.g. `https://api.example.com/v3` or the local service's
   * `url`), or in `/v2` for the earlier interface (then `v2` holds the client credentials).
   */
  baseUrl: string;
  /** The v3 API secret; sent only in the `Service-Secret` header, never logged. Not used on v2. */
  secret?: string;
  /** v2 only: the OAuth client credentials (never logged) and the per-minute budget (default 300). */
  v2?: {
    clientId: string;
    clientSecret: string;
    perMinute?: number;
    /** Epoch-ms clock for token lifetimes (tests jump it). Default `Date.now`. */
    now?: () => number;
    /**
     * Where the token is shared with every other process on the pair (`openTokenStore`: the
     * SQLite file or Redis of `STORE_URL`). Default: the answers' cache (`cache`).
     */
    tokenStore?: Keyv;
    /**
     * The short lock in that store (`openTokenLock`) that lets one process at a time ask for a
     * token while the others wait for it in the store. Default: none (processes may ask at once).
     */
    tokenLock?: TokenLock;
  };
  /**
   * Where answers are cached. Default: keyv over an in-memory LRU of `cacheEntries` answers, without
   * serialization (answers are kept as objects and must be treated as read-only). SQLite or Redis
   * through keyv adapters.
   */
  cache?: Keyv;
  /**
   * Most answers the default in-memory cache holds; the least recently used go first. Default 2,000.
   * (keyv's plain Map never drops an entry nobody asks for again: a notifier's batched reads, a new
   * id list every tick, would grow it for as long as the process runs.)
   */
  cacheEntries?: number;
  rate?: {
    /** Requests per second for this secret. Default 5. */
    perSecond?: number;
    /** Bucket size. Default 5. */
    burst?: number;
    /** Most calls waiting for a token; beyond, background calls are shed first. Default 1,000. */
    queueLimit?: number;
    /** Tokens of the burst kept unused to absorb network jitter (so no 429 arrives). Default 1. */
    reserve?: number;
  };
  deadlines?: {
    /** Whole-call deadline for interactive callers. Default 2,000 ms. */
    interactiveMs?: number;
    /** Whole-call deadline for background callers. Default 10,000 ms. */
    backgroundMs?: number;
  };
  /** Freshness per resource family in ms (see `DEFAULT_TTL_MS`). */
  ttl?: Partial<Record<TtlFamily, number>>;
  /** pino-compatible. Default: silent. */
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
  /** How long past freshness an entry may still be served when the service fails. Default 24 h. */
  staleIfErrorMs?: number;
  /**
   * How long past freshness (as a multiple of the family's TTL) an entry is still answered at once
   * while one refresh runs. Default 1: an answer is at most twice its TTL old on the happy path.
   */
  revalidateFactor?: number;
  /** Longest wait for one cache store operation. Default 250 ms. */
  cacheTimeoutMs?: number;
  /** Parallel connections to the service. Default 8. */
  connections?: number;
  /**
   * Builds the budget shared with other processes on the same secret (e.g. `RedisBudget`); every
   * request then takes a token there too. Default: none (this process alone spends the secret).
   */
  sharedBudget?: SharedBudgetFactory;
}

const DEFAULTS = {
  rate: { perSecond: 5, burst: 5, queueLimit: 1000, reserve: 1 },
  deadlines: { interactiveMs: 2000, backgroundMs: 10_000 },
  retry: { attempts: 3, baseMs: 200, capMs: 2000 },
  staleIfErrorMs: 24 * 60 * 60 * 1000,
  cacheEntries: 2000,
  revalidateFactor: 1,
  cacheTimeoutMs: 250,
  cacheDownForMs: 5000,
  connections: 8,
} as const;

/**
 * One token bucket per secret and service, shared by every client of this process that uses them
 * (the quota belongs to the secret, as the real service counts it). Reference-counted by open clients.
 */
const limiters = new Map<string, { limiter: RateLimiter; users: number }>();

function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `baseUrl "${baseUrl}" is not a URL; expected something like https://api.example.com/v3.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http or https, not ${url.protocol}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError(
      'baseUrl must not carry credentials, a query or a fragment: the secret goes in options.secret.',
    );
  }
  if (!/\/v[23]\/?$/.test(url.pathname)) {
    throw new TypeError(
      `baseUrl must end in /v3 or /v2 (the version is part of the address); got path "${url.pathname}".`,
    );
  }
  return url;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a credential with control characters would corrupt the request
const CONTROL = /[\u0000-\u001f\u007f]/;

function usable(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !CONTROL.test(value);
}

function positive(name: string, value: number, min = 0): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new TypeError(`${name} must be a number of at least ${min}; got ${String(value)}.`);
  }
  return value;
}

type Rate = Required<NonNullable<ClientOptions['rate']>>;
type Deadlines = Required<NonNullable<ClientOptions['deadlines']>>;

/** The options checked, with the defaults merged in: every check `createClient` makes. */
interface Settings {
  url: URL;
  /** Set on a /v2 baseUrl only. */
  v2: ClientOptions['v2'];
  /** The v3 secret, or on v2 the client secret: what must never appear in a path or a log line. */
  secret: string;
  logger: Logger;
  rate: Rate;
  deadlines: Deadlines;
  retry: RetryPolicy;
  ttl: Record<TtlFamily, number>;
}

function settingsOf(options: ClientOptions): Settings {
  const url = checkBaseUrl(options.baseUrl);
  const v2 = /\/v2\/?$/.test(url.pathname) ? options.v2 : undefined;
  if (/\/v2\/?$/.test(url.pathname) && (!v2 || !usable(v2.clientId) || !usable(v2.clientSecret))) {
    throw new TypeError(
      'A /v2 baseUrl needs v2.clientId and v2.clientSecret: non-empty strings without control characters.',
    );
  }
  // On v2 the client secret is what must never appear in a path or a log line.
  const secret = v2 ? v2.clientSecret : options.secret;
  if (!usable(secret)) {
    throw new TypeError('secret must be a non-empty string without control characters.');
  }
  const logger = options.logger ?? silentLogger;
  const rate = { ...DEFAULTS.rate, ...options.rate };
  const deadlines = { ...DEFAULTS.deadlines, ...options.deadlines };
  const retry = { ...DEFAULTS.retry, ...options.retry };
  positive('rate.perSecond', rate.perSecond, Number.MIN_VALUE);
  positive('rate.burst', rate.burst, 1);
  positive('rate.queueLimit', rate.queueLimit);
  positive('deadlines.interactiveMs', deadlines.interactiveMs, 1);
  positive('deadlines.backgroundMs', deadlines.backgroundMs, 1);
  positive('retry.attempts', retry.attempts, 1);
  if (options.cacheEntries !== undefined) positive('cacheEntries', options.cacheEntries, 1);
  positive('retry.baseMs', retry.baseMs);
  positive('retry.capMs', retry.capMs);
  const ttl = { ...DEFAULT_TTL_MS, ...options.ttl } as Record<TtlFamily, number>;
  for (const [family, ms] of Object.entries(ttl)) {
    if (!(family in DEFAULT_TTL_MS)) {
      throw new TypeError(
        `ttl.${family} is not a cache family; use one of: ${Object.keys(DEFAULT_TTL_MS).join(', ')}.`,
      );
    }
    positive(`ttl.${family}`, ms);
  }
  return { url, v2, secret, logger, rate, deadlines, retry, ttl };
}

/** The process's limiter for this secret and service: the one already open, or a new one. */
function shareLimiter(
  limiterKey: string,
  rate: Rate,
  logger: Logger,
): { limiter: RateLimiter; users: number } {
  let shared = limiters.get(limiterKey);
  if (shared) {
    if (shared.limiter.perSecond !== rate.perSecond) {
      logger.warn(
        { perSecond: shared.limiter.perSecond },
        'another client already holds the rate limiter of this secret; sharing it',
      );
    }
    shared.users++;
  } else {
    shared = { limiter: new RateLimiter(rate), users: 1 };
    limiters.set(limiterKey, shared);
  }
  return shared;
}

function openTransport(settings: Settings, keyv: Keyv, connections: number): Transport | V2Transport {
  const { url, v2, secret, logger } = settings;
  return v2
    ? new V2Transport({
        baseUrl: url,
        ...v2,
        store: v2.tokenStore ?? keyv,
        ...(v2.tokenLock ? { lock: v2.tokenLock } : {}),
        connections,
        logger,
      })
    : new Transport(url, secret, { connections });
}

/** Creates the client. See `ClientOptions` for every default. */
export function createClient(options: ClientOptions): EsportsClient {
  const settings = settingsOf(options);
  const { url, v2, secret, logger, rate, deadlines } = settings;

  const baseKey = url.href.replace(/\/+$/, '');
  const credential = v2 ? `${v2.clientId}\0${v2.clientSecret}` : secret;
  const limiterKey = `${baseKey} ${createHash('sha256').update(credential).digest('hex')}`;
  const shared = shareLimiter(limiterKey, rate, logger);
  const limiter = shared.limiter;

  // The bucket this process plans for, shared: the same size and rate, under a hash of the secret.
  const reserve = Math.max(0, Math.min(rate.reserve, rate.burst - 1));
  const sharedBudget: SharedBudget | undefined = options.sharedBudget?.({
    key: createHash('sha256').update(limiterKey).digest('hex').slice(0, 32),
    perSecond: rate.perSecond,
    capacity: rate.burst - reserve,
  });

  const ownsCache = options.cache === undefined;
  // keyv's default serializer would JSON-encode every answer even in memory: a warm 50-series page
  // cost milliseconds to read back. In memory there is nothing to encode.
  const keyv =
    options.cache ??
    new Keyv({
      store: lruStore(Math.floor(options.cacheEntries ?? DEFAULTS.cacheEntries)),
      serialize: undefined,
      deserialize: undefined,
    });
  const transport = openTransport(settings, keyv, options.connections ?? DEFAULTS.connections);
  const cache = new ResponseCache(keyv, {
    staleIfErrorMs: options.staleIfErrorMs ?? DEFAULTS.staleIfErrorMs,
    opTimeoutMs: options.cacheTimeoutMs ?? DEFAULTS.cacheTimeoutMs,
    downForMs: DEFAULTS.cacheDownForMs,
    logger,
  });
  const pipeline = new Pipeline({
    secret,
    keyPrefix: `${baseKey} `,
    transport,
    limiter,
    ...(sharedBudget ? { sharedBudget } : {}),
    cache,
    logger,
    ttl: settings.ttl,
    retry: settings.retry,
    revalidateFactor: options.revalidateFactor ?? DEFAULTS.revalidateFactor,
    staleIfErrorMs: options.staleIfErrorMs ?? DEFAULTS.staleIfErrorMs,
    backgroundDeadlineMs: deadlines.backgroundMs,
  });

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    pipeline.close();
    await pipeline.flushWrites();
    if (--shared.users === 0) {
      limiters.delete(limiterKey);
      limiter.close(new ClientClosedError());
    }
    await transport.close();
    await sharedBudget?.close();
    if (ownsCache) await keyv.disconnect().catch(() => {});
  };

  const stats = () => ({
    ...pipeline.stats(),
    tokenRequests: transport instanceof V2Transport ? transport.tokens.requests : 0,
  });
  return new ClientView(
    { v2: v2 !== undefined, deadlines, pipeline, embedded: new Embedded(), stats, close },
    {},
  );
}
