/**
 * What the tenant store (tenants.ts) and the profile store (users.ts) share: opening the backend the
 * config names, and the compare-and-set loop every change goes through.
 */
import type { Config } from '../config.ts';
import type { Logger } from './logger.ts';
import type { TenantStoreOptions } from './store-backend.ts';
import { type DocumentStore, StoreError } from './store-backend.ts';
import { openSqliteDocuments } from './tenants-sqlite.ts';

/** Attempts of one change before giving up as "busy" (each lost attempt means another writer won). */
export const MAX_ATTEMPTS = 200;

/** Opens the documents of `kind` in the store named by the config: a SQLite table or a Redis namespace. */
export async function openDocuments(
  store: Config['store'],
  where: string,
  options: TenantStoreOptions,
  kind: 'tenants' | 'users',
): Promise<DocumentStore> {
  if (store.kind === 'sqlite') return openSqliteDocuments(store.path, where, options.logger, kind);
  return (await import('./tenants-redis.ts')).openRedisDocuments(store.url, where, {
    ...options,
    ...(store.mirror === false ? { mirrorPath: false } : {}),
    ...(kind === 'users' ? { namespace: 'users' } : {}),
  });
}

/** A store's backend, and how the store words a failure of it. */
export interface Backend {
  documents: DocumentStore;
  logger: Logger;
  /** A backend failure as a `StoreError` saying what the store was doing (`action`); a `StoreError` as it is. */
  failure(action: string, error: unknown): StoreError;
}

/** Runs one backend call; a failure becomes `backend.failure(action, error)`. */
export async function guarded<T>(backend: Backend, action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw backend.failure(action, error);
  }
}

/** One change of a stored document, as `changeDocument` runs it. */
interface DocumentChange<T> {
  /** The latest stored value and the revision it was read at (0: none stored). */
  read(): Promise<{ value: T; revision: number }>;
  /** The new value (validated); may throw, and then nothing is stored. */
  apply(current: T): T;
  /** What a failed write was doing, for its message: "save settings". */
  saving: string;
  /** Why the change gave up when other writers won every attempt. */
  busy: string;
}

/**
 * Applies a change to the latest stored value of document `id` and stores it only if nobody wrote it
 * meanwhile; otherwise waits a moment (jittered) and applies the change again to the newer value.
 * Returns what was stored.
 */
export async function changeDocument<T>(backend: Backend, id: string, change: DocumentChange<T>): Promise<T> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { value, revision } = await change.read();
    const next = change.apply(structuredClone(value));
    const doc = JSON.stringify(next);
    if (
      (await guarded(backend, change.saving, () => backend.documents.write(id, doc, revision))) !== undefined
    )
      return next;
    await sleep(Math.random() * Math.min(50, 2 * 2 ** Math.min(attempt, 5)));
  }
  throw new StoreError(change.busy, 'busy');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
