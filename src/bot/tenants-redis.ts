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
 * docs/operations.md, "The settings store"). A restored document never replaces a newer one.
 *
 * The connection is retried forever with capped, jittered backoff. While Redis is away, calls fail at
 * once ("cannot be reached") instead of queueing, and each call has a deadline, so a command says
 * "settings are unavailable" within about a second and a half instead of hanging.
 */
import { createClient } from '@redis/client';
import { reconnectDelay } from '../core/redis-reconnect.ts';
import type { Logger } from './logger.ts';
import type { TenantStoreOptions } from './store-backend.ts';
import {
  classifyStoreError,
  type DocumentStore,
  type StoredDocument,
  StoreError,
  type StoreFailure,
} from './store-backend.ts';
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

type RedisClient = ReturnType<typeof newClient>;
type Namespace = 'settings' | 'users';

class DeadlineError extends Error {
  override name = 'TimeoutError';
}

/** Rejects with a `TimeoutError` when `promise` has not settled within `ms`. */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError('no answer in time')), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The keys of one namespace (`settings` or `users`). */
interface Keys {
  /** What each document's key starts with: `matchday:<namespace>:`, then the id. */
  prefix: string;
  /** The set listing every id. */
  index: string;
  /** The marker whose absence means Redis lost its data. */
  epoch: string;
  /** Tenant settings only: keys of earlier builds to move on recovery. */
  legacy: boolean;
  /** What the documents are, in the operator's messages. */
  what: 'tenants' | 'profiles';
}

function keysOf(namespace: Namespace): Keys {
  return {
    prefix: `matchday:${namespace}:`,
    index: `matchday:${namespace}-index`,
    epoch: `matchday:${namespace}-epoch`,
    legacy: namespace === 'settings',
    what: namespace === 'settings' ? 'tenants' : 'profiles',
  };
}

function newClient(url: string, timeoutMs: number) {
  return createClient({
    url,
    // Fail a call at once while disconnected instead of queueing it until Redis returns.
    disableOfflineQueue: true,
    socket: { connectTimeout: Math.max(timeoutMs, 1000), reconnectStrategy: reconnectDelay },
  });
}

/**
 * Connects, with the client retrying forever once connected; failing to connect at first stops
 * start-up with the cause and what to check. The client reports why a connection failed only on
 * its `error` event (its `connect()` keeps retrying), so the last such error names the cause; a
 * refused password or a failed TLS handshake does not mend by retrying and stops at once.
 */
async function connect(
  url: string,
  where: string,
  timeoutMs: number,
  watch: (client: RedisClient) => void,
): Promise<RedisClient> {
  const client = newClient(url, timeoutMs);
  let last: unknown;
  let lasting: (error: unknown) => void = () => {};
  const hopeless = new Promise<never>((_, reject) => {
    lasting = reject;
  });
  const onError = (error: unknown) => {
    last = error;
    const failure = classifyStoreError(error);
    if (failure === 'auth' || failure === 'tls') lasting(error);
  };
  client.on('error', onError);
  watch(client);
  try {
    await Promise.race([withDeadline(client.connect(), timeoutMs), hopeless]);
  } catch (error) {
    client.destroy();
    throw connectFailure(
      where,
      timeoutMs,
      error instanceof DeadlineError && last !== undefined ? last : error,
    );
  } finally {
    client.off('error', onError);
  }
  return client;
}

/** Why the first connection failed, for the operator: the cause named, and what to change. */
function connectFailure(where: string, timeoutMs: number, error: unknown): StoreError {
  const failure = classifyStoreError(error);
  const code = (error as { code?: unknown }).code;
  const detail = `${typeof code === 'string' ? `${code}: ` : ''}${firstLine(error)}`;
  const text: Partial<Record<StoreFailure, string>> = {
    auth: `Redis refused the password (${detail}). Check the password in STORE_URL (redis://:password@host:port; see .env.example)`,
    tls: `the TLS handshake failed (${detail}). A rediss:// URL needs a Redis that speaks TLS; for a plain one use redis:// in STORE_URL`,
    timeout: `no answer within ${timeoutMs} ms (${detail}). Check the host and port in STORE_URL (see .env.example) and that Redis is running`,
  };
  const reason =
    text[failure] ??
    (/ENOTFOUND|EAI_AGAIN/.test(detail)
      ? `the host name is not known (${detail}). Check the host in STORE_URL (see .env.example)`
      : /ECONNRESET|closed/i.test(detail)
        ? `the connection was closed during the handshake (${detail}). If the server expects TLS, use rediss:// in STORE_URL`
        : `${detail}. Check STORE_URL (see .env.example) and that Redis is running`);
  return new StoreError(
    `Cannot reach the settings store ${where}: ${reason}.`,
    failure === 'failed' ? 'unreachable' : failure,
    {
      cause: error,
    },
  );
}

/** The first line of an error's message (OpenSSL's carry file names and line numbers after it). */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.replace(/\.$/, '').trim();
}

/** Logs when Redis goes away and comes back; `onBack` runs on each return (Redis may have come back empty). */
function watchReachability(client: RedisClient, where: string, logger: Logger, onBack: () => void): void {
  let reachable = true;
  client.on('error', (error: unknown) => {
    if (reachable) logger.warn({ err: error, store: where }, 'settings store unreachable; reconnecting');
    reachable = false;
  });
  client.on('ready', () => {
    if (!reachable) {
      logger.info({ store: where }, 'settings store reachable again');
      reachable = true;
      onBack();
    }
  });
}

/** This process's SQLite copy of the documents it wrote or read, kept for a Redis that lost its data. */
interface Mirror {
  path: string;
  /** Copies a document unless the mirror holds this revision or a newer one. */
  keep(id: string, doc: string, revision: number): Promise<void>;
  /** Drops one document (purged here). */
  forget(id: string): Promise<void>;
  /** Drops every document Redis no longer lists (purged through another instance). */
  forgetAllBut(present: Set<string>): Promise<void>;
  all(): Promise<(StoredDocument & { id: string })[]>;
  close(): Promise<void>;
}

async function openMirror(path: string, keys: Keys, logger: Logger): Promise<Mirror | undefined> {
  let documents: SqliteDocuments;
  /** The revision of each document in the mirror, so unchanged documents are not rewritten. */
  const mirrored = new Map<string, number>();
  try {
    documents = await openSqliteDocuments(path, path, logger, keys.legacy ? 'tenants' : 'users');
    for (const row of await documents.all()) mirrored.set(row.id, row.revision);
  } catch (error) {
    // Settings still work without it; only recovery after a Redis data loss is lost.
    logger.warn(
      { err: error, mirror: path },
      'the settings mirror could not be opened; continuing without it',
    );
    return undefined;
  }
  return {
    path,
    async keep(id, doc, revision) {
      if ((mirrored.get(id) ?? 0) >= revision) return;
      try {
        await documents.keep(id, doc, revision);
        mirrored.set(id, revision);
      } catch (error) {
        logger.warn({ err: error, tenant: id }, 'could not copy settings to the mirror');
      }
    },
    async forget(id) {
      mirrored.delete(id);
      await documents
        .remove(id)
        .catch((error: unknown) => logger.warn({ err: error }, 'mirror: could not purge'));
    },
    async forgetAllBut(present) {
      for (const id of [...mirrored.keys()]) {
        if (present.has(id)) continue;
        mirrored.delete(id);
        await documents.remove(id).catch(() => undefined);
      }
    },
    all: () => documents.all(),
    close: () => documents.close(),
  };
}

/** Lists in the index every stored document, and drops from it every id without one. */
async function rebuildIndex(client: RedisClient, keys: Keys): Promise<void> {
  for await (const found of client.scanIterator({ MATCH: `${keys.prefix}*`, COUNT: 500 })) {
    const ids = found.map((k) => k.slice(keys.prefix.length));
    if (ids.length > 0) await client.sAdd(keys.index, ids);
  }
  for (const id of await client.sMembers(keys.index)) {
    if ((await client.exists(keys.prefix + id)) === 0) await client.sRem(keys.index, id);
  }
}

/** Moves the keys earlier builds wrote through keyv into this layout. */
async function moveLegacyKeys(client: RedisClient, keys: Keys): Promise<void> {
  for await (const found of client.scanIterator({ MATCH: LEGACY_PATTERN, COUNT: 500 })) {
    for (const key of found) {
      const id = key.slice('matchday::tenant:'.length, -':settings'.length);
      const value = (JSON.parse((await client.get(key)) ?? '{}') as { value?: unknown }).value;
      if (value) await restore(client, keys, id, JSON.stringify(value), 1);
      await client.del(key);
    }
  }
  await client.del(LEGACY_INDEX);
}

function restore(client: RedisClient, keys: Keys, id: string, doc: string, revision: number) {
  return client.eval(RESTORE_SCRIPT, {
    keys: [keys.prefix + id, keys.index],
    arguments: [doc, String(revision), id],
  });
}

/** Puts every mirrored document back (unless Redis holds a newer one); how many. */
async function restoreMirror(client: RedisClient, keys: Keys, mirror: Mirror): Promise<number> {
  let restored = 0;
  for (const row of await mirror.all()) {
    await restore(client, keys, row.id, row.doc, row.revision);
    restored++;
  }
  return restored;
}

/** What recovery needs beyond the client. */
interface Recovery {
  keys: Keys;
  mirror: Mirror | undefined;
  where: string;
  logger: Logger;
  options: RedisDocumentsOptions;
}

/** Rebuilds the index from the documents, moves legacy keys, restores from the mirror; sets the marker. */
async function recover(
  client: RedisClient,
  { keys, mirror, where, logger, options }: Recovery,
): Promise<void> {
  const lost = (await client.exists(keys.epoch)) === 0;
  await rebuildIndex(client, keys);
  if (keys.legacy) await moveLegacyKeys(client, keys);
  const restored = lost && mirror ? await restoreMirror(client, keys, mirror) : 0;
  await client.set(keys.epoch, new Date().toISOString(), { condition: 'NX' });
  if (!lost) return;
  const { what } = keys;
  const mirrorPath = options.mirrorPath || DEFAULT_MIRROR_PATH;
  // Documented (docs/operations.md, "The settings store"; SETTINGS_MIRROR): a restore is never silent.
  if (restored > 0) {
    logger.warn(
      { store: where, restored, mirror: mirrorPath },
      `restored ${restored} ${what} from the mirror ${mirrorPath}: Redis had lost its data (SETTINGS_MIRROR=off starts empty instead)`,
    );
    options.onRestore?.(
      `Restored ${restored} ${what} from the mirror ${mirrorPath}: Redis had lost its data (set SETTINGS_MIRROR=off to start empty instead).`,
    );
  } else if (options.mirrorPath === false)
    logger.info(
      { store: where },
      `the settings store has no ${what} marker (new or emptied Redis); the mirror is off (SETTINGS_MIRROR=off), nothing restored`,
    );
}

/** `namespace`: `settings` (tenants, the default) or `users` (personal profiles, src/bot/users.ts). */
type RedisDocumentsOptions = TenantStoreOptions & { namespace?: Namespace };

/** The documents of one namespace: each call one script, with a deadline, checked for a lost Redis. */
class RedisDocuments implements DocumentStore {
  #recovering: Promise<void> | undefined;

  constructor(
    private readonly client: RedisClient,
    private readonly recovery: Recovery,
    private readonly timeoutMs: number,
  ) {}

  /** Checks the store and recovers what a lost Redis dropped; one run at a time. */
  recover(): Promise<void> {
    this.#recovering ??= recover(this.client, this.recovery).finally(() => {
      this.#recovering = undefined;
    });
    return this.#recovering;
  }

  async read(tenantId: string): Promise<StoredDocument | undefined> {
    const { prefix, epoch } = this.recovery.keys;
    const reply = (await this.#checked(() => this.#eval(READ_SCRIPT, [prefix + tenantId, epoch], []))) as
      | [string | null, string | null]
      | number;
    if (typeof reply === 'number' || reply[0] === null) return undefined;
    const stored = { doc: reply[0], revision: Number(reply[1] ?? 1) };
    await this.recovery.mirror?.keep(tenantId, stored.doc, stored.revision);
    return stored;
  }

  async write(tenantId: string, doc: string, revision: number): Promise<number | undefined> {
    const { prefix, index, epoch } = this.recovery.keys;
    const reply = Number(
      await this.#checked(async () =>
        Number(await this.#eval(WRITE_SCRIPT, [prefix + tenantId, index, epoch], [revision, doc, tenantId])),
      ),
    );
    if (reply < 0) return undefined;
    await this.recovery.mirror?.keep(tenantId, doc, reply);
    return reply;
  }

  async remove(tenantId: string): Promise<void> {
    const { prefix, index } = this.recovery.keys;
    await this.#eval(REMOVE_SCRIPT, [prefix + tenantId, index], [tenantId]);
    await this.recovery.mirror?.forget(tenantId);
  }

  async ids(): Promise<string[]> {
    const { index, epoch } = this.recovery.keys;
    const reply = (await this.#checked(() => this.#eval(IDS_SCRIPT, [index, epoch], []))) as
      | string[]
      | number;
    const ids = typeof reply === 'number' ? [] : [...reply].sort();
    // A tenant purged through another instance leaves this mirror too (it must not come back on a restore).
    await this.recovery.mirror?.forgetAllBut(new Set(ids));
    return ids;
  }

  async close(): Promise<void> {
    const { client } = this;
    if (client.isReady) await this.#deadline(client.close()).catch(() => client.destroy());
    else if (client.isOpen) client.destroy();
    await this.recovery.mirror?.close();
  }

  #deadline<T>(promise: Promise<T>): Promise<T> {
    return withDeadline(promise, this.timeoutMs);
  }

  #eval(script: string, keys: string[], args: (string | number)[]) {
    return this.#deadline(this.client.eval(script, { keys, arguments: args.map(String) }));
  }

  /** Runs a script that answers -2 when the marker is gone; recovers once and runs it again. */
  async #checked<T>(run: () => Promise<T>): Promise<T> {
    const first = await run();
    if (first !== LOST) return first;
    await this.#deadline(this.recover());
    const again = await run();
    if (again === LOST)
      throw new StoreError('The settings store lost its data and could not be recovered.', 'failed');
    return again;
  }
}

/**
 * Connects to Redis, opens the mirror (unless `mirrorPath` is false) and checks the store once; a
 * failed check is retried on use.
 */
export async function openRedisDocuments(
  url: string,
  where: string,
  options: RedisDocumentsOptions,
): Promise<DocumentStore> {
  const { logger } = options;
  const keys = keysOf(options.namespace ?? 'settings');
  const timeoutMs = options.timeoutMs ?? 1500;
  let documents: RedisDocuments | undefined;
  const client = await connect(url, where, timeoutMs, (client) =>
    watchReachability(client, where, logger, () =>
      documents
        ?.recover()
        .catch((error: unknown) => logger.warn({ err: error }, 'settings store recovery failed')),
    ),
  );
  const mirror =
    options.mirrorPath === false
      ? undefined
      : await openMirror(options.mirrorPath || DEFAULT_MIRROR_PATH, keys, logger);
  documents = new RedisDocuments(client, { keys, mirror, where, logger, options }, timeoutMs);
  try {
    await withDeadline(documents.recover(), timeoutMs);
  } catch (error) {
    logger.warn({ err: error, store: where }, 'could not check the settings store on start; retrying on use');
  }
  return documents;
}
