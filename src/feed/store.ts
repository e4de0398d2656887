/**
 * Where the feed's snapshot and the name index are kept between processes: documents (a JSON text
 * with the instant it describes) and leases (who refreshes what). SQLite beside the tenant store by
 * default, Redis when the store is Redis, so a new process starts warm and several processes on one
 * store share one refresher.
 *
 * Leases are the store layer's (src/stores/lease.ts), in the same SQLite file or on the same Redis
 * connection. Lease times are real milliseconds (processes share real time, not a simulated clock).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { createClient } from '@redis/client';
import sqlite3 from 'sqlite3';
import { reconnectDelay } from '../core/redis-reconnect.ts';
import { RedisLease } from '../stores/lease-redis.ts';
import { SqliteLease } from '../stores/lease-sqlite.ts';

export interface StoredDocument {
  /** The instant (simulated ms) the document describes: newer wins. */
  at: number;
  /** JSON text. */
  value: string;
}

export interface SnapshotStore {
  /** The document, or undefined when absent or not newer than `newerThan`. */
  read(key: string, newerThan?: number): Promise<StoredDocument | undefined>;
  write(key: string, document: StoredDocument): Promise<void>;
  /** Takes the lease, or renews it when `owner` holds it; true when `owner` holds it afterwards. */
  lease(key: string, owner: string, ms: number): Promise<boolean>;
  /** Gives the lease up early (only when `owner` holds it). */
  release(key: string, owner: string): Promise<void>;
  close(): Promise<void>;
}

/** Documents and leases in one SQLite file (WAL: readers never wait for the writer). */
export class SqliteSnapshotStore implements SnapshotStore {
  readonly #db: sqlite3.Database;
  readonly #ready: Promise<void>;
  /** Leases in the same file (a connection of their own: their transactions never meet the documents'). */
  readonly #leases: SqliteLease;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new sqlite3.Database(path);
    this.#leases = new SqliteLease(path);
    this.#ready = (async () => {
      await this.#run('PRAGMA busy_timeout = 5000');
      if (path !== ':memory:') await retryWhileBusy(() => this.#run('PRAGMA journal_mode = WAL'));
      await retryWhileBusy(() =>
        this.#run(
          'CREATE TABLE IF NOT EXISTS snapshots (key TEXT PRIMARY KEY, at INTEGER NOT NULL, value TEXT NOT NULL)',
        ),
      );
    })();
  }

  async read(key: string, newerThan = Number.NEGATIVE_INFINITY): Promise<StoredDocument | undefined> {
    await this.#ready;
    const row = await new Promise<{ at: number; value: string } | undefined>((resolve, reject) => {
      this.#db.get<{ at: number; value: string }>(
        'SELECT at, value FROM snapshots WHERE key = ? AND at > ?',
        [key, Number.isFinite(newerThan) ? newerThan : -1e15],
        (err, r) => (err ? reject(err) : resolve(r)),
      );
    });
    return row ? { at: row.at, value: row.value } : undefined;
  }

  async write(key: string, document: StoredDocument): Promise<void> {
    await this.#ready;
    await this.#run(
      'INSERT INTO snapshots (key, at, value) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET at = excluded.at, value = excluded.value',
      [key, document.at, document.value],
    );
  }

  async lease(key: string, owner: string, ms: number): Promise<boolean> {
    return (await this.#leases.acquire(key, owner, ms)) > 0;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.#leases.release(key, owner);
  }

  async close(): Promise<void> {
    await this.#leases.close();
    await this.#ready.catch(() => undefined);
    await new Promise<void>((resolve) => this.#db.close(() => resolve()));
  }

  #run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#db.run(sql, params, (err) => (err ? reject(err) : resolve()));
    });
  }
}

async function retryWhileBusy(work: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + attempt * 10));
    }
  }
}

/** Documents and leases in Redis, for several instances sharing one store. */
export class RedisSnapshotStore implements SnapshotStore {
  #client: ReturnType<typeof createClient> | undefined;
  readonly #connected: Promise<unknown>;
  readonly #prefix: string;
  /** The store's leases, on the same connection. */
  readonly #leases: Promise<RedisLease>;

  constructor(url: string, prefix = 'matchday:feed:') {
    this.#prefix = prefix;
    // The Redis client is loaded only when a Redis store is used (`matchday ask` on SQLite never pays for it).
    this.#connected = import('@redis/client').then((redis) => {
      let connected = false;
      const client: ReturnType<typeof createClient> = redis.createClient({
        url,
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 5000,
          // The first connection gives up after 5 tries (a store missing at start fails clearly);
          // once connected, forever: a client that gave up stayed closed, and the feed never read
          // or shared through the store again after a Redis restart (src/core/redis-reconnect.ts).
          reconnectStrategy: (retries: number) =>
            !connected && retries >= 5 ? new Error('Redis is unreachable.') : reconnectDelay(retries),
        },
      });
      client.on('ready', () => {
        connected = true;
      });
      // Without a listener an unreachable server would crash the process; the failing call reports it.
      client.on('error', () => undefined);
      this.#client = client;
      return client.connect();
    });
    this.#leases = this.#connected.then(
      () => new RedisLease({ client: this.#redis, connected: this.#connected }),
    );
    this.#leases.catch(() => undefined);
  }

  /** The connected client (after `#connected`). */
  get #redis(): ReturnType<typeof createClient> {
    return this.#client!;
  }

  async read(key: string, newerThan = Number.NEGATIVE_INFINITY): Promise<StoredDocument | undefined> {
    await this.#connected;
    const at = await this.#redis.get(`${this.#prefix}${key}:at`);
    if (at === null || !(Number(at) > newerThan)) return undefined;
    const stored = await this.#redis.get(`${this.#prefix}${key}`);
    if (stored === null) return undefined;
    const cut = stored.indexOf('\n');
    return { at: Number(stored.slice(0, cut)), value: stored.slice(cut + 1) };
  }

  async write(key: string, document: StoredDocument): Promise<void> {
    await this.#connected;
    // MULTI ignores `disableOfflineQueue` (it waits for the next reconnect attempt): fail at once.
    if (!this.#redis.isReady) throw new Error('The feed store (Redis) is reconnecting.');
    await this.#redis
      .multi()
      .set(`${this.#prefix}${key}`, `${document.at}\n${document.value}`)
      .set(`${this.#prefix}${key}:at`, String(document.at))
      .exec();
  }

  async lease(key: string, owner: string, ms: number): Promise<boolean> {
    return (await (await this.#leases).acquire(`${this.#prefix}lease:${key}`, owner, ms)) > 0;
  }

  async release(key: string, owner: string): Promise<void> {
    await (await this.#leases).release(`${this.#prefix}lease:${key}`, owner);
  }

  async close(): Promise<void> {
    await this.#connected.catch(() => undefined);
    if (this.#client?.isOpen) await this.#client.quit().catch(() => undefined);
  }
}
