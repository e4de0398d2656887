/**
 * The one request choke point, each concern one small stage of it (docs/architecture.md):
 *
 *   cache  -> single flight -> retry -> rate limit -> http
 *
 * Resources only build a path and parameters and call `get`. Everything that makes the bot a good
 * citizen of a 5 requests/s budget happens here, in this order, for every call. Each step is a unit
 * of its own, readable alone: cache-policy.ts (what is fresh, for how long, what a listing primes),
 * flight.ts (single flight), retry.ts (retry and the hand-off to the limiter), rate-limiter.ts.
 */
import type { CacheEntry, ResponseCache } from './cache.ts';
import { allowsStale, freshness, primedItems, ttlOf } from './cache-policy.ts';
import { ClientClosedError, redact, stoppedByClose, TimeoutError } from './errors.ts';
import { Flight } from './flight.ts';
import type { HttpTransport } from './http.ts';
import type { Logger } from './logger.ts';
import { canonicalQuery, type QueryParams } from './query.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { type FetchEnv, fetchWithRetry, type RetryPolicy } from './retry.ts';
import type { SharedBudget } from './shared-budget.ts';
import { endpointFamily, familyOf, type TtlFamily } from './ttl.ts';
import type { ClientStats, Priority } from './types.ts';

interface PipelineOptions {
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

interface CallContext {
  priority: Priority;
  deadlineMs: number;
  signal?: AbortSignal | undefined;
  onAnswer?: ((kind: AnswerKind) => void) | undefined;
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
    if (this.#closed) throw new ClientClosedError();
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
      const fresh = entry ? freshness(entry, this.#o.cache.age(entry), this.#o.revalidateFactor) : 'miss';
      if (entry && fresh !== 'miss') {
        // stale-while-revalidate: answer now, refresh once in the background.
        if (fresh === 'revalidate') this.#revalidate(key, pathAndQuery, family);
        this.counters.cacheHits++;
        ctx.onAnswer?.('cached');
        return entry.v;
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
    return flight.wait(priority, deadlineAt, signal, () => this.#timeout(pathAndQuery));
  }

  /** A call out of time, or the client closing under it (then that, not a timeout). */
  #timeout(pathAndQuery: string, cause?: unknown): TimeoutError | ClientClosedError {
    if (this.#closed || stoppedByClose(cause)) return new ClientClosedError();
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
    flight.promise = fetchWithRetry(flight, pathAndQuery, this.#fetchEnv(pathAndQuery)).then(
      async (value) => {
        flight.settled = true;
        const ttl = ttlOf(this.#o.ttl, family, value);
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

  /** Stores the records a listing holds under their `/x/{id}` keys (`primedItems`). */
  #prime(pathAndQuery: string, body: unknown): void {
    for (const item of primedItems(pathAndQuery, body, this.#o.ttl)) {
      const key = this.#o.keyPrefix + item.path;
      if (!this.#flights.has(key)) this.#track(this.#o.cache.write(key, item.value, item.ttl));
    }
  }

  /** A fresh cached answer for `path` (no query), or undefined. Never goes upstream. */
  async peek(path: string): Promise<unknown> {
    const entry = await this.#o.cache.read(this.#o.keyPrefix + path);
    if (!entry || this.#o.cache.age(entry) > entry.ttl) return undefined;
    this.counters.cacheHits++;
    return entry.v;
  }

  /** What `fetchWithRetry` uses for one request, counting into this pipeline's counters. */
  #fetchEnv(pathAndQuery: string): FetchEnv {
    const family = endpointFamily(pathAndQuery.split('?')[0]!);
    return {
      retry: this.#o.retry,
      limiter: this.#o.limiter,
      sharedBudget: this.#o.sharedBudget,
      transport: this.#o.transport,
      logger: this.#o.logger,
      random: this.#random,
      path: this.#redact(pathAndQuery),
      count: (status) => this.#count(family, status),
      counted: (what) => {
        this.counters[what]++;
      },
      timeout: (cause) => this.#timeout(pathAndQuery, cause),
    };
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
    for (const flight of this.#flights.values()) flight.controller.abort(new ClientClosedError());
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
