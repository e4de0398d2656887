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
import { UserError } from '../core/errors.ts';
import { isTenantId } from '../core/tenant-id.ts';
import { type Backend, changeDocument, guarded, MAX_ATTEMPTS, openDocuments } from './documents.ts';
import type { Logger } from './logger.ts';
import {
  defaultSettings,
  migrateSettings,
  SETTINGS_VERSION,
  type Settings,
  settingsSchema,
} from './settings.ts';
import {
  classifyStoreError,
  type DocumentStore,
  StoreError,
  type TenantStoreOptions,
} from './store-backend.ts';

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

/** Settings as read: what they are, the revision they were read at, and whether they were migrated. */
interface CurrentSettings {
  settings: Settings;
  revision: number;
  migrated: boolean;
}

/** A backend failure as a `StoreError` that says what the store was doing. */
function failure(where: string, action: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  return new StoreError(
    `The settings store (${where}) failed to ${action}: ${reason}`,
    classifyStoreError(error),
    { cause: error },
  );
}

/** The stored settings (migrated, validated) and the revision they were read at. */
async function readCurrent(backend: Backend, tenantId: string): Promise<CurrentSettings> {
  const stored = await guarded(backend, 'read settings', () => backend.documents.read(tenantId));
  if (!stored) return { settings: defaultSettings(), revision: 0, migrated: false };
  return { ...settingsOf(stored.doc, tenantId, backend.logger), revision: stored.revision };
}

/** A stored document as current settings: as they are, migrated from an older version, or defaults. */
function settingsOf(doc: string, tenantId: string, logger: Logger): Omit<CurrentSettings, 'revision'> {
  let value: unknown;
  try {
    value = JSON.parse(doc);
  } catch {
    logger.warn({ tenant: tenantId }, 'stored settings are not JSON; using defaults');
    return { settings: defaultSettings(), migrated: false };
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
    if (parsed.success) return { settings: parsed.data, migrated: false };
    logger.warn(
      { tenant: tenantId, problem: describeIssues(parsed.error) },
      'stored settings invalid; using defaults',
    );
    return { settings: defaultSettings(), migrated: false };
  }
  const migrated = migrateSettings(value);
  logger.info({ tenant: tenantId, from: version ?? 0, to: SETTINGS_VERSION }, 'migrated stored settings');
  return { settings: migrated, migrated: true };
}

/** The tenant's settings; migrated ones are written back, if nobody changed them meanwhile. */
async function getSettings(backend: Backend, tenantId: string): Promise<Settings> {
  checkTenantId(tenantId);
  const current = await readCurrent(backend, tenantId);
  if (current.migrated) {
    // Written back only if nobody changed it meanwhile; the next read migrates again otherwise.
    await backend.documents
      .write(tenantId, JSON.stringify(current.settings), current.revision)
      .catch((error: unknown) =>
        backend.logger.warn({ err: error, tenant: tenantId }, 'could not write migrated settings back'),
      );
  }
  return current.settings;
}

async function updateSettings(
  backend: Backend,
  tenantId: string,
  change: (current: Settings) => Settings,
): Promise<Settings> {
  checkTenantId(tenantId);
  return changeDocument(backend, tenantId, {
    read: () => readCurrent(backend, tenantId).then(({ settings: value, revision }) => ({ value, revision })),
    apply: (current) => validate(change(current)),
    saving: 'save settings',
    busy: `The settings of ${tenantId} kept changing under ${MAX_ATTEMPTS} attempts to save them.`,
  });
}

/** The settings store's logic (validation, migration, compare-and-set retries) over a backend. */
function tenantStoreOver(documents: DocumentStore, logger: Logger, where: string): TenantStore {
  const backend: Backend = { documents, logger, failure: (action, error) => failure(where, action, error) };
  return {
    get: (tenantId) => getSettings(backend, tenantId),
    update: (tenantId, change) => updateSettings(backend, tenantId, change),
    async save(tenantId, settings) {
      const checked = validate(settings);
      return updateSettings(backend, tenantId, () => checked);
    },
    async purge(tenantId) {
      checkTenantId(tenantId);
      await guarded(backend, 'purge a tenant', () => documents.remove(tenantId));
    },
    list: () => guarded(backend, 'list tenants', () => documents.ids()),
    close: () => documents.close(),
  };
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
  const backend = await openDocuments(store, where, options, 'tenants');
  return tenantStoreOver(backend, options.logger, where);
}
