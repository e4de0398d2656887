/**
 * Where each tenant's settings live: keyv on SQLite (default `./data/matchday.sqlite`) or Redis,
 * chosen by `STORE_URL`. A tenant is `<platform>:<guild or workspace id>`; its keys live under its
 * own prefix (`tenant:<id>:`), so one tenant's data can be read, written and purged without touching
 * another's. An index document lists every tenant that has saved settings, for the notifier.
 *
 * Store failures surface as `StoreError` with a message a person can act on; they never crash the
 * process (keyv's error events are caught and logged).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { z } from 'zod';
import { type Config, safeUrl } from '../config.ts';
import { UserError } from './command.ts';
import type { Logger } from './logger.ts';
import {
  defaultSettings,
  migrateSettings,
  SETTINGS_VERSION,
  type Settings,
  settingsSchema,
} from './settings.ts';

/** The settings store could not be read or written. */
export class StoreError extends Error {
  override name = 'StoreError';
  readonly code = 'STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface TenantStore {
  /** The tenant's settings: defaults when it is new; older documents are migrated (and rewritten). */
  get(tenantId: string): Promise<Settings>;
  /** Validates and stores the settings; returns what was stored. Invalid settings: `UserError`. */
  save(tenantId: string, settings: Settings): Promise<Settings>;
  /** Removes everything stored for the tenant (left the guild, uninstalled). */
  purge(tenantId: string): Promise<void>;
  /** Every tenant id that has saved settings. */
  list(): Promise<string[]>;
  close(): Promise<void>;
}

const TENANT_ID = /^(discord|slack|terminal):[A-Za-z0-9_.-]{1,64}$/;
const INDEX_KEY = 'index:tenants';

function settingsKey(tenantId: string): string {
  if (!TENANT_ID.test(tenantId)) {
    throw new UserError(
      'BAD_TENANT',
      `"${tenantId.slice(0, 80)}" is not a tenant id; expected <platform>:<id>, e.g. discord:1234.`,
    );
  }
  return `tenant:${tenantId}:settings`;
}

/** Says which field is wrong and what would be right, from a zod error. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`)
    .join('; ');
}

export interface TenantStoreOptions {
  logger: Logger;
  /** How long to wait for the store to answer when opening it. */
  connectTimeoutMs?: number;
}

/**
 * Opens the store named by `store` (from the config) and checks that it answers, so a wrong path or
 * an unreachable Redis stops start-up with a clear message instead of failing the first command.
 */
export async function openTenantStore(
  store: Config['store'],
  options: TenantStoreOptions,
): Promise<TenantStore> {
  const { logger } = options;
  const where = safeUrl(store.url);
  let keyv: Keyv;
  let redis: KeyvRedis<unknown> | undefined;
  if (store.kind === 'sqlite') {
    if (store.path !== ':memory:') {
      try {
        mkdirSync(dirname(store.path), { recursive: true });
      } catch (error) {
        throw new StoreError(
          `Cannot create the folder for the settings store ${where}: ${(error as Error).message}. Check STORE_URL.`,
        );
      }
    }
    keyv = new Keyv({ store: new KeyvSqlite({ uri: store.url, busyTimeout: 5000 }), namespace: 'matchday' });
  } else {
    redis = new KeyvRedis(store.url, {
      namespace: 'matchday',
      connectionTimeout: options.connectTimeoutMs ?? 3000,
      throwOnConnectError: true,
      throwOnErrors: true,
    });
    keyv = new Keyv(redis, { namespace: 'matchday', useKeyPrefix: false });
  }
  keyv.throwOnErrors = true;
  // Without a listener an 'error' event would crash the process; the failing call throws anyway.
  keyv.on('error', (error: unknown) => logger.debug({ err: error, store: where }, 'settings store error'));

  const fail = (action: string, error: unknown): StoreError => {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    return new StoreError(`The settings store (${where}) failed to ${action}: ${reason}`, { cause: error });
  };

  async function withTimeout<T>(promise: Promise<T>, action: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer in time')), options.connectTimeoutMs ?? 3000);
    });
    try {
      return await Promise.race([promise, timeout]);
    } catch (error) {
      throw fail(action, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes gracefully when connected; a Redis client still trying to connect is destroyed outright. */
  async function close(): Promise<void> {
    const client = redis?.client as { isOpen?: boolean; isReady?: boolean; destroy?: () => void } | undefined;
    if (client && !client.isReady) {
      if (client.isOpen) client.destroy?.();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        keyv.disconnect(),
        new Promise((resolve) => {
          timer = setTimeout(resolve, 2000);
        }),
      ]);
    } catch (error) {
      logger.debug({ err: error }, 'closing the settings store');
    } finally {
      clearTimeout(timer);
    }
  }

  try {
    await withTimeout(keyv.get(INDEX_KEY), 'open');
  } catch (error) {
    await close();
    throw new StoreError(`${(error as Error).message}. Check STORE_URL (see .env.example).`, {
      cause: error,
    });
  }

  // Index updates are read-modify-write: serialise them within this process.
  let indexChain: Promise<unknown> = Promise.resolve();
  function updateIndex(change: (ids: Set<string>) => boolean): Promise<void> {
    const next = indexChain.then(async () => {
      const ids = new Set<string>(((await keyv.get(INDEX_KEY)) as string[] | undefined) ?? []);
      if (change(ids)) await keyv.set(INDEX_KEY, [...ids].sort());
    });
    indexChain = next.catch(() => undefined);
    return next;
  }
  const known = new Set<string>();

  return {
    async get(tenantId) {
      const key = settingsKey(tenantId);
      let stored: unknown;
      try {
        stored = await keyv.get(key);
      } catch (error) {
        throw fail('read settings', error);
      }
      if (stored === undefined || stored === null) return defaultSettings();
      const version = (stored as { version?: unknown }).version;
      if (typeof version === 'number' && version > SETTINGS_VERSION) {
        throw new StoreError(
          `The settings of ${tenantId} were written by a newer Matchday (settings version ${version}; this one knows ${SETTINGS_VERSION}). Upgrade Matchday.`,
        );
      }
      if (version === SETTINGS_VERSION) {
        const parsed = settingsSchema.safeParse(stored);
        if (parsed.success) return parsed.data;
        logger.warn(
          { tenant: tenantId, problem: describeIssues(parsed.error) },
          'stored settings invalid; using defaults',
        );
        return defaultSettings();
      }
      const migrated = migrateSettings(stored);
      logger.info({ tenant: tenantId, from: version ?? 0, to: SETTINGS_VERSION }, 'migrated stored settings');
      try {
        await keyv.set(key, migrated);
      } catch (error) {
        // The migrated settings are still good for this call; the next read migrates again.
        logger.warn({ err: error, tenant: tenantId }, 'could not write migrated settings back');
      }
      return migrated;
    },

    async save(tenantId, settings) {
      const key = settingsKey(tenantId);
      const parsed = settingsSchema.safeParse(settings);
      if (!parsed.success) {
        throw new UserError(
          'INVALID_SETTINGS',
          `Those settings are not valid: ${describeIssues(parsed.error)}.`,
        );
      }
      try {
        await keyv.set(key, parsed.data);
        if (!known.has(tenantId)) {
          await updateIndex((ids) => !ids.has(tenantId) && ids.add(tenantId) !== undefined);
          known.add(tenantId);
        }
      } catch (error) {
        throw fail('save settings', error);
      }
      return parsed.data;
    },

    async purge(tenantId) {
      const key = settingsKey(tenantId);
      try {
        await keyv.delete(key);
        await updateIndex((ids) => ids.delete(tenantId));
        known.delete(tenantId);
      } catch (error) {
        throw fail('purge a tenant', error);
      }
    },

    async list() {
      try {
        return ((await keyv.get(INDEX_KEY)) as string[] | undefined) ?? [];
      } catch (error) {
        throw fail('list tenants', error);
      }
    },

    close,
  };
}
