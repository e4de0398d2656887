/**
 * Where v2 tokens are shared between processes: the store every process of one
 * deployment already shares (`STORE_URL`), so every process on a credential pair asks the service
 * for one token an hour between them, not one each. SQLite: a table of its own (`v2_tokens`) in the
 * store's file; Redis: keys under `matchday:v2-token:`. Each record expires with its token.
 *
 * Beside the records, a short lock per credential pair (`openTokenLock`): the process that takes it
 * asks the service and writes the token; one that finds it taken waits for the token to appear in
 * the store instead of asking too. SQLite: a `v2_token_locks` table in the same file, taken by one
 * atomic insert-or-take-over-if-expired; Redis: `SET matchday:v2-token-lock:<pair> NX PX`. A lock
 * expires on its own (a process that died holding it blocks nobody for longer than its lifetime).
 */
import { randomUUID } from 'node:crypto';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { createClient } from '@redis/client';
import Keyv from 'keyv';
import sqlite3 from 'sqlite3';
import { reconnectDelay } from '../../core/redis-reconnect.ts';

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

/** The lock beside the token records of `openTokenStore` (same SQLite file or Redis). */
export function openTokenLock(store: TokenStoreConfig): TokenLock {
  return store.kind === 'redis' ? new RedisTokenLock(store.url) : new SqliteTokenLock(store.path);
}

const TAKE_SQL = `INSERT INTO v2_token_locks (name, owner, expires_at) VALUES (?, ?, ?)
  ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
  WHERE v2_token_locks.expires_at <= ?`;

/** The lock as a row of `v2_token_locks`: taken when this statement inserted or took over an expired row. */
export class SqliteTokenLock implements TokenLock {
  readonly #owner = randomUUID();
  readonly #db: Promise<sqlite3.Database>;

  constructor(path: string) {
    this.#db = new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, (err) => {
        if (err) return reject(err);
        db.configure('busyTimeout', 1000);
        db.run(
          'CREATE TABLE IF NOT EXISTS v2_token_locks (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL)',
          (e: Error | null) => (e ? reject(e) : resolve(db)),
        );
      });
    });
  }

  async take(name: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    return (await this.#run(TAKE_SQL, [name, this.#owner, now + ttlMs, now])) === 1;
  }

  async release(name: string): Promise<void> {
    await this.#run('DELETE FROM v2_token_locks WHERE name = ? AND owner = ?', [name, this.#owner]);
  }

  async close(): Promise<void> {
    const db = await this.#db.catch(() => undefined);
    await new Promise<void>((resolve) => (db ? db.close(() => resolve()) : resolve()));
  }

  async #run(sql: string, params: unknown[]): Promise<number> {
    const db = await this.#db;
    return new Promise((resolve, reject) => {
      db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(err);
        else resolve(this.changes);
      });
    });
  }
}

/** Deletes the lock only if it still holds this owner (another may have taken it over since). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The lock as a Redis key set with NX and an expiry. */
export class RedisTokenLock implements TokenLock {
  readonly #owner = randomUUID();
  readonly #client: ReturnType<typeof createClient>;
  readonly #connected: Promise<unknown>;

  constructor(url: string) {
    this.#client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 5000, reconnectStrategy: reconnectDelay },
    });
    this.#client.on('error', () => undefined);
    this.#connected = this.#client.connect().catch(() => undefined);
  }

  async take(name: string, ttlMs: number): Promise<boolean> {
    await this.#connected;
    const answer = await this.#client.set(`matchday:v2-token-lock:${name}`, this.#owner, {
      condition: 'NX',
      expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) },
    });
    return answer === 'OK';
  }

  async release(name: string): Promise<void> {
    await this.#connected;
    await this.#client.eval(RELEASE_SCRIPT, {
      keys: [`matchday:v2-token-lock:${name}`],
      arguments: [this.#owner],
    });
  }

  async close(): Promise<void> {
    if (this.#client.isReady) await this.#client.close().catch(() => undefined);
    else if (this.#client.isOpen) this.#client.destroy();
  }
}
