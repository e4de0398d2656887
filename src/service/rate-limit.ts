/**
 * Per-secret token buckets, as the real service limits: `rate`
 * tokens per second up to `burst`; every answered request takes one. Real time, not the world's
 * clock: a fast simulated clock must not refill a client's budget faster.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  burst: number;
  remaining: number;
  /** Milliseconds until the bucket is full again (X-RateLimit-Reset). */
  resetMs: number;
  /** Milliseconds until one token is available (for Retry-After on a 429). */
  retryMs: number;
}

export class RateLimiter {
  #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly rate: number,
    readonly burst: number,
    readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.rate > 0;
  }

  /** Takes one token from the secret's bucket if it has one. */
  take(key: string, consume = true): RateDecision {
    const now = this.now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.burst, at: now };
      if (this.#buckets.size > 10_000) this.#buckets.clear();
      this.#buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed && consume) bucket.tokens -= 1;
    return {
      allowed,
      limit: this.rate,
      burst: this.burst,
      remaining: Math.floor(bucket.tokens),
      resetMs: Math.ceil(((this.burst - bucket.tokens) / this.rate) * 1000),
      retryMs: allowed ? 0 : Math.ceil(((1 - bucket.tokens) / this.rate) * 1000),
    };
  }
}
