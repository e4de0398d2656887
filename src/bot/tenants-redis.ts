/**
 * Tenant settings in Redis (@redis/client), for several instances sharing one store. Each tenant is a
 * hash `matchday:settings:<tenant>` = `{ doc, revision }`; the set `matchday:settings-index` lists
 * them. Every write is one Lua script that compares the revision, stores the document and adds the
 * tenant to the set, so the set can never miss a stored tenant; on start and after every reconnect
 * the set is rebuilt from the documents.
 *
 * Losing Redis's data (a restart without persistence) is detected by a marker key,
 * `matchday:settings-epoch`, that every call checks in the same script. When it is gone, this process
 * restores the documents from its mirror: a SQLite copy of every document it wrote or read (see
 * README "Settings store"). A restored document never replaces a newer one.
 *
 * The connection is retried forever with capped, jittered backoff. While Redis is away, calls fail at
 * once ("cannot be reached") instead of queueing, and each call has a deadline, so a command says
 * "settings are unavailable" within about a second and a half instead of hanging.
 */
import { createClient } from '@redis/client';
import { reconnectDelay } from '../core/redis-reconnect.ts';
import { type DocumentStore, StoreError } from './store-backend.ts';
import type { TenantStoreOptions } from './tenants.ts';
import { openSqliteDocuments, type SqliteDocuments } from './tenants-sqlite.ts';

/** Keys written by earlier builds through keyv (`namespace: 'matchday'`), moved on recovery. */
const LEGACY_PATTERN = 'matchday::tenant:*:settings';
const LEGACY_INDEX = 'matchday::index:tenants';
const DEFAULT_MIRROR_PATH = './data/settings-mirror.sqlite';

/** -2: the epoch marker is gone (Redis lost its data). -1: the revision changed (conflict). */
const WRITE_SCRIPT = `if redis.call('EXISTS', KEYS[3]) == 0 then return -2 end
local rev = tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')
if rev ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'revision', rev + 1)
redis.call('SADD', KEYS[2], ARGV[3])
return rev + 1`;
const READ_SCRIPT = `if redis.call('EXISTS', KEYS[2]) == 0 then return -2 end
return redis.call('HMGET', KEYS[1], 'doc', 'revision')`;
const IDS_SCRIPT = `if redis.call('EXISTS', KEYS[2]) == 0 then return -2 end
return redis.call('SMEMBERS', KEYS[1])`;
const REMOVE_SCRIPT = `redis.call('DEL', KEYS[1]) redis.call('SREM', KEYS[2], ARGV[1]) return 1`;
/** Puts back a document unless a newer revision is stored; lists the tenant. */
const RESTORE_SCRIPT = `local rev = tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')
if rev < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'revision', ARGV[2]) end
redis.call('SADD', KEYS[2], ARGV[3])
return 1`;

const LOST = -2;

class DeadlineError extends Error {
  override name = 'TimeoutError';
}

export async function openRedisDocuments(
  url: string,
  where: string,
  /** `namespace`: `settings` (tenants, the default) or `users` (personal profiles, issue 16). */
  options: TenantStoreOptions & { namespace?: 'settings' | 'users' },
): Promise<DocumentStore> {
  const { logger } = options;
  const namespace = options.namespace ?? 'settings';
  const DOC_PREFIX = `matchday:${namespace}:`;
  const INDEX_KEY = `matchday:${namespace}-index`;
  const EPOCH_KEY = `matchday:${namespace}-epoch`;
  const legacy = namespace === 'settings';
  const timeoutMs = options.timeoutMs ?? 1500;
  const client = createClient({
    url,
    // Fail a call at once while disconnected instead of queueing it until Redis returns.
    disableOfflineQueue: true,
    socket: { connectTimeout: Math.max(timeoutMs, 1000), reconnectStrategy: reconnectDelay },
  });

  let reachable = true;
  client.on('error', (error: unknown) => {
    if (reachable) logger.warn({ err: error, store: where }, 'settings store unreachable; reconnecting');
    reachable = false;
  });
  client.on('ready', () => {
    if (!reachable) {
      logger.info({ store: where }, 'settings store reachable again');
      reachable = true;
      // Redis may have come back empty (restarted without persistence): check and recover at once.
      recover().catch((error: unknown) => logger.warn({ err: error }, 'settings store recovery failed'));
    }
  });

  async function deadline<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError('no answer in time')), timeoutMs);
    });
    try {
      return await Promise.race([promise, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  const evalScript = (script: string, keys: string[], args: (string | number)[]) =>
    deadline(client.eval(script, { keys, arguments: args.map(String) }));

  try {
    await deadline(client.connect());
  } catch (error) {
    client.destroy();
    throw new StoreError(
      `Cannot reach the settings store ${where}: ${(error as Error).message.replace(/\.$/, '')}. Check STORE_URL (see .env.example) and that Redis is running.`,
      'unreachable',
      { cause: error },
    );
  }

  let mirror: SqliteDocuments | undefined;
  /** The revision of each document in the mirror, so unchanged documents are not rewritten. */
  const mirrored = new Map<string, number>();
  const mirrorPath = options.mirrorPath || DEFAULT_MIRROR_PATH;
  const what = namespace === 'settings' ? 'tenants' : 'profiles';
  if (options.mirrorPath !== false) {
    const path = mirrorPath;
    try {
      mirror = await openSqliteDocuments(path, path, logger, legacy ? 'tenants' : 'users');
      for (const row of await mirror.all()) mirrored.set(row.id, row.revision);
    } catch (error) {
      // Settings still work without it; only recovery after a Redis data loss is lost.
      logger.warn(
        { err: error, mirror: path },
        'the settings mirror could not be opened; continuing without it',
      );
      mirror = undefined;
    }
  }

  async function keep(tenantId: string, doc: string, revision: number): Promise<void> {
    if (!mirror || (mirrored.get(tenantId) ?? 0) >= revision) return;
    try {
      await mirror.keep(tenantId, doc, revision);
      mirrored.set(tenantId, revision);
    } catch (error) {
      logger.warn({ err: error, tenant: tenantId }, 'could not copy settings to the mirror');
    }
  }

  let recovering: Promise<void> | undefined;
  /** Rebuilds the index from the documents, restores from the mirror, moves legacy keys; sets the marker. */
  function recover(): Promise<void> {
    recovering ??= (async () => {
      const lost = (await client.exists(EPOCH_KEY)) === 0;
      let restored = 0;
      for await (const keys of client.scanIterator({ MATCH: `${DOC_PREFIX}*`, COUNT: 500 })) {
        const ids = keys.map((k) => k.slice(DOC_PREFIX.length));
        if (ids.length > 0) await client.sAdd(INDEX_KEY, ids);
      }
      for (const id of await client.sMembers(INDEX_KEY)) {
        if ((await client.exists(DOC_PREFIX + id)) === 0) await client.sRem(INDEX_KEY, id);
      }
      const legacyKeys = legacy ? client.scanIterator({ MATCH: LEGACY_PATTERN, COUNT: 500 }) : [];
      for await (const keys of legacyKeys) {
        for (const key of keys) {
          const id = key.slice('matchday::tenant:'.length, -':settings'.length);
          const value = (JSON.parse((await client.get(key)) ?? '{}') as { value?: unknown }).value;
          if (value)
            await client.eval(RESTORE_SCRIPT, {
              keys: [DOC_PREFIX + id, INDEX_KEY],
              arguments: [JSON.stringify(value), '1', id],
            });
          await client.del(key);
        }
      }
      if (legacy) await client.del(LEGACY_INDEX);
      if (lost && mirror) {
        for (const row of await mirror.all()) {
          await client.eval(RESTORE_SCRIPT, {
            keys: [DOC_PREFIX + row.id, INDEX_KEY],
            arguments: [row.doc, String(row.revision), row.id],
          });
          restored++;
        }
      }
      await client.set(EPOCH_KEY, new Date().toISOString(), { condition: 'NX' });
      // Documented (README "Settings store", SETTINGS_MIRROR): a restore is never silent.
      if (lost && restored > 0) {
        logger.warn(
          { store: where, restored, mirror: mirrorPath },
          `restored ${restored} ${what} from the mirror ${mirrorPath}: Redis had lost its data (SETTINGS_MIRROR=off starts empty instead)`,
        );
        options.onRestore?.(
          `Restored ${restored} ${what} from the mirror ${mirrorPath}: Redis had lost its data (set SETTINGS_MIRROR=off to start empty instead).`,
        );
      } else if (lost && options.mirrorPath === false)
        logger.info(
          { store: where },
          `the settings store has no ${what} marker (new or emptied Redis); the mirror is off (SETTINGS_MIRROR=off), nothing restored`,
        );
    })().finally(() => {
      recovering = undefined;
    });
    return recovering;
  }

  /** Runs a script that answers -2 when the marker is gone; recovers once and runs it again. */
  async function checked<T>(run: () => Promise<T>): Promise<T> {
    const first = await run();
    if (first !== LOST) return first;
    await deadline(recover());
    const again = await run();
    if (again === LOST)
      throw new StoreError('The settings store lost its data and could not be recovered.', 'failed');
    return again;
  }

  try {
    await deadline(recover());
  } catch (error) {
    logger.warn({ err: error, store: where }, 'could not check the settings store on start; retrying on use');
  }

  return {
    async read(tenantId) {
      const reply = (await checked(() => evalScript(READ_SCRIPT, [DOC_PREFIX + tenantId, EPOCH_KEY], []))) as
        | [string | null, string | null]
        | number;
      if (typeof reply === 'number' || reply[0] === null) return undefined;
      const stored = { doc: reply[0], revision: Number(reply[1] ?? 1) };
      await keep(tenantId, stored.doc, stored.revision);
      return stored;
    },
    async write(tenantId, doc, revision) {
      const reply = Number(
        await checked(async () =>
          Number(
            await evalScript(
              WRITE_SCRIPT,
              [DOC_PREFIX + tenantId, INDEX_KEY, EPOCH_KEY],
              [revision, doc, tenantId],
            ),
          ),
        ),
      );
      if (reply < 0) return undefined;
      await keep(tenantId, doc, reply);
      return reply;
    },
    async remove(tenantId) {
      await evalScript(REMOVE_SCRIPT, [DOC_PREFIX + tenantId, INDEX_KEY], [tenantId]);
      mirrored.delete(tenantId);
      await mirror
        ?.remove(tenantId)
        .catch((error: unknown) => logger.warn({ err: error }, 'mirror: could not purge'));
    },
    async ids() {
      const reply = (await checked(() => evalScript(IDS_SCRIPT, [INDEX_KEY, EPOCH_KEY], []))) as
        | string[]
        | number;
      const ids = typeof reply === 'number' ? [] : [...reply].sort();
      // A tenant purged through another instance leaves this mirror too (it must not come back on a restore).
      const present = new Set(ids);
      for (const id of [...mirrored.keys()]) {
        if (present.has(id)) continue;
        mirrored.delete(id);
        await mirror?.remove(id).catch(() => undefined);
      }
      return ids;
    },
    async close() {
      if (client.isReady) await deadline(client.close()).catch(() => client.destroy());
      else if (client.isOpen) client.destroy();
      await mirror?.close();
    },
  };
}
