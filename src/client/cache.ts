/**
 * The keyv-backed answer cache. Entries carry the time they were fetched and their
 * freshness, so one stored entry serves three purposes: fresh (a plain hit), stale within the
 * revalidation window (served at once while one refresh runs) and stale within the error window
 * (served, marked stale, only when the service fails). A store that throws or hangs never fails a
 * call: every operation has a short time limit, and after a failure the store is skipped for a
 * while (the client runs with no cache; single flight still coalesces).
 */
import type Keyv from 'keyv';
import { LRUCache } from 'lru-cache';
import type { Logger } from './logger.ts';

export interface CacheEntry {
  /** The parsed answer. */
  v: unknown;
  /** When it was fetched (epoch ms). */
  at: number;
  /** How long it is fresh (ms). */
  ttl: number;
}

interface ResponseCacheOptions {
  /** How long past freshness an entry is kept for stale-if-error. */
  staleIfErrorMs: number;
  /** Longest wait for one store operation before treating the store as down. */
  opTimeoutMs: number;
  /** How long a failed store is skipped before it is tried again. */
  downForMs: number;
  logger: Logger;
  now?: () => number;
}

export class ResponseCache {
  readonly #keyv: Keyv;
  readonly #options: ResponseCacheOptions;
  readonly #now: () => number;
  #downUntil = 0;
  /** Store failures seen (operations that threw or timed out). */
  failures = 0;

  constructor(keyv: Keyv, options: ResponseCacheOptions) {
    this.#keyv = keyv;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    // keyv reports store errors as events; without a listener they would go unseen.
    keyv.on('error', (error: unknown) => this.#fail('event', error));
  }

  /** Whether the store is currently skipped after a failure. */
  get down(): boolean {
    return this.#now() < this.#downUntil;
  }

  #fail(op: string, error: unknown): void {
    this.failures++;
    const wasDown = this.down;
    this.#downUntil = this.#now() + this.#options.downForMs;
    if (!wasDown) {
      this.#options.logger.warn(
        {
          op,
          err: error instanceof Error ? error.message : String(error),
          retryInMs: this.#options.downForMs,
        },
        'cache store failed; continuing without cache',
      );
    }
  }

  async #guard<T>(op: string, run: () => Promise<T>): Promise<T | undefined> {
    if (this.down) return undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        run(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`store ${op} took over ${this.#options.opTimeoutMs} ms`)),
            this.#options.opTimeoutMs,
          );
        }),
      ]);
    } catch (error) {
      this.#fail(op, error);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The stored entry, or undefined when absent, malformed or the store is failing. */
  async read(key: string): Promise<CacheEntry | undefined> {
    const raw = await this.#guard('get', () => this.#keyv.get(key));
    if (!raw || typeof raw !== 'object') return undefined;
    const entry = raw as Partial<CacheEntry>;
    if (typeof entry.at !== 'number' || typeof entry.ttl !== 'number' || !('v' in entry)) return undefined;
    return entry as CacheEntry;
  }

  /** Stores an answer; kept in the store for its freshness plus the stale-if-error window. */
  async write(key: string, value: unknown, ttlMs: number): Promise<void> {
    const entry: CacheEntry = { v: value, at: this.#now(), ttl: ttlMs };
    await this.#guard('set', () => this.#keyv.set(key, entry, ttlMs + this.#options.staleIfErrorMs));
  }

  /** Age of an entry now. */
  age(entry: CacheEntry): number {
    return this.#now() - entry.at;
  }
}

/**
 * keyv's store for the default in-memory cache: an LRU of at most `max` answers. (keyv passes its
 * TTL as a number where lru-cache takes an options object, so the LRU is adapted, not passed as is;
 * keyv itself checks each entry's expiry when it is read.)
 */
export function lruStore(max: number) {
  const lru = new LRUCache<string, object>({ max });
  return {
    get: (key: string) => lru.get(key),
    set: (key: string, value: object) => {
      lru.set(key, value);
      return true;
    },
    delete: (key: string) => lru.delete(key),
    clear: () => lru.clear(),
    has: (key: string) => lru.has(key),
  };
}
