/**
 * One token bucket per secret: every attempt (retries included) takes a token.
 * Two priorities: a waiting interactive call (a user's command) is always served before waiting
 * background work (polling). The queue is bounded; when it is full, background work is shed first.
 * The bucket slows down when the service's `X-RateLimit-*` headers say the budget is smaller than
 * configured, and stops entirely until the announced reset after a 429.
 */
import { QueueFullError } from './errors.ts';
import type { Priority } from './types.ts';

interface RateLimiterOptions {
  /** Tokens per second. Default 5, the real service's limit per secret. */
  perSecond: number;
  /** Bucket size. Default 5. */
  burst: number;
  /** Most calls allowed to wait. Default 1,000. */
  queueLimit: number;
  /**
   * Tokens of the service's burst never used, so requests that arrive closer together than they
   * were sent (network and scheduling jitter) still find a token at the service. Default 1 when
   * the burst is 2 or more. The bucket holds `burst - reserve`.
   */
  reserve?: number;
  /**
   * Tokens only a user's command may take: background work (polling, walks, the name index) waits
   * while the bucket holds fewer than `1 + headroom`, so a command that misses the cache finds a
   * token at once instead of queueing behind a saturated poller. The poller's long-run rate is the
   * same; it just never spends the last tokens. Default 2 (at most the bucket's size minus 1).
   */
  headroom?: number;
  now?: () => number;
}

/**
 * Refused at once because the queue ahead is longer than the caller's deadline: under overload,
 * failing fast (or serving stale) beats waiting to time out and spending a token on an answer
 * nobody waits for any more.
 */
export class WouldMissDeadlineError extends Error {
  override name = 'WouldMissDeadlineError';
}

/** A waiting call. `priority` is read at dispatch time, so a shared flight can be promoted. */
export interface Ticket {
  priority: Priority;
}

interface Waiter {
  ticket: Ticket;
  resolve: (waitedMs: number) => void;
  reject: (error: unknown) => void;
  enqueuedAt: number;
  cleanup: () => void;
}

export class RateLimiter {
  #rate: number;
  #capacity: number;
  readonly #reserve: number;
  readonly #headroom: number;
  #tokens: number;
  #last: number;
  #blockedUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #queue: Waiter[] = [];
  /** Send times of requests on the wire (for reading `Remaining`, see `observe`). */
  #outstanding: number[] = [];
  readonly #queueLimit: number;
  readonly #now: () => number;
  /** Total milliseconds calls spent waiting for a token. */
  waitedMs = 0;

  constructor(options: RateLimiterOptions) {
    if (!(options.perSecond > 0)) throw new RangeError('rate.perSecond must be above 0.');
    if (!(options.burst >= 1)) throw new RangeError('rate.burst must be at least 1.');
    if (!(options.queueLimit >= 0)) throw new RangeError('rate.queueLimit must be 0 or more.');
    this.#rate = options.perSecond;
    this.#reserve = Math.max(0, Math.min(options.reserve ?? 1, options.burst - 1));
    this.#capacity = options.burst - this.#reserve;
    this.#tokens = this.#capacity;
    this.#headroom = Math.max(0, options.headroom ?? 2);
    this.#queueLimit = options.queueLimit;
    this.#now = options.now ?? performance.now.bind(performance);
    this.#last = this.#now();
  }

  get queueLength(): number {
    return this.#queue.length;
  }

  get perSecond(): number {
    return this.#rate;
  }

  /** The service burst this bucket plans for (its own size plus the reserve). */
  get burst(): number {
    return this.#capacity + this.#reserve;
  }

  /** Tokens in the bucket now (metrics: the budget in use is what is missing from the full bucket). */
  available(): number {
    this.#refill(this.#now());
    return Math.max(0, this.#tokens);
  }

  /** Tokens a call of `priority` needs in the bucket before it may take one. */
  #need(priority: Priority): number {
    if (priority === 'interactive') return 1;
    return 1 + Math.min(this.#headroom, Math.max(0, Math.floor(this.#capacity) - 1));
  }

  /** Whether an interactive call waits (it goes before any background one). */
  #interactiveWaiting(): boolean {
    return this.#queue.some((w) => w.ticket.priority === 'interactive');
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#last);
    this.#tokens = Math.min(this.#capacity, this.#tokens + (elapsed * this.#rate) / 1000);
    this.#last = now;
  }

  /**
   * Waits for a token. Resolves with the milliseconds waited; rejects on abort, when shed, or at
   * once (`WouldMissDeadlineError`) when the wait it can expect ends after `deadlineAt` (same clock
   * as `now`).
   */
  acquire(ticket: Ticket, signal?: AbortSignal, deadlineAt = Number.POSITIVE_INFINITY): Promise<number> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#now();
    this.#refill(now);
    // Nobody it would overtake waits: an interactive call passes waiting background work.
    const first = ticket.priority === 'interactive' ? !this.#interactiveWaiting() : this.#queue.length === 0;
    if (first && now >= this.#blockedUntil && this.#tokens >= this.#need(ticket.priority)) {
      this.#tokens -= 1;
      return Promise.resolve(0);
    }
    const expected = this.expectedWaitMs(ticket.priority, now);
    if (now + expected > deadlineAt) {
      return Promise.reject(
        new WouldMissDeadlineError(`a request slot is about ${Math.ceil(expected)} ms away`),
      );
    }
    if (this.#queue.length >= this.#queueLimit) {
      // Full: an interactive call displaces the newest background waiter; otherwise the newcomer is shed.
      const victimIndex = ticket.priority === 'interactive' ? this.#lastIndexOf('background') : -1;
      if (victimIndex < 0) return Promise.reject(this.#shedError());
      const [victim] = this.#queue.splice(victimIndex, 1);
      victim!.cleanup();
      victim!.reject(this.#shedError());
    }
    return new Promise<number>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        ticket,
        resolve,
        reject,
        enqueuedAt: now,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#schedule();
    });
  }

  /** How long a new call of this priority would wait: the calls served before it, at the current rate. */
  expectedWaitMs(priority: Priority, now = this.#now()): number {
    const ahead =
      priority === 'interactive'
        ? this.#queue.filter((w) => w.ticket.priority === 'interactive').length
        : this.#queue.length;
    const forTokens = (Math.max(0, ahead + this.#need(priority) - this.#tokens) * 1000) / this.#rate;
    return Math.max(forTokens, this.#blockedUntil - now);
  }

  #lastIndexOf(priority: Priority): number {
    for (let i = this.#queue.length - 1; i >= 0; i--)
      if (this.#queue[i]!.ticket.priority === priority) return i;
    return -1;
  }

  #shedError(): QueueFullError {
    return new QueueFullError({
      status: 0,
      method: 'GET',
      path: '(client queue)',
      msg: `the client's request queue is full (${this.#queueLimit} waiting); try again shortly`,
    });
  }

  #schedule(): void {
    if (this.#timer || this.#queue.length === 0) return;
    const now = this.#now();
    this.#refill(now);
    const need = this.#need(this.#interactiveWaiting() ? 'interactive' : 'background');
    const tokenIn = this.#tokens >= need ? 0 : ((need - this.#tokens) * 1000) / this.#rate;
    const delay = Math.max(tokenIn, this.#blockedUntil - now, 0);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, Math.ceil(delay));
  }

  #drain(): void {
    const now = this.#now();
    this.#refill(now);
    while (this.#queue.length > 0 && now >= this.#blockedUntil) {
      const interactive = this.#queue.findIndex((w) => w.ticket.priority === 'interactive');
      if (this.#tokens < this.#need(interactive >= 0 ? 'interactive' : 'background')) break;
      const [waiter] = this.#queue.splice(Math.max(interactive, 0), 1);
      this.#tokens -= 1;
      const waited = now - waiter!.enqueuedAt;
      this.waitedMs += waited;
      waiter!.cleanup();
      waiter!.resolve(waited);
    }
    this.#schedule();
  }

  /** Stops handing out tokens for `ms` (after a 429: the budget is spent for everyone). */
  pause(ms: number): void {
    const until = this.#now() + Math.max(0, ms);
    if (until > this.#blockedUntil) this.#blockedUntil = until;
    this.#tokens = Math.min(this.#tokens, 0);
    this.#reschedule();
  }

  /** A request that took a token is now on the wire; returns its send time for `observe`/`settled`. */
  sent(): number {
    const at = this.#now();
    this.#outstanding.push(at);
    return at;
  }

  /** A request ended without headers to read (network error, timeout). */
  settled(sentAt: number): void {
    const index = this.#outstanding.indexOf(sentAt);
    if (index >= 0) this.#outstanding.splice(index, 1);
  }

  /**
   * Reads the service's budget from an answer's headers. Only ever slows down: a smaller limit or
   * burst lowers ours. `Remaining` was true when the service handled the request, somewhere between
   * `sentAt` and now: since then the service refilled at most `(now - sentAt) * rate`, and the
   * requests we sent after this one may not have been counted yet. Our tokens are capped at that
   * estimate, which only binds when someone else spends the same secret. Only a 429 pauses the bucket.
   */
  observe(headers: Record<string, string | string[] | undefined>, sentAt = this.#now()): void {
    this.settled(sentAt);
    const num = (name: string): number | undefined => {
      const raw = headers[name];
      const value = Number(Array.isArray(raw) ? raw[0] : raw);
      return raw === undefined || !Number.isFinite(value) ? undefined : value;
    };
    const limit = num('x-ratelimit-limit');
    const burst = num('x-ratelimit-burst');
    const remaining = num('x-ratelimit-remaining');
    const now = this.#now();
    this.#refill(now);
    if (limit !== undefined && limit > 0 && limit < this.#rate) this.#rate = limit;
    if (burst !== undefined && burst >= 1 && burst < this.burst) {
      const reserve = Math.min(this.#reserve, burst - 1);
      this.#capacity = burst - reserve;
      this.#tokens = Math.min(this.#tokens, this.#capacity);
    }
    if (remaining !== undefined && remaining >= 0) {
      const refilled = (Math.max(0, now - sentAt) * this.#rate) / 1000;
      const sentLater = this.#outstanding.filter((at) => at > sentAt).length;
      this.#tokens = Math.min(this.#tokens, remaining - this.#reserve + refilled - sentLater);
    }
  }

  #reschedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#schedule();
  }

  /** Rejects every waiter (client closing). */
  close(reason: unknown): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const waiter of this.#queue.splice(0)) {
      waiter.cleanup();
      waiter.reject(reason);
    }
  }
}
