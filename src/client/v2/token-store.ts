/**
 * Where v2 tokens are shared between processes: the store every process of one
 * deployment already shares (`STORE_URL`), so every process on a credential pair asks the service
 * for one token an hour between them, not one each. SQLite: a table of its own (`v2_tokens`) in the
 * store's file; Redis: keys under `matchday:v2-token:`. Each record expires with its token.
 *
 * Beside the records, a short lock per credential pair (`openTokenLock`): the process that takes it
 * asks the service and writes the token; one that finds it taken waits for the token to appear in
 * the store instead of asking too. It is the store layer's lease (src/stores/lease.ts): in the same
 * SQLite file, or the same Redis. A lock expires on its own (a process that died holding it blocks
 * nobody for longer than its lifetime).
 */
import { randomUUID } from 'node:crypto';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { Lease } from '../../stores/lease.ts';
import { RedisLease } from '../../stores/lease-redis.ts';
import { SqliteLease } from '../../stores/lease-sqlite.ts';

export type TokenStoreConfig = { kind: 'sqlite'; path: string } | { kind: 'redis'; url: string };

/** The keyv the v2 client keeps its token in (`ClientOptions.v2.tokenStore`); close it with `disconnect()`. */
export function openTokenStore(store: TokenStoreConfig): Keyv {
  if (store.kind === 'redis')
    return new Keyv({ store: new KeyvRedis(store.url), namespace: 'matchday:v2-token' });
  return new Keyv({
    store: new KeyvSqlite({ uri: `sqlite://${store.path}`, table: 'v2_tokens', busyTimeout: 1000 }),
  });
}

/** A short lock shared by every process on the store (`ClientOptions.v2.tokenLock`). */
export interface TokenLock {
  /** Takes the lock `name` for `ttlMs` unless another holder has it unexpired; true when taken. */
  take(name: string, ttlMs: number): Promise<boolean>;
  /** Gives the lock back if this holder still has it. */
  release(name: string): Promise<void>;
  close(): Promise<void>;
}

/** The lock beside the token records of `openTokenStore` (same SQLite file or Redis): the store's lease. */
export function openTokenLock(store: TokenStoreConfig): TokenLock {
  // Opened at once (not at the first take): a take must answer within the client's short store guard.
  const lease = store.kind === 'redis' ? new RedisLease(store.url) : new SqliteLease(store.path);
  lease.open().catch(() => undefined);
  return new LeaseTokenLock(lease);
}

/**
 * The lock as the store layer's lease (src/stores/lease.ts) named `v2-token-lock:<pair>` (on Redis
 * `matchday:v2-token-lock:<pair>`). Each take is a holder of its own, so a lock already held (even by
 * this process) is refused rather than renewed.
 */
class LeaseTokenLock implements TokenLock {
  readonly #lease: Lease;
  readonly #prefix: string;
  /** The holder of each lock this process took and has not given back. */
  readonly #held = new Map<string, string>();

  constructor(lease: Lease, prefix = 'matchday:v2-token-lock:') {
    this.#lease = lease;
    this.#prefix = prefix;
  }

  async take(name: string, ttlMs: number): Promise<boolean> {
    const holder = randomUUID();
    const token = await this.#lease.acquire(`${this.#prefix}${name}`, holder, ttlMs);
    if (token > 0) this.#held.set(name, holder);
    return token > 0;
  }

  async release(name: string): Promise<void> {
    const holder = this.#held.get(name);
    if (holder === undefined) return;
    this.#held.delete(name);
    await this.#lease.release(`${this.#prefix}${name}`, holder);
  }

  async close(): Promise<void> {
    await this.#lease.close();
  }
}
