/**
 * The default ledger: one SQLite file (sqlite3 driver), beside the tenant store. The claim is one
 * statement, `INSERT ... ON CONFLICT DO UPDATE ... WHERE <the holder's lease ran out>`, so it is
 * atomic in the store itself: two processes on the same file can never both win a key.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import {
  DEFAULT_LEASE_MS,
  type Ledger,
  type LedgerEntry,
  type LedgerOptions,
  type LedgerState,
} from './ledger.ts';

/** Where the ledger lives unless told otherwise. */
export const DEFAULT_LEDGER_PATH = './data/ledger.sqlite';

interface Row {
  key: string;
  state: LedgerState;
  message_id: string | null;
  reason: string | null;
  updated_at: number;
}

const CLAIM_SQL = `INSERT INTO ledger (key, state, claimed_at, updated_at) VALUES (?, 'claimed', ?, ?)
  ON CONFLICT(key) DO UPDATE SET claimed_at = excluded.claimed_at, updated_at = excluded.updated_at
  WHERE ledger.state = 'claimed' AND ledger.claimed_at <= ?`;

/** Rows per multi-row statement (at most 4 parameters each, well under SQLite's parameter limit). */
const ROWS_PER_STATEMENT = 500;

const MARK_SENT_SQL = `INSERT INTO ledger (key, state, message_id, claimed_at, updated_at) VALUES (?, 'sent', ?, ?, ?)
  ON CONFLICT(key) DO UPDATE SET state = 'sent', message_id = excluded.message_id, updated_at = excluded.updated_at`;

function entryOf(row: Row): LedgerEntry {
  const entry: LedgerEntry = { key: row.key, state: row.state, updatedAt: row.updated_at };
  if (row.message_id !== null) entry.messageId = row.message_id;
  if (row.reason !== null) entry.reason = row.reason;
  return entry;
}

export class SqliteLedger implements Ledger {
  readonly #db: sqlite3.Database;
  readonly #ready: Promise<void>;
  readonly #leaseMs: number;
  readonly #now: () => number;

  /** Opens (and creates) the ledger file; `':memory:'` works for throwaway use. */
  constructor(path: string = DEFAULT_LEDGER_PATH, options: LedgerOptions = {}) {
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#now = options.now ?? Date.now;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new sqlite3.Database(path);
    this.#ready = (async () => {
      // WAL lets a second process read while one writes; busy_timeout waits out a writer instead of failing.
      await this.#exec('PRAGMA busy_timeout = 5000');
      // Switching a new file to WAL answers SQLITE_BUSY at once, without the busy handler, while another
      // process opens the same file: try again briefly (processes sharing one ledger start together).
      if (path !== ':memory:') await retryWhileBusy(() => this.#exec('PRAGMA journal_mode = WAL'));
      await retryWhileBusy(() =>
        this.#exec(`CREATE TABLE IF NOT EXISTS ledger (
        key TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        message_id TEXT,
        reason TEXT,
        claimed_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )`),
      );
    })();
  }

  async claim(key: string): Promise<boolean> {
    await this.#ready;
    const now = this.#now();
    const changes = await this.#run(CLAIM_SQL, [key, now, now, now - this.#leaseMs]);
    return changes === 1;
  }

  async claimMany(keys: readonly string[]): Promise<Set<string>> {
    const won = new Set<string>();
    if (keys.length === 0) return won;
    await this.#ready;
    const now = this.#now();
    // One transaction (one commit) of multi-row upserts: each row is still the atomic claim (insert,
    // or take over an expired lease), and RETURNING names exactly the rows this caller changed.
    const unique = [...new Set(keys)];
    await this.#serial(async () => {
      for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
        const chunk = unique.slice(i, i + ROWS_PER_STATEMENT);
        const rows = await this.#all<{ key: string }>(
          `INSERT INTO ledger (key, state, claimed_at, updated_at) VALUES ${chunk.map(() => "(?, 'claimed', ?, ?)").join(',')}
           ON CONFLICT(key) DO UPDATE SET claimed_at = excluded.claimed_at, updated_at = excluded.updated_at
           WHERE ledger.state = 'claimed' AND ledger.claimed_at <= ? RETURNING key`,
          [...chunk.flatMap((key) => [key, now, now]), now - this.#leaseMs],
        );
        for (const row of rows) won.add(row.key);
      }
    });
    return won;
  }

  async markSent(key: string, messageId: string): Promise<void> {
    await this.#ready;
    const now = this.#now();
    await this.#run(MARK_SENT_SQL, [key, messageId, now, now]);
  }

  async markSentMany(sent: readonly (readonly [key: string, messageId: string])[]): Promise<void> {
    if (sent.length === 0) return;
    await this.#ready;
    const now = this.#now();
    await this.#serial(async () => {
      for (let i = 0; i < sent.length; i += ROWS_PER_STATEMENT) {
        const chunk = sent.slice(i, i + ROWS_PER_STATEMENT);
        await this.#run(
          `INSERT INTO ledger (key, state, message_id, claimed_at, updated_at) VALUES ${chunk.map(() => "(?, 'sent', ?, ?, ?)").join(',')}
           ON CONFLICT(key) DO UPDATE SET state = 'sent', message_id = excluded.message_id, updated_at = excluded.updated_at`,
          chunk.flatMap(([key, messageId]) => [key, messageId, now, now]),
        );
      }
    });
  }

  async getMany(keys: readonly string[]): Promise<Map<string, LedgerEntry>> {
    const found = new Map<string, LedgerEntry>();
    await this.#ready;
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const rows = await new Promise<Row[]>((resolve, reject) => {
        this.#db.all<Row>(
          `SELECT key, state, message_id, reason, updated_at FROM ledger WHERE key IN (${chunk.map(() => '?').join(',')})`,
          chunk,
          (err, rows) => (err ? reject(err) : resolve(rows)),
        );
      });
      for (const row of rows) found.set(row.key, entryOf(row));
    }
    return found;
  }

  async prune(before: number): Promise<number> {
    await this.#ready;
    // Claims are pruned too once far past any lease: their holder died long ago.
    return this.#run('DELETE FROM ledger WHERE updated_at < ?', [before]);
  }

  async release(key: string): Promise<void> {
    await this.#ready;
    await this.#run(`DELETE FROM ledger WHERE key = ? AND state = 'claimed'`, [key]);
  }

  async fail(key: string, reason: string): Promise<void> {
    await this.#ready;
    const now = this.#now();
    await this.#run(
      `INSERT INTO ledger (key, state, reason, claimed_at, updated_at) VALUES (?, 'failed', ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET state = 'failed', reason = excluded.reason, updated_at = excluded.updated_at`,
      [key, reason, now, now],
    );
  }

  async get(key: string): Promise<LedgerEntry | undefined> {
    await this.#ready;
    const row = await new Promise<Row | undefined>((resolve, reject) => {
      this.#db.get<Row>(
        'SELECT key, state, message_id, reason, updated_at FROM ledger WHERE key = ?',
        [key],
        (err, found) => (err ? reject(err) : resolve(found)),
      );
    });
    return row ? entryOf(row) : undefined;
  }

  async findMessage(key: string): Promise<string | undefined> {
    const entry = await this.get(key);
    return entry?.state === 'sent' ? entry.messageId : undefined;
  }

  /** Every key with its state, for tests and the bench (small ledgers only). */
  async all(): Promise<LedgerEntry[]> {
    await this.#ready;
    const rows = await new Promise<Row[]>((resolve, reject) => {
      this.#db.all<Row>(
        'SELECT key, state, message_id, reason, updated_at FROM ledger ORDER BY key',
        (err, found) => (err ? reject(err) : resolve(found)),
      );
    });
    return rows.map((row) => ({
      key: row.key,
      state: row.state,
      updatedAt: row.updated_at,
      ...(row.message_id !== null ? { messageId: row.message_id } : {}),
      ...(row.reason !== null ? { reason: row.reason } : {}),
    }));
  }

  async close(): Promise<void> {
    await this.#ready.catch(() => undefined);
    await new Promise<void>((resolve, reject) => this.#db.close((err) => (err ? reject(err) : resolve())));
  }

  /** Batches run one after another on this connection, so their transactions never nest. */
  #batches: Promise<unknown> = Promise.resolve();

  /** Runs `work` inside one transaction, after any batch before it (transactions never nest). */
  #serial(work: () => Promise<void>): Promise<void> {
    const run = async () => {
      await this.#exec('BEGIN IMMEDIATE');
      try {
        await work();
        await this.#exec('COMMIT');
      } catch (error) {
        await this.#exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    };
    const next = this.#batches.then(run, run);
    this.#batches = next.catch(() => undefined);
    return next;
  }

  #all<T>(sql: string, params: unknown[]): Promise<T[]> {
    return new Promise((resolve, reject) =>
      this.#db.all<T>(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))),
    );
  }

  #exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.#db.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  #run(sql: string, params: unknown[]): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(err);
        else resolve(this.changes);
      });
    });
  }
}

/** Runs `step` again (up to about 2 s) while SQLite answers SQLITE_BUSY without waiting itself. */
async function retryWhileBusy(step: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}
