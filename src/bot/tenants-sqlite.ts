/**
 * Tenant settings in SQLite (sqlite3 driver): one row per tenant, `(id, doc, revision)`. The table
 * is also the list of tenants, so the list can never miss a stored tenant. A change is one
 * statement, `UPDATE ... WHERE revision = ?` (or `INSERT ... ON CONFLICT DO NOTHING` for a new
 * tenant), atomic across every process sharing the file; WAL lets readers go on while one writes.
 *
 * Settings written by earlier builds (keyv's `keyv` table) are moved into the table on open.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import type { Logger } from './logger.ts';
import { classifyStoreError, type DocumentStore, type StoredDocument, StoreError } from './store-backend.ts';

const LEGACY_PREFIX = 'matchday:tenant:';
const LEGACY_SUFFIX = ':settings';

export interface SqliteDocuments extends DocumentStore {
  /** Stores `doc` at `revision` unless a newer revision is already there (the Redis mirror). */
  keep(tenantId: string, doc: string, revision: number): Promise<void>;
  /** Every stored document (the Redis mirror's restore). */
  all(): Promise<(StoredDocument & { id: string })[]>;
}

function open(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (error) => (error ? reject(error) : resolve(db)));
  });
}

function run(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    db.run(sql, params, function (this: sqlite3.RunResult, error: Error | null) {
      if (error) reject(error);
      else resolve(this.changes);
    });
  });
}

function all<T>(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => {
    db.all(sql, params, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows)));
  });
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
}

/** Repeats `action` while another process holds a lock the busy handler does not wait for (WAL switch). */
async function whileBusy<T>(action: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt >= 50 || !/SQLITE_BUSY|SQLITE_LOCKED/.test(String((error as Error).message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
  }
}

/** The operator's message for a store that cannot be opened, by cause. */
function openFailure(path: string, where: string, error: unknown): StoreError {
  const failure = classifyStoreError(error);
  const detail = (error as Error)?.message ?? String(error);
  const folder = dirname(path);
  const advice: Partial<Record<ReturnType<typeof classifyStoreError>, string>> = {
    'read-only': `The folder ${folder} (or the file in it) is not writable by this user. Make it writable, or set STORE_URL to a writable place (see .env.example).`,
    full: `The disk holding ${folder} is full. Free some space and start again.`,
    damaged: `The file is not a SQLite database or is damaged. Move it aside (a fresh one is created) or restore a backup.`,
  };
  return new StoreError(
    `Cannot open the settings store ${where}: ${detail.replace(/\.$/, '')}. ${advice[failure] ?? 'Check STORE_URL (see .env.example).'}`,
    failure,
    { cause: error },
  );
}

/**
 * Opens (and creates) the settings file. A file that cannot be created or written stops start-up with
 * a message naming the cause; a damaged file is reported once and every call fails with "damaged",
 * so commands that do not need settings still answer.
 */
export async function openSqliteDocuments(
  path: string,
  where: string,
  logger: Logger,
  /** The table: `tenants` (settings), or another namespace in the same file (`users`: src/bot/users.ts). */
  table: Table = 'tenants',
): Promise<SqliteDocuments> {
  const db = await openDatabase(path, where);
  try {
    await prepare(db, path, table, logger);
  } catch (error) {
    const failure = openFailure(path, where, error);
    await new Promise((resolve) => db.close(resolve));
    if (failure.failure !== 'damaged') throw failure;
    logger.error(
      { store: where, cause: failure.message },
      'the settings store is damaged; settings are unavailable',
    );
    return brokenDocuments(failure);
  }
  return sqliteDocuments(db, table);
}

type Table = 'tenants' | 'users';

/** Creates the folder and opens the file; a failure says why, for the operator. */
async function openDatabase(path: string, where: string): Promise<sqlite3.Database> {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return await open(path);
  } catch (error) {
    throw openFailure(path, where, error);
  }
}

/** Checks the file is sound, switches to WAL, creates the table and moves legacy settings into it. */
async function prepare(db: sqlite3.Database, path: string, table: Table, logger: Logger): Promise<void> {
  await exec(db, 'PRAGMA busy_timeout = 5000');
  const check = await all<{ quick_check: string }>(db, 'PRAGMA quick_check');
  if (check[0]?.quick_check !== 'ok') {
    throw Object.assign(new Error(`integrity check failed: ${check[0]?.quick_check ?? 'no answer'}`), {
      code: 'SQLITE_CORRUPT',
    });
  }
  if (path !== ':memory:') await whileBusy(() => exec(db, 'PRAGMA journal_mode = WAL'));
  await whileBusy(() =>
    exec(
      db,
      `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL, revision INTEGER NOT NULL)`,
    ),
  );
  if (table === 'tenants') await importLegacy(db, logger);
}

/** The documents of one table: each call one statement, so each is atomic across processes. */
function sqliteDocuments(db: sqlite3.Database, table: Table): SqliteDocuments {
  return {
    async read(tenantId) {
      const rows = await all<StoredDocument>(db, `SELECT doc, revision FROM ${table} WHERE id = ?`, [
        tenantId,
      ]);
      return rows[0];
    },
    async write(tenantId, doc, revision) {
      const changes =
        revision === 0
          ? await run(
              db,
              `INSERT INTO ${table} (id, doc, revision) VALUES (?, ?, 1) ON CONFLICT(id) DO NOTHING`,
              [tenantId, doc],
            )
          : await run(
              db,
              `UPDATE ${table} SET doc = ?, revision = revision + 1 WHERE id = ? AND revision = ?`,
              [doc, tenantId, revision],
            );
      return changes === 1 ? revision + 1 : undefined;
    },
    async keep(tenantId, doc, revision) {
      await run(
        db,
        `INSERT INTO ${table} (id, doc, revision) VALUES (?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, revision = excluded.revision
         WHERE excluded.revision > ${table}.revision`,
        [tenantId, doc, revision],
      );
    },
    async remove(tenantId) {
      await run(db, `DELETE FROM ${table} WHERE id = ?`, [tenantId]);
    },
    async ids() {
      return (await all<{ id: string }>(db, `SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);
    },
    all: () => all<StoredDocument & { id: string }>(db, `SELECT id, doc, revision FROM ${table} ORDER BY id`),
    close: () => new Promise<void>((resolve) => db.close(() => resolve())),
  };
}

/** Moves settings from keyv's table (earlier builds) into `tenants`, in one transaction. */
async function importLegacy(db: sqlite3.Database, logger: Logger): Promise<void> {
  const legacy = await all(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'keyv'");
  if (legacy.length === 0) return;
  const pattern = `${LEGACY_PREFIX}%${LEGACY_SUFFIX}`;
  const rows = await all<{ n: number }>(db, 'SELECT count(*) AS n FROM keyv WHERE key LIKE ?', [pattern]);
  if ((rows[0]?.n ?? 0) === 0) return;
  await whileBusy(() => exec(db, 'BEGIN IMMEDIATE'));
  try {
    await run(
      db,
      `INSERT INTO tenants (id, doc, revision)
       SELECT substr(key, ?, length(key) - ?), json_extract(value, '$.value'), 1 FROM keyv
       WHERE key LIKE ? AND json_extract(value, '$.value') IS NOT NULL
       ON CONFLICT(id) DO NOTHING`,
      [LEGACY_PREFIX.length + 1, LEGACY_PREFIX.length + LEGACY_SUFFIX.length, pattern],
    );
    await run(db, "DELETE FROM keyv WHERE key LIKE ? OR key = 'matchday:index:tenants'", [pattern]);
    await exec(db, 'COMMIT');
    logger.info({ tenants: rows[0]?.n }, 'moved settings from the earlier keyv table');
  } catch (error) {
    await exec(db, 'ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A store that answers every call with the same failure (a damaged file found at start). */
function brokenDocuments(failure: StoreError): SqliteDocuments {
  const reject = () => Promise.reject(failure);
  return {
    read: reject,
    write: reject,
    keep: reject,
    remove: reject,
    ids: reject,
    all: reject,
    close: async () => {},
  };
}
