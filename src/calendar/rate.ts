/**
 * Token buckets by key (a calendar token, a remote address), for the calendar endpoint: `capacity`
 * requests at once, then one more every `refillMs`. Bounded: past `maxKeys` keys the least recently
 * used is forgotten (a forgotten key starts full again, which only ever errs towards answering).
 */
export interface BucketOptions {
  capacity: number;
  refillMs: number;
  maxKeys: number;
  /** Epoch ms (the app's clock). */
  now: () => number;
}

export class KeyedBuckets {
  readonly #o: BucketOptions;
  /** key -> tokens left and when they were counted; in order of last use. */
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: BucketOptions) {
    this.#o = options;
  }

  /** Takes one token for `key`: 0 when there was one, else the ms until there is. */
  take(key: string): number {
    const { capacity, refillMs, maxKeys } = this.#o;
    const now = this.#o.now();
    const held = this.#buckets.get(key);
    const tokens = held ? Math.min(capacity, held.tokens + Math.max(0, now - held.at) / refillMs) : capacity;
    this.#buckets.delete(key);
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at: now });
      return Math.ceil((1 - tokens) * refillMs);
    }
    this.#buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.#buckets.size > maxKeys) this.#buckets.delete(this.#buckets.keys().next().value!);
    return 0;
  }
}
