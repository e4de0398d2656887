/**
 * The one request choke point (`shared/notes/house-style.md`, "The API client"):
 *
 *   cache  -> single flight -> retry -> rate limit -> http
 *
 * Resources only build a path and parameters and call `get`. Everything that makes the bot a good
 * citizen of a 5 requests/s budget happens here, in this order, for every call.
 */
import type { CacheEntry, ResponseCache } from './cache.ts';
import {
  errorFromResponse,
  isRetryable,
  messageFromBody,
  NetworkError,
  QueueFullError,
  RateLimitedError,
  redact,
  ServiceError,
  TimeoutError,
  UnavailableError,
} from './errors.ts';
import { type HttpAnswer, type HttpTransport, TransportTimeoutError } from './http.ts';
import type { Logger } from './logger.ts';
import { canonicalQuery, type QueryParams } from './query.ts';
import { type RateLimiter, type Ticket, WouldMissDeadlineError } from './rate-limiter.ts';
import type { SharedBudget } from './shared-budget.ts';
import { endpointFamily, familyOf, holdsLive, type TtlFamily } from './ttl.ts';
import type { ClientStats, Priority } from './types.ts';

export interface RetryPolicy {
  /** Most attempts per call, the first included. Default 3. */
  attempts: number;
  /** Backoff base: the n-th wait is random(0, min(cap, base * 2^n)). Default 200 ms. */
  baseMs: number;
  /** Backoff cap. Default 2,000 ms. */
  capMs: number;
}

export interface PipelineOptions {
  secret: string;
  /** Prefix of every cache key: the base URL, so two services never share entries in one store. */
  keyPrefix: string;
  transport: HttpTransport;
  limiter: RateLimiter;
  /** The secret's budget shared with other processes (taken after the local token). */
  sharedBudget?: SharedBudget;
  cache: ResponseCache;
  logger: Logger;
  ttl: Record<TtlFamily, number>;
  retry: RetryPolicy;
  /** How long past an entry's freshness it may still be served at once while it is refreshed. */
  revalidateFactor: number;
  staleIfErrorMs: number;
  backgroundDeadlineMs: number;
  random?: () => number;
}

/** How one answer was served, reported to the caller's view (see `forCaller`). */
export type AnswerKind = 'cached' | 'upstream' | 'stale';

export interface CallContext {
  priority: Priority;
  deadlineMs: number;
  signal?: AbortSignal | undefined;
  onAnswer?: ((kind: AnswerKind) => void) | undefined;
}

/** Errors after which a stored entry may be served stale (the service failed, not the question). */
function allowsStale(error: unknown): boolean {
  return isRetryable(error) || error instanceof TimeoutError || error instanceof QueueFullError;
}

/** One upstream call shared by every concurrent identical request. */
class Flight {
  readonly controller = new AbortController();
  readonly ticket: Ticket;
  deadlineAt: number;
  joiners = 0;
  settled = false;
  promise!: Promise<unknown>;

  constructor(priority: Priority, deadlineAt: number) {
    this.ticket = { priority };
    this.deadlineAt = deadlineAt;
  }

  /** A new caller shares this flight: it can only raise the priority and extend the deadline. */
  join(priority: Priority, deadlineAt: number): void {
    this.joiners++;
    if (priority === 'interactive') this.ticket.priority = 'interactive';
    if (deadlineAt > this.deadlineAt) this.deadlineAt = deadlineAt;
  }

  /** A caller gave up (deadline or abort); when nobody waits any more, the upstream call is cancelled. */
  leave(): void {
    this.joiners--;
    if (this.joiners === 0 && !this.settled) {
      this.controller.abort(new DOMException('every caller of this request gave up', 'AbortError'));
    }
  }
}

export class Pipeline {
  readonly #o: PipelineOptions;
  readonly #flights = new Map<string, Flight>();
  readonly #random: () => number;
  #closed = false;
  readonly counters = {
    upstream: {} as Record<string, Record<string, number>>,
    upstreamTotal: 0,
    cacheHits: 0,
    cacheMisses: 0,
    staleServed: 0,
    revalidations: 0,
    coalesced: 0,
    retries: 0,
    rateLimited: 0,
    shed: 0,
  };

  constructor(options: PipelineOptions) {
    this.#o = options;
    this.#random = options.random ?? Math.random;
  }

  stats(): ClientStats {
    const c = this.counters;
    return {
      upstream: structuredClone(c.upstream),
      upstreamTotal: c.upstreamTotal,
      cacheHits: c.cacheHits,
      cacheMisses: c.cacheMisses,
      staleServed: c.staleServed,
      retries: c.retries,
      rateLimited: c.rateLimited,
      queueLength: this.#o.limiter.queueLength,
      limiterWaitMs: Math.round(this.#o.limiter.waitedMs),
      revalidations: c.revalidations,
      coalesced: c.coalesced,
      shed: c.shed,
      inFlight: this.#flights.size,
      cacheStoreFailures: this.#o.cache.failures,
      budget: {
        perSecond: this.#o.limiter.perSecond,
        burst: this.#o.limiter.burst,
        available: this.#o.limiter.available(),
      },
    };
  }

  /** GET `path` with `params` through cache, single flight, retry, rate limit and http. */
  async get(path: string, params: QueryParams, ctx: CallContext): Promise<unknown> {
    if (this.#closed) throw new Error('The esports client is closed.');
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    const query = canonicalQuery(params);
    const pathAndQuery = query === '' ? path : `${path}?${query}`;
    const key = this.#o.keyPrefix + pathAndQuery;
    const family = familyOf(path, params);
    const deadlineAt = performance.now() + ctx.deadlineMs;

    // A flight already running for this key: join it without touching the store.
    let entry: CacheEntry | undefined;
    if (!this.#flights.has(key)) {
      entry = await this.#o.cache.read(key);
      if (entry) {
        const age = this.#o.cache.age(entry);
        if (age <= entry.ttl) {
          this.counters.cacheHits++;
          ctx.onAnswer?.('cached');
          return entry.v;
        }
        if (age <= entry.ttl * (1 + this.#o.revalidateFactor)) {
          // stale-while-revalidate: answer now, refresh once in the background.
          this.counters.cacheHits++;
          this.#revalidate(key, pathAndQuery, family);
          ctx.onAnswer?.('cached');
          return entry.v;
        }
      }
    }
    this.counters.cacheMisses++;
    try {
      const value = await this.#join(key, pathAndQuery, family, ctx.priority, deadlineAt, ctx.signal);
      ctx.onAnswer?.('upstream');
      return value;
    } catch (error) {
      if (ctx.signal?.aborted || !allowsStale(error)) throw error;
      entry ??= await this.#o.cache.read(key);
      if (entry && this.#o.cache.age(entry) <= entry.ttl + this.#o.staleIfErrorMs) {
        // stale-if-error (RFC 5861): an old answer, marked, beats no answer.
        this.counters.staleServed++;
        this.#o.logger.warn(
          {
            path: this.#redact(pathAndQuery),
            ageMs: Math.round(this.#o.cache.age(entry)),
            err: (error as Error).message,
          },
          'service failed; serving a stale answer',
        );
        ctx.onAnswer?.('stale');
        return entry.v;
      }
      throw error;
    }
  }

  #revalidate(key: string, pathAndQuery: string, family: TtlFamily): void {
    if (this.#flights.has(key)) return;
    this.counters.revalidations++;
    this.#join(
      key,
      pathAndQuery,
      family,
      'background',
      performance.now() + this.#o.backgroundDeadlineMs,
      undefined,
    ).catch((error: unknown) => {
      this.#o.logger.info(
        { path: this.#redact(pathAndQuery), err: (error as Error).message },
        'background refresh failed',
      );
    });
  }

  /** Joins (or starts) the flight for `key`, waiting at most until this caller's own deadline. */
  #join(
    key: string,
    pathAndQuery: string,
    family: TtlFamily,
    priority: Priority,
    deadlineAt: number,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    let flight = this.#flights.get(key);
    if (flight) this.counters.coalesced++;
    else flight = this.#start(key, pathAndQuery, family, priority, deadlineAt);
    flight.join(priority, deadlineAt);
    const shared = flight;
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        shared.leave();
        settle();
      };
      const onAbort = () => finish(() => reject(signal!.reason));
      const timer = setTimeout(
        () => finish(() => reject(this.#timeout(pathAndQuery))),
        Math.max(0, deadlineAt - performance.now()),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }

  #timeout(pathAndQuery: string, cause?: unknown): TimeoutError {
    return new TimeoutError({
      status: 0,
      method: 'GET',
      path: this.#redact(pathAndQuery),
      msg: "no answer within the call's deadline",
      cause,
    });
  }

  #start(
    key: string,
    pathAndQuery: string,
    family: TtlFamily,
    priority: Priority,
    deadlineAt: number,
  ): Flight {
    const flight = new Flight(priority, deadlineAt);
    this.#flights.set(key, flight);
    flight.promise = this.#fetch(flight, pathAndQuery).then(
      async (value) => {
        flight.settled = true;
        const ttl =
          (family === 'series' || family === 'matches') && holdsLive(value)
            ? this.#o.ttl.live
            : this.#o.ttl[family];
        // Keep the flight visible until the entry is stored, so no caller slips between the two.
        this.#track(this.#o.cache.write(key, value, ttl).finally(() => this.#flights.delete(key)));
        this.#prime(pathAndQuery, value);
        return value;
      },
      (error: unknown) => {
        flight.settled = true;
        this.#flights.delete(key);
        throw error;
      },
    );
    // Nobody may be listening any more when a cancelled flight rejects.
    flight.promise.catch(() => {});
    return flight;
  }

  /**
   * A listing holds whole records, the same shape `/x/{id}` answers (spec: "Team (as listed)", the
   * facts note's "Team detail: the Team as listed"). Storing each under its own `/x/{id}` key lets a
   * later `get` or `getMany` of one of them cost nothing. Own id space only.
   */
  #prime(pathAndQuery: string, body: unknown): void {
    if (!Array.isArray(body) || pathAndQuery.includes('id_space=')) return;
    const path = pathAndQuery.split('?')[0]!;
    const detail = detailPathOf(path);
    if (!detail) return;
    for (const item of body) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') continue;
      const itemPath = `${detail}/${id}`;
      const key = this.#o.keyPrefix + itemPath;
      if (this.#flights.has(key)) continue;
      const family = familyOf(itemPath, {});
      const ttl =
        (family === 'series' || family === 'matches') && holdsLive(item)
          ? this.#o.ttl.live
          : this.#o.ttl[family];
      this.#track(this.#o.cache.write(key, item, ttl));
    }
  }

  /** A fresh cached answer for `path` (no query), or undefined. Never goes upstream. */
  async peek(path: string): Promise<unknown> {
    const entry = await this.#o.cache.read(this.#o.keyPrefix + path);
    if (!entry || this.#o.cache.age(entry) > entry.ttl) return undefined;
    this.counters.cacheHits++;
    return entry.v;
  }

  /** Retry loop: GET only, on 429, 5xx and network errors, never waiting past the deadline. */
  async #fetch(flight: Flight, pathAndQuery: string): Promise<unknown> {
    const { retry, limiter, transport, logger } = this.#o;
    const signal = flight.controller.signal;
    const path = this.#redact(pathAndQuery);
    const family = endpointFamily(pathAndQuery.split('?')[0]!);
    for (let attempt = 1; ; attempt++) {
      let error: ServiceError;
      try {
        await limiter.acquire(flight.ticket, signal, flight.deadlineAt);
        await this.#o.sharedBudget?.acquire(flight.ticket.priority, signal, flight.deadlineAt);
      } catch (cause) {
        if (cause instanceof QueueFullError) {
          this.counters.shed++;
          throw new QueueFullError({ status: 0, method: 'GET', path, msg: cause.msg });
        }
        if (cause instanceof WouldMissDeadlineError) {
          this.counters.shed++;
          throw new TimeoutError({
            status: 0,
            method: 'GET',
            path,
            msg: `the request budget is busy: ${cause.message}, after the call's deadline`,
            cause,
          });
        }
        throw signal.aborted ? this.#timeout(pathAndQuery, cause) : cause;
      }
      const started = limiter.sent();
      const budget = flight.deadlineAt - performance.now();
      try {
        if (budget <= 0) throw new TransportTimeoutError('deadline passed while waiting for a token');
        const answer = await transport
          .get(pathAndQuery, signal, budget)
          .finally(() => limiter.settled(started));
        this.#count(family, String(answer.status));
        limiter.observe(answer.headers, started);
        logger.debug(
          { path, status: answer.status, attempt, ms: Math.round(performance.now() - started) },
          'upstream answer',
        );
        if (answer.status === 200)
          return answer.value !== undefined ? answer.value : this.#parse(answer, path);
        error = errorFromResponse({
          status: answer.status,
          method: 'GET',
          path,
          msg: messageFromBody(answer.body, answer.status),
          retryAfterMs: retryHint(answer),
        });
        if (error instanceof RateLimitedError) this.counters.rateLimited++;
      } catch (cause) {
        if (cause instanceof ServiceError) error = cause;
        else if (cause instanceof TransportTimeoutError || signal.aborted) {
          if (!signal.aborted) this.#count(family, 'timeout');
          throw this.#timeout(pathAndQuery, cause);
        } else {
          this.#count(family, 'network');
          error = new NetworkError({
            status: 0,
            method: 'GET',
            path,
            msg: describeNetworkError(cause),
            cause,
          });
        }
      }
      if (!isRetryable(error) || attempt >= retry.attempts) throw error;
      const hint = error.retryAfterMs;
      if (error instanceof RateLimitedError && hint !== undefined) {
        limiter.pause(hint);
        this.#o.sharedBudget?.pause(hint);
      }
      const ceiling = Math.min(retry.capMs, retry.baseMs * 2 ** (attempt - 1));
      const wait = hint !== undefined && hint > 0 ? hint : this.#random() * ceiling;
      if (performance.now() + wait >= flight.deadlineAt) {
        // The hint is longer than the caller's budget: fail now (the caller may serve stale data).
        logger.info(
          { path, status: error.status, waitMs: Math.round(wait) },
          'not retrying: the wait exceeds the deadline',
        );
        throw error;
      }
      this.counters.retries++;
      logger.info({ path, status: error.status, attempt, waitMs: Math.round(wait) }, 'retrying');
      try {
        await sleep(wait, signal);
      } catch (cause) {
        throw this.#timeout(pathAndQuery, cause);
      }
    }
  }

  #parse(answer: HttpAnswer, path: string): unknown {
    try {
      return JSON.parse(answer.body);
    } catch (cause) {
      throw new UnavailableError({
        status: 200,
        method: 'GET',
        path,
        msg: 'the answer is not valid JSON',
        cause,
      });
    }
  }

  #count(family: string, status: string): void {
    const byStatus = this.counters.upstream[family] ?? {};
    this.counters.upstream[family] = byStatus;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (status !== 'timeout' && status !== 'network') this.counters.upstreamTotal++;
  }

  #redact(text: string): string {
    return redact(text, this.#o.secret);
  }

  close(): void {
    this.#closed = true;
    for (const flight of this.#flights.values())
      flight.controller.abort(new Error('The esports client is closed.'));
  }

  /** Cache writes still under way (each bounded by the store's time limit). */
  readonly #writes = new Set<Promise<void>>();

  #track(write: Promise<unknown>): void {
    const settled = write.then(
      () => undefined,
      () => undefined,
    );
    this.#writes.add(settled);
    void settled.then(() => this.#writes.delete(settled));
  }

  /** Waits for the cache writes under way: a client closed after a read leaves its answer stored. */
  async flushWrites(): Promise<void> {
    await Promise.allSettled([...this.#writes]);
  }
}

/**
 * The wait a 429 or 5xx asks for, in ms: `X-RateLimit-Reset` (ms, on a 429) and `Retry-After`, whose
 * unit is seconds by HTTP but was seen as ms on the real service, so above 120 it is read as ms
 * (`shared/notes/service-facts.md`, "Rate limits").
 */
export function retryHint(answer: Pick<HttpAnswer, 'status' | 'headers'>): number | undefined {
  const header = (name: string): string | undefined => {
    const raw = answer.headers[name];
    return Array.isArray(raw) ? raw[0] : raw;
  };
  const reset = Number(header('x-ratelimit-reset'));
  const resetMs =
    answer.status === 429 && header('x-ratelimit-reset') !== undefined && Number.isFinite(reset) && reset >= 0
      ? reset
      : undefined;
  const after = header('retry-after');
  let afterMs: number | undefined;
  if (after !== undefined) {
    const value = Number(after);
    if (Number.isFinite(value) && value >= 0) afterMs = value > 120 ? value : value * 1000;
    else if (!Number.isNaN(Date.parse(after))) afterMs = Math.max(0, Date.parse(after) - Date.now());
  }
  // Both present: the longer one. A bucket that reports "full again in 0 ms" while still refusing
  // (a storm) must not be hammered.
  if (resetMs === undefined) return afterMs;
  return afterMs === undefined ? resetMs : Math.max(resetMs, afterMs);
}

/** Listings whose items are the records of a `/x/{id}` endpoint, by last path segment. */
const DETAIL_PATHS: Record<string, string> = {
  games: '/games',
  maps: '/maps',
  layouts: '/maps/layouts',
  assets: '/assets',
  countries: '/countries',
  broadcasters: '/broadcasters',
  teams: '/teams',
  players: '/players',
  rosters: '/rosters',
  lineups: '/lineups',
  standingrosters: '/standingrosters',
  organisations: '/organisations',
  casters: '/casters',
  tournaments: '/tournaments',
  stages: '/stages',
  substages: '/substages',
  series: '/series',
  matches: '/matches',
};

/** `/teams` and `/organisations/{id}/teams`-like paths -> `/teams`; undefined when not a record listing. */
export function detailPathOf(path: string): string | undefined {
  if (path === '/platforms') return '/platforms';
  const segments = path.split('/').filter((s) => s !== '');
  const last = segments[segments.length - 1];
  if (last === undefined || /^\d+$/.test(last) || segments[0] === 'id_spaces') return undefined;
  if (last === 'layouts' && path !== '/maps/layouts') return undefined;
  return DETAIL_PATHS[last];
}

function describeNetworkError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
