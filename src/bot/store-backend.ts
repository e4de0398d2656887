/**
 * What the tenant store needs of a backend (SQLite or Redis), how a store is opened, and the one error
 * it raises. Kept apart from tenants.ts so that the backends and the store logic import it without
 * importing each other.
 */
import { MatchdayError } from '../core/errors.ts';
import type { Logger } from './logger.ts';

/** Why the store failed, in words an operator can act on (and a user can read). */
export type StoreFailure =
  | 'unreachable'
  | 'timeout'
  | 'damaged'
  | 'read-only'
  | 'full'
  | 'busy'
  | 'newer-version'
  | 'auth'
  | 'tls'
  | 'failed';

const FAILURE_TEXT: Record<StoreFailure, string> = {
  unreachable: 'the settings store cannot be reached',
  timeout: 'the settings store did not answer in time',
  damaged: 'the settings store is damaged',
  'read-only': 'the settings store is read-only',
  full: 'the disk of the settings store is full',
  busy: 'too many changes are being made at the same moment',
  'newer-version': 'the settings were written by a newer Matchday',
  auth: 'the settings store refused its password',
  tls: 'the secure connection to the settings store failed',
  failed: 'the settings store failed',
};

/**
 * Failures that waiting does not mend: the operator has to act (restore the file, free the disk,
 * fix STORE_URL). A person is told so rather than "try again shortly".
 */
const LASTING: ReadonlySet<StoreFailure> = new Set([
  'damaged',
  'read-only',
  'full',
  'newer-version',
  'auth',
  'tls',
]);

/** The failure as a clause, in English ("the settings store is damaged"): logs, banner, `/readyz`. */
export function storeFailureText(failure: StoreFailure): string {
  return FAILURE_TEXT[failure];
}

/** True when `failure` stays until someone fixes the store (see `LASTING`). */
export function isLasting(failure: StoreFailure): boolean {
  return LASTING.has(failure);
}

/** The settings store could not be read or written; `failure` says why. */
export class StoreError extends MatchdayError {
  override name = 'StoreError';
  constructor(
    message: string,
    readonly failure: StoreFailure = 'failed',
    options?: { cause?: unknown },
  ) {
    super('STORE_UNAVAILABLE', 'outage', message, options);
  }

  /** What a person in chat is told: the cause, without paths or URLs. */
  override get userMessage(): string {
    return isLasting(this.failure)
      ? `Settings are unavailable: ${FAILURE_TEXT[this.failure]}. Waiting will not fix this: the operator of this bot has to repair the store (the bot's log says how).`
      : `Settings are unavailable right now: ${FAILURE_TEXT[this.failure]}. Please try again shortly.`;
  }
}

/** Names the cause of a driver error (SQLite codes, Node system errors, Redis client errors). */
export function classifyStoreError(error: unknown): StoreFailure {
  if (error instanceof StoreError) return error.failure;
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | undefined;
  const text = `${String(e?.code ?? '')} ${String(e?.name ?? '')} ${String(e?.message ?? '')}`;
  if (/SQLITE_CORRUPT|SQLITE_NOTADB|malformed|not a database/i.test(text)) return 'damaged';
  if (/WRONGPASS|NOAUTH|invalid username-password|AUTH failed|NOPERM|called without any password/i.test(text))
    return 'auth';
  if (/ERR_SSL|SSL routines|wrong version number|EPROTO|ERR_TLS|certificate|CERT_/i.test(text)) return 'tls';
  if (/SQLITE_READONLY|EACCES|EPERM|EROFS|readonly|read-only/i.test(text)) return 'read-only';
  if (/SQLITE_FULL|ENOSPC/i.test(text)) return 'full';
  if (/SQLITE_BUSY|SQLITE_LOCKED/i.test(text)) return 'busy';
  if (/timeout|timed out|no answer in time/i.test(text)) return 'timeout';
  if (
    /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|offline|closed|Socket|unreachable|SQLITE_CANTOPEN/i.test(
      text,
    )
  )
    return 'unreachable';
  return 'failed';
}

/** How a store is opened, whichever its backend: the tenant store and the profile store (src/bot/users.ts). */
export interface TenantStoreOptions {
  logger: Logger;
  /** How long to wait for the store to answer: opening it, and each call on Redis. Default 1500 ms. */
  timeoutMs?: number;
  /**
   * Redis only: a SQLite copy of every document this process wrote or read, restored into Redis
   * when Redis comes back empty (a restart without persistence). Default `./data/settings-mirror.sqlite`;
   * `false` turns it off.
   */
  mirrorPath?: string | false;
  /** Redis only: told (a sentence, for the operator) when the mirror was put back into an emptied Redis. */
  onRestore?: (notice: string) => void;
}

/** One stored document and its revision (1 for the first write; each write adds one). */
export interface StoredDocument {
  doc: string;
  revision: number;
}

/**
 * What a backend gives the store: reads, a compare-and-set write, removal and the list of ids.
 * Every method is atomic in the backend itself (one SQL statement, one Redis script).
 */
export interface DocumentStore {
  read(tenantId: string): Promise<StoredDocument | undefined>;
  /** Writes `doc` if the stored revision is still `revision` (0: absent); the new revision, or undefined on conflict. */
  write(tenantId: string, doc: string, revision: number): Promise<number | undefined>;
  remove(tenantId: string): Promise<void>;
  /** Every tenant id with a stored document, sorted. */
  ids(): Promise<string[]>;
  close(): Promise<void>;
}
