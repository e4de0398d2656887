/**
 * What the store caches (the feed's snapshot, the name index, their leases) belongs to the world it
 * was read from: the service's URL and interface, or the embedded world's seed. `worldScoped` keys
 * every document by that world, so a process pointed at another world (another `ESPORTS_SEED`, the
 * real service instead of the embedded one) starts afresh instead of mixing two worlds' teams and
 * series; `enterWorld` says so in one log line. Settings, follows and the delivery ledger are the
 * user's, kept in their own stores, and are not touched.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';
import type { SnapshotStore, StoredDocument } from './store.ts';

/** The unscoped document that names the world this store last served. */
const WORLD_KEY = 'world';

/** A readable name of the world a configuration reads (never a secret). */
export function worldOf(esports: Config['esports']): string {
  const api = esports.api ?? 'v3';
  if (!esports.url) return `the embedded world, seed ${esports.seed} (${api})`;
  let where = esports.url;
  try {
    const url = new URL(esports.url);
    where = `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    // config.ts checked the URL; keep it as it is
  }
  return `${where} (${api})`;
}

/** The store's documents and leases of one world: the same store, keys prefixed by the world. */
export function worldScoped(store: SnapshotStore, world: string): SnapshotStore {
  const tag = createHash('sha256').update(world).digest('hex').slice(0, 12);
  const key = (k: string) => `${tag}/${k}`;
  return {
    read: (k, newerThan) => store.read(key(k), newerThan),
    write: (k, document) => store.write(key(k), document),
    lease: (k, owner, ms) => store.lease(key(k), owner, ms),
    release: (k, owner) => store.release(key(k), owner),
    close: () => store.close(),
  };
}

/**
 * Records that `store` now serves `world`; when it served another, logs once that the cached names
 * and snapshot start afresh, and why.
 */
export async function enterWorld(
  store: SnapshotStore,
  world: string,
  at: number,
  logger?: { info?(obj: object, msg?: string): void; warn(obj: object, msg?: string): void },
): Promise<void> {
  try {
    const before = await store.read(WORLD_KEY);
    if (before?.value === world) return;
    if (before)
      logger?.info?.(
        { from: before.value, to: world },
        `the stored names and schedule were read from ${before.value}; this process reads ${world}, so they start afresh (settings, follows and deliveries are kept)`,
      );
    const document: StoredDocument = { at: Math.max(at, before ? before.at + 1 : at), value: world };
    await store.write(WORLD_KEY, document);
  } catch (error) {
    logger?.warn({ err: error }, 'the store could not record which world it serves');
  }
}
