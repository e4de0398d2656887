/**
 * The default ledger: one SQLite file (sqlite3 driver), beside the tenant store. The claim is one
 * statement, `INSERT ... ON CONFLICT DO UPDATE ... WHERE <the holder's lease ran out>`, so it is
 * atomic in the store itself: two processes on the same file can never both win a key.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import {
  type Claim,
  DEFAULT_LEASE_MS,
  type Ledger,
  type LedgerEntry,
  LedgerError,
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

/**
 * The claim: insert, or take over a claim whose lease ran out or that a dead predecessor with this
 * identity left (same holder, another session). `attempts` counts claims of the key: above 1 the
 * key was claimed before and not finished (`retaken`). Parameters: rows x (key, now, now, holder,
 * session), then the lease cutoff, the holder and the session.
 */
function claimSql(rows: number): string {
  return `INSERT INTO ledger (key, state, claimed_at, updated_at, holder, session, attempts)
    VALUES ${Array.from({ length: rows }, () => "(?, 'claimed', ?, ?, ?, ?, 1)").join(',')}
    ON CONFLICT(key) DO UPDATE SET claimed_at = excluded.claimed_at, updated_at = excluded.updated_at,
      holder = excluded.holder, session = excluded.session, attempts = ledger.attempts + 1
    WHERE ledger.state = 'claimed'
      AND (ledger.claimed_at <= ? OR (ledger.holder = ? AND ledger.session <> ?))
    RETURNING key, attempts`;
}

/** Rows per multi-row statement (at most 5 parameters each, well under SQLite's parameter limit). */
const ROWS_PER_STATEMENT = 500;

/** The ledger file's layout; `PRAGMA user_version` holds it (0: the first layout, upgraded in place). */
export const LEDGER_SCHEMA_VERSION = 2;

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
  readonly leaseMs: number;
  readonly #now: () => number;
  readonly #holder: string;
  /** This opening of the file: a restarted process with the same holder has another session. */
  readonly #session = randomUUID();

  readonly #path: string;
  /** The file's inode once open: a different one (or none) means it was deleted or replaced. */
  #inode: number | undefined;

  /**
   * Opens (and creates) the ledger file; `':memory:'` works for throwaway use. Opening checks it:
   * `PRAGMA quick_check` and the layout version; `verify()` (and every call) rejects with a
   * `LedgerError` that tells the operator what is wrong and what to do.
   */
  constructor(path: string = DEFAULT_LEDGER_PATH, options: LedgerOptions = {}) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#now = options.now ?? Date.now;
    this.#holder = options.holder ?? `anonymous-${randomUUID()}`;
    this.#path = path;
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
      // WAL lets a second process read while one writes; busy_timeout waits out a writer instead of failing.
      await this.#exec('PRAGMA busy_timeout = 5000');
      // Switching a new file to WAL answers SQLITE_BUSY at once, without the busy handler, while another
      // process opens the same file: try again briefly (processes sharing one ledger start together).
      if (path !== ':memory:') await retryWhileBusy(() => this.#exec('PRAGMA journal_mode = WAL'));
      const check = await this.#all<{ quick_check: string }>('PRAGMA quick_check', []);
      if (check.length !== 1 || check[0]?.quick_check !== 'ok') {
        const detail = check
          .map((row) => row.quick_check)
          .slice(0, 3)
          .join('; ');
        throw new LedgerError('damaged', damagedMessage(path, `integrity check: ${detail}`));
      }
      await retryWhileBusy(() => this.#migrate());
      if (path !== ':memory:') this.#inode = statSync(path).ino;
    })().catch((error: unknown) => {
      throw ledgerError(error, path);
    });
    // Reported by `verify()` and every call; never an unhandled rejection.
    this.#ready.catch(() => undefined);
  }

  async verify(): Promise<void> {
    await this.#ready;
    if (this.#path === ':memory:') return;
    let inode: number | undefined;
    try {
      inode = statSync(this.#path).ino;
    } catch {
      inode = undefined;
    }
    if (inode !== this.#inode) {
      throw new LedgerError(
        'missing',
        `The ledger file ${this.#path} was deleted or replaced while Matchday was running. Notifications are stopped, ` +
          'so that nothing already sent is sent again. Restore the file and restart Matchday, or restart with ' +
          'LEDGER_START_FRESH=yes to begin a new ledger (notifications still due may then repeat).',
      );
    }
  }

  /** Creates the table, or upgrades an older layout in place, in one transaction. */
  async #migrate(): Promise<void> {
    await this.#exec('BEGIN IMMEDIATE');
    try {
      const [row] = await this.#all<{ user_version: number }>('PRAGMA user_version', []);
      const version = row?.user_version ?? 0;
      if (version > LEDGER_SCHEMA_VERSION) {
        throw new LedgerError(
          'newer',
          `The ledger file ${this.#path} has layout ${version}, newer than this Matchday understands (${LEDGER_SCHEMA_VERSION}): run the newer Matchday, or start a new ledger with LEDGER_START_FRESH=yes.`,
        );
      }
      const tables = await this.#all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'ledger'",
        [],
      );
      if (tables.length === 0) {
        await this.#exec(`CREATE TABLE ledger (
          key TEXT PRIMARY KEY,
          state TEXT NOT NULL,
          message_id TEXT,
          reason TEXT,
          claimed_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          holder TEXT,
          session TEXT,
          attempts INTEGER NOT NULL DEFAULT 1
        )`);
      } else if (version < 2) {
        await this.#exec('ALTER TABLE ledger ADD COLUMN holder TEXT');
        await this.#exec('ALTER TABLE ledger ADD COLUMN session TEXT');
        await this.#exec('ALTER TABLE ledger ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1');
      }
      // The last completed tick (`lastRun`): a table of its own, one row. Added without a new layout
      // version: a Matchday that does not know it opens the file as before and ignores it.
      await this.#exec(
        'CREATE TABLE IF NOT EXISTS notifier_runs (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL)',
      );
      if (version !== LEDGER_SCHEMA_VERSION)
        await this.#exec(`PRAGMA user_version = ${LEDGER_SCHEMA_VERSION}`);
      await this.#exec('COMMIT');
    } catch (error) {
      await this.#exec('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async claim(key: string): Promise<boolean> {
    return (await this.claimMany([key])).has(key);
  }

  async claimMany(keys: readonly string[]): Promise<Map<string, Claim>> {
    const won = new Map<string, Claim>();
    if (keys.length === 0) return won;
    await this.#ready;
    const now = this.#now();
    // One transaction (one commit) of multi-row upserts: each row is still the atomic claim (insert,
    // or take over an expired lease), and RETURNING names exactly the rows this caller changed.
    const unique = [...new Set(keys)];
    await this.#serial(async () => {
      for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
        const chunk = unique.slice(i, i + ROWS_PER_STATEMENT);
        const rows = await this.#all<{ key: string; attempts: number }>(claimSql(chunk.length), [
          ...chunk.flatMap((key) => [key, now, now, this.#holder, this.#session]),
          now - this.leaseMs,
          this.#holder,
          this.#session,
        ]);
        for (const row of rows) won.set(row.key, { retaken: row.attempts > 1 });
      }
    });
    return won;
  }

  async renewMany(keys: readonly string[]): Promise<Set<string>> {
    const held = new Set<string>();
    if (keys.length === 0) return held;
    await this.#ready;
    const now = this.#now();
    await this.#serial(async () => {
      for (let i = 0; i < keys.length; i += ROWS_PER_STATEMENT) {
        const chunk = keys.slice(i, i + ROWS_PER_STATEMENT);
        const rows = await this.#all<{ key: string }>(
          `UPDATE ledger SET claimed_at = ?, updated_at = ?
           WHERE key IN (${chunk.map(() => '?').join(',')}) AND state = 'claimed' AND holder = ? AND session = ?
           RETURNING key`,
          [now, now, ...chunk, this.#holder, this.#session],
        );
        for (const row of rows) held.add(row.key);
      }
    });
    return held;
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

  async lastRun(): Promise<number | undefined> {
    await this.#ready;
    const [row] = await this.#all<{ at: number }>('SELECT at FROM notifier_runs WHERE id = 1', []);
    return row?.at;
  }

  async recordRun(at: number): Promise<void> {
    await this.#ready;
    await this.#serial(async () => {
      await this.#run(
        'INSERT INTO notifier_runs (id, at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET at = max(at, excluded.at)',
        [at],
      );
    });
  }

  async release(key: string, options: { maybePosted?: boolean } = {}): Promise<void> {
    await this.#ready;
    const mine = `key = ? AND state = 'claimed' AND holder = ? AND session = ?`;
    // Maybe posted: an expired claim of nobody stays, so the next claim is `retaken` and asks the platform.
    if (options.maybePosted)
      await this.#run(`UPDATE ledger SET claimed_at = 0, holder = NULL, session = NULL WHERE ${mine}`, [
        key,
        this.#holder,
        this.#session,
      ]);
    else await this.#run(`DELETE FROM ledger WHERE ${mine}`, [key, this.#holder, this.#session]);
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
    // A ledger that failed to open may have no connection to close: that is not a second error.
    const failed = await this.#ready.then(
      () => false,
      () => true,
    );
    await new Promise<void>((resolve, reject) =>
      this.#db.close((err) => (err && !failed ? reject(err) : resolve())),
    );
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

/**
 * Opens the notifier's ledger the way `npm start` does: a ledger file missing while the settings
 * store already has tenants (deleted or moved after use) or a damaged one is refused with a
 * `LedgerError`, unless `startFresh` (LEDGER_START_FRESH=yes): a damaged file is then set aside as
 * `<file>.damaged-<time>` and a new ledger begins.
 */
export async function openSqliteLedger(
  path: string,
  options: LedgerOptions & {
    startFresh: boolean;
    usedBefore: () => Promise<boolean>;
    logger: { warn(data: object, message: string): void };
  },
): Promise<SqliteLedger> {
  const { startFresh, usedBefore, logger, ...ledgerOptions } = options;
  if (path !== ':memory:' && !existsSync(path) && (await usedBefore())) {
    if (!startFresh)
      throw new LedgerError(
        'missing',
        `The ledger file ${path} is missing, but the settings store has servers set up: it was deleted or moved. ` +
          'Without it, notifications already sent would be sent again. Put it back, or start a new ledger ' +
          'by setting LEDGER_START_FRESH=yes.',
      );
    logger.warn({ path }, 'ledger missing after use: starting a new one (LEDGER_START_FRESH=yes)');
  }
  const ledger = new SqliteLedger(path, ledgerOptions);
  try {
    await ledger.verify();
    return ledger;
  } catch (error) {
    await ledger.close().catch(() => undefined);
    if (!(error instanceof LedgerError) || !startFresh || !['damaged', 'newer'].includes(error.problem))
      throw error;
    const aside = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
    logger.warn({ path, aside }, 'damaged ledger set aside; starting a new one (LEDGER_START_FRESH=yes)');
    const fresh = new SqliteLedger(path, ledgerOptions);
    await fresh.verify();
    return fresh;
  }
}

function damagedMessage(path: string, detail: string): string {
  return (
    `The ledger file ${path} is damaged (${detail}). Matchday does not send notifications from it: ` +
    'what was already sent could be sent again. Restore it from a backup, or start with a new ledger ' +
    'by setting LEDGER_START_FRESH=yes (the damaged file is kept aside).'
  );
}

/** An open or check failure as the operator should read it (never a raw stack trace). */
function ledgerError(error: unknown, path: string): Error {
  if (error instanceof LedgerError) return error;
  const code = String((error as { code?: unknown })?.code ?? '');
  if (['SQLITE_NOTADB', 'SQLITE_CORRUPT'].includes(code))
    return new LedgerError('damaged', damagedMessage(path, `${code}: not a readable SQLite database`));
  if (['EACCES', 'EPERM', 'EROFS', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_PERM'].includes(code))
    return new LedgerError(
      'unwritable',
      `The ledger file ${path} cannot be opened for writing (${code}): make the folder ${dirname(path)} ` +
        'writable by the user running Matchday, or point STORE_URL at a writable place.',
    );
  return error instanceof Error ? error : new Error(String(error));
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
