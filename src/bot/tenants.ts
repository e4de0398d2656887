/**
 * Where each tenant's settings live: SQLite (default `./data/matchday.sqlite`) or Redis, chosen by
 * `STORE_URL`. A tenant is `<platform>:<guild or workspace id>`; each has one settings document.
 *
 * Every change is a small function applied to the latest stored settings (`update`): the document
 * is written only if nobody changed it since it was read (a revision number, compared and set in
 * one statement or script), and the change is re-applied to the newer document otherwise. So eight
 * admins changing eight things at once end with eight changes stored, and "Saved" is said only
 * after the store accepted the write.
 *
 * The list of tenants cannot drift from the documents: on SQLite it is the table itself; on Redis
 * a set updated in the same script as the document, checked against the documents on start.
 *
 * Store failures surface as `StoreError` saying why (unreachable, damaged, read-only, full, busy),
 * so an operator knows what to fix; they never crash the process.
 */
import type { z } from 'zod';
import { type Config, safeUrl } from '../config.ts';
import { isTenantId } from '../core/tenant-id.ts';
import { UserError } from './command.ts';
import type { Logger } from './logger.ts';
import {
  defaultSettings,
  migrateSettings,
  SETTINGS_VERSION,
  type Settings,
  settingsSchema,
} from './settings.ts';
import { classifyStoreError, type DocumentStore, type StoredDocument, StoreError } from './store-backend.ts';
import { openSqliteDocuments } from './tenants-sqlite.ts';

export { StoreError, type StoreFailure } from './store-backend.ts';

export interface TenantStore {
  /** The tenant's settings: defaults when it is new; older documents are migrated (and rewritten). */
  get(tenantId: string): Promise<Settings>;
  /**
   * Applies `change` to the latest stored settings and stores the result atomically, re-applying it
   * when another writer got there first. `change` may throw `UserError` (nothing is stored then) and
   * may run more than once. Returns what was stored. Invalid result: `UserError`.
   */
  update(tenantId: string, change: (current: Settings) => Settings): Promise<Settings>;
  /** Replaces the settings whole (first set-up, imports); prefer `update` for changes. */
  save(tenantId: string, settings: Settings): Promise<Settings>;
  /** Removes everything stored for the tenant (left the guild, uninstalled). */
  purge(tenantId: string): Promise<void>;
  /** Every tenant id that has saved settings. */
  list(): Promise<string[]>;
  close(): Promise<void>;
}

/** Attempts of one update before giving up as "busy" (each lost attempt means another writer won). */
const MAX_ATTEMPTS = 200;

function checkTenantId(tenantId: string): void {
  if (!isTenantId(tenantId)) {
    throw new UserError(
      'BAD_TENANT',
      `"${tenantId.slice(0, 80)}" is not a tenant id; expected <platform>:<id>, e.g. discord:1234.`,
    );
  }
}

/** Says which field is wrong and what would be right, from a zod error. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`)
    .join('; ');
}

function validate(settings: Settings): Settings {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) {
    throw new UserError('INVALID_SETTINGS', `Those settings are not valid: ${describeIssues(parsed.error)}.`);
  }
  return parsed.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The settings store's logic (validation, migration, compare-and-set retries) over a backend. */
function tenantStoreOver(backend: DocumentStore, logger: Logger, where: string): TenantStore {
  const fail = (action: string, error: unknown): StoreError => {
    if (error instanceof StoreError) return error;
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    return new StoreError(
      `The settings store (${where}) failed to ${action}: ${reason}`,
      classifyStoreError(error),
      {
        cause: error,
      },
    );
  };

  /** The stored settings (migrated, validated) and the revision they were read at. */
  async function readCurrent(
    tenantId: string,
  ): Promise<{ settings: Settings; revision: number; migrated: boolean }> {
    let stored: StoredDocument | undefined;
    try {
      stored = await backend.read(tenantId);
    } catch (error) {
      throw fail('read settings', error);
    }
    if (!stored) return { settings: defaultSettings(), revision: 0, migrated: false };
    let value: unknown;
    try {
      value = JSON.parse(stored.doc);
    } catch {
      logger.warn({ tenant: tenantId }, 'stored settings are not JSON; using defaults');
      return { settings: defaultSettings(), revision: stored.revision, migrated: false };
    }
    const version = (value as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > SETTINGS_VERSION) {
      throw new StoreError(
        `The settings of ${tenantId} were written by a newer Matchday (settings version ${version}; this one knows ${SETTINGS_VERSION}). Upgrade Matchday.`,
        'newer-version',
      );
    }
    if (version === SETTINGS_VERSION) {
      const parsed = settingsSchema.safeParse(value);
      if (parsed.success) return { settings: parsed.data, revision: stored.revision, migrated: false };
      logger.warn(
        { tenant: tenantId, problem: describeIssues(parsed.error) },
        'stored settings invalid; using defaults',
      );
      return { settings: defaultSettings(), revision: stored.revision, migrated: false };
    }
    const migrated = migrateSettings(value);
    logger.info({ tenant: tenantId, from: version ?? 0, to: SETTINGS_VERSION }, 'migrated stored settings');
    return { settings: migrated, revision: stored.revision, migrated: true };
  }

  async function update(tenantId: string, change: (current: Settings) => Settings): Promise<Settings> {
    checkTenantId(tenantId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { settings, revision } = await readCurrent(tenantId);
      const next = validate(change(structuredClone(settings)));
      let written: number | undefined;
      try {
        written = await backend.write(tenantId, JSON.stringify(next), revision);
      } catch (error) {
        throw fail('save settings', error);
      }
      if (written !== undefined) return next;
      // Another writer stored a newer document first: wait a moment (jittered) and apply the change to it.
      await sleep(Math.random() * Math.min(50, 2 * 2 ** Math.min(attempt, 5)));
    }
    throw new StoreError(
      `The settings of ${tenantId} kept changing under ${MAX_ATTEMPTS} attempts to save them.`,
      'busy',
    );
  }

  return {
    async get(tenantId) {
      checkTenantId(tenantId);
      const current = await readCurrent(tenantId);
      if (current.migrated) {
        // Written back only if nobody changed it meanwhile; the next read migrates again otherwise.
        await backend
          .write(tenantId, JSON.stringify(current.settings), current.revision)
          .catch((error: unknown) =>
            logger.warn({ err: error, tenant: tenantId }, 'could not write migrated settings back'),
          );
      }
      return current.settings;
    },
    update,
    async save(tenantId, settings) {
      const checked = validate(settings);
      return update(tenantId, () => checked);
    },
    async purge(tenantId) {
      checkTenantId(tenantId);
      try {
        await backend.remove(tenantId);
      } catch (error) {
        throw fail('purge a tenant', error);
      }
    },
    async list() {
      try {
        return await backend.ids();
      } catch (error) {
        throw fail('list tenants', error);
      }
    },
    close: () => backend.close(),
  };
}

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

/**
 * Opens the store named by `store` (from the config) and checks that it answers, so a wrong path or
 * an unreachable Redis stops start-up with a clear message instead of failing the first command.
 */
export async function openTenantStore(
  store: Config['store'],
  options: TenantStoreOptions,
): Promise<TenantStore> {
  const where = safeUrl(store.url);
  const backend =
    store.kind === 'sqlite'
      ? await openSqliteDocuments(store.path, where, options.logger)
      : await (await import('./tenants-redis.ts')).openRedisDocuments(store.url, where, {
          ...options,
          ...(store.mirror === false ? { mirrorPath: false } : {}),
        });
  return tenantStoreOver(backend, options.logger, where);
}
