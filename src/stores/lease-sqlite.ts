/**
 * The lease (src/stores/lease.ts) in a SQLite file, for every process that opens the same file: a
 * table `store_leases` (one row per lease name) beside the data the lease guards. A row keeps its
 * token after a release or an expiry (its owner is cleared), so the next term's token is greater:
 * the fencing token only grows for as long as the file lives.
 *
 * Each operation is one short `BEGIN IMMEDIATE` transaction (read the row, decide, write it): the
 * write lock is taken before the read, so two processes can never both see a free lease. WAL lets
 * readers go on meanwhile; a connection that finds the write lock taken (SQLITE_BUSY) tries again
 * after a short random pause, for up to 5 s (`whileBusy`).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import type { Lease, LeaseHolder } from './lease.ts';

interface Row {
  owner: string | null;
  token: number;
  expires_at: number;
}

export class SqliteLease implements Lease {
  readonly #db: sqlite3.Database;
  readonly #ready: Promise<void>;
  /** Transactions on this connection run one after another (they never nest). */
  #queue: Promise<unknown> = Promise.resolve();
  /** `Date.now` unless a test moves time (expiry is about real processes). */
  readonly #now: () => number;

  constructor(path: string, options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    let folderError: unknown;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      folderError = error;
    }
    let db!: sqlite3.Database;
    const opened = new Promise<void>((resolve, reject) => {
      db = new sqlite3.Database(path, (err) => (err ? reject(err) : resolve()));
    });
    this.#db = db;
    this.#ready = (async () => {
      if (folderError) throw folderError;
      await opened;
      // No busy handler: a busy file is waited for by `whileBusy`, which holds no worker thread meanwhile.
      await this.#exec('PRAGMA busy_timeout = 0');
      if (path !== ':memory:') await whileBusy(() => this.#exec('PRAGMA journal_mode = WAL'));
      await whileBusy(() =>
        this.#exec(
          'CREATE TABLE IF NOT EXISTS store_leases (name TEXT PRIMARY KEY, owner TEXT, token INTEGER NOT NULL, expires_at INTEGER NOT NULL)',
        ),
      );
    })();
    // Reported by `open()` and every call; never an unhandled rejection.
    this.#ready.catch(() => undefined);
  }

  open(): Promise<void> {
    return this.#ready;
  }

  acquire(name: string, owner: string, ttlMs: number): Promise<number> {
    return this.#transaction(async () => {
      const now = this.#now();
      const row = await this.#get(name);
      const until = now + Math.max(1, Math.round(ttlMs));
      if (row && row.owner !== null && row.expires_at > now) {
        if (row.owner !== owner) return 0;
        await this.#run('UPDATE store_leases SET expires_at = ? WHERE name = ?', [until, name]);
        return row.token;
      }
      // Free, released or expired (ours too: a lapsed term is over): a new term, a greater token.
      const token = (row?.token ?? 0) + 1;
      await this.#run(
        `INSERT INTO store_leases (name, owner, token, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, token = excluded.token, expires_at = excluded.expires_at`,
        [name, owner, token, until],
      );
      return token;
    });
  }

  release(name: string, owner: string): Promise<boolean> {
    return this.#transaction(async () => {
      const row = await this.#get(name);
      if (!row || row.owner !== owner || row.expires_at <= this.#now()) return false;
      // The token stays: the next holder's is greater.
      await this.#run('UPDATE store_leases SET owner = NULL, expires_at = 0 WHERE name = ?', [name]);
      return true;
    });
  }

  async holder(name: string): Promise<LeaseHolder | undefined> {
    await this.#ready;
    const row = await this.#get(name);
    if (!row || row.owner === null || row.expires_at <= this.#now()) return undefined;
    return { owner: row.owner, token: row.token, expiresAt: row.expires_at };
  }

  async close(): Promise<void> {
    await this.#ready.catch(() => undefined);
    await this.#queue;
    await new Promise<void>((resolve) => this.#db.close(() => resolve()));
  }

  /** `work` in one `BEGIN IMMEDIATE` transaction, after this connection's earlier ones; retried while busy. */
  #transaction<T>(work: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      await this.#ready;
      return whileBusy(async () => {
        await this.#exec('BEGIN IMMEDIATE');
        try {
          const result = await work();
          await this.#exec('COMMIT');
          return result;
        } catch (error) {
          await this.#exec('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #get(name: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) =>
      this.#db.get<Row>(
        'SELECT owner, token, expires_at FROM store_leases WHERE name = ?',
        [name],
        (err, row) => (err ? reject(err) : resolve(row)),
      ),
    );
  }

  #exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.#db.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  #run(sql: string, params: unknown[]): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#db.run(sql, params, (err) => (err ? reject(err) : resolve())),
    );
  }
}

/** How long an operation keeps trying while another connection holds the file's write lock. */
const BUSY_LIMIT_MS = 5_000;

/**
 * Runs `step` again, after a short random pause, while another connection holds the write lock
 * (SQLITE_BUSY), for up to `BUSY_LIMIT_MS`. The waiting is here rather than in SQLite's busy handler:
 * that handler sleeps on one of the driver's four worker threads, and a few connections of one
 * process waiting at once would hold every worker while the lock's holder, which needs one to commit,
 * waits behind them (8 racers on one file took 5 s, the whole busy timeout, instead of milliseconds).
 */
async function whileBusy<T>(step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') || performance.now() - started > BUSY_LIMIT_MS)
        throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(50, 2 + attempt * 2) * (0.5 + Math.random())),
      );
    }
  }
}
