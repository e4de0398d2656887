/**
 * Starting warm and sharing one refresher: the snapshot store beside the tenant store, and the name
 * index kept in it (`names`) with its age. A process loads the stored index instead of reloading
 * it (52 requests); only the holder of the `names` lease refreshes it (every 10 minutes, and the
 * series offered to autocomplete every minute) and writes it back; the others load what it wrote.
 */
import { dirname, join } from 'node:path';
import type { NameSnapshot } from '../bot/name-load.ts';
import type { NameIndex } from '../bot/names.ts';
import { stoppedByClose } from '../client/errors.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../core/clock.ts';
import { RedisSnapshotStore, type SnapshotStore, SqliteSnapshotStore } from './store.ts';

const NAMES_KEY = 'names';
const NAMES_LEASE = 'names-lease';
/** How often the index is reloaded whole, and how often its series are. */
export const NAMES_REFRESH_MS = 10 * 60_000;
const NAMES_SERIES_MS = 60_000;

interface WarmLogger {
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

/** Warns of a failed background step, unless Matchday is stopping (the client closed under it). */
function warnUnlessStopping(logger: WarmLogger | undefined, error: unknown, message: string): void {
  if (!stoppedByClose(error)) logger?.warn({ err: error }, message);
}

/** The snapshot store of a configuration: `feed.sqlite` beside the SQLite store, or the same Redis. */
export function openSnapshotStore(store: Config['store']): SnapshotStore {
  if (store.kind === 'redis') return new RedisSnapshotStore(store.url);
  return new SqliteSnapshotStore(
    store.path === ':memory:' ? ':memory:' : join(dirname(store.path), 'feed.sqlite'),
  );
}

/** Loads the stored name index when it is newer than the one in memory; true when it did. */
async function loadNames(names: NameIndex, store: SnapshotStore, logger?: WarmLogger): Promise<boolean> {
  try {
    const doc = await store.read(NAMES_KEY, names.lastRefresh?.getTime() ?? Number.NEGATIVE_INFINITY);
    if (!doc) return false;
    names.restore(JSON.parse(doc.value) as NameSnapshot);
    return true;
  } catch (error) {
    logger?.warn({ err: error }, 'the stored name index could not be read');
    return false;
  }
}

/**
 * Refreshes the index and writes it to the store, if this process holds (or takes) the `names`
 * lease; otherwise loads what the holder wrote. `whole: false` reloads only the series window.
 */
async function refreshNamesShared(
  names: NameIndex,
  store: SnapshotStore,
  owner: string,
  options: { whole?: boolean; logger?: WarmLogger } = {},
): Promise<void> {
  const held = await store.lease(NAMES_LEASE, owner, 5 * 60_000).catch(() => false);
  if (!held) {
    await loadNames(names, store, options.logger);
    return;
  }
  if (options.whole === false && names.loaded) await names.refreshSeries();
  else await names.refresh();
  const snapshot = names.snapshot();
  await store.write(NAMES_KEY, { at: snapshot.at, value: JSON.stringify(snapshot) });
}

/**
 * Gets the index ready: from the store when a stored copy is younger than `maxAgeMs` (no request),
 * else by a refresh (awaited only when nothing was stored; a stale copy serves meanwhile).
 */
export async function warmNames(
  names: NameIndex,
  store: SnapshotStore,
  clock: Clock,
  owner: string,
  options: { maxAgeMs: number; logger?: WarmLogger; waitForFirst?: boolean },
): Promise<{ refreshing?: Promise<void> }> {
  const loaded = await loadNames(names, store, options.logger);
  const age = clock.nowMs() - (names.lastRefresh?.getTime() ?? Number.NEGATIVE_INFINITY);
  if (loaded && age < options.maxAgeMs) return {};
  const refreshing = refreshNamesShared(names, store, owner, options).catch((error: unknown) =>
    warnUnlessStopping(options.logger, error, 'the name index could not be refreshed; retrying later'),
  );
  // A first load is waited for unless the caller looks names up as they are asked (`matchday ask`).
  if (!loaded && options.waitForFirst !== false) await refreshing;
  return { refreshing };
}

/**
 * Every player in one listing walk (about 25 requests at scale 1, in the background; again when
 * half an hour old): a team page then reads its players from the index instead of one request per
 * team. A walk that fails (the budget went to users) is tried again at the next minute.
 */
export function warmPlayers(names: NameIndex, logger?: WarmLogger): void {
  names
    .ensurePlayers('background')
    .catch((error: unknown) =>
      warnUnlessStopping(logger, error, 'the players could not be loaded; team pages read them per team'),
    );
}

/** Keeps the index (and its players) fresh and shared until the returned stop function is called. */
export function keepNamesShared(
  names: NameIndex,
  store: SnapshotStore,
  clock: Clock,
  owner: string,
  logger?: WarmLogger,
): () => void {
  let busy = false;
  warmPlayers(names, logger);
  const timer = setInterval(() => {
    warmPlayers(names, logger);
    if (busy) return;
    busy = true;
    const whole = clock.nowMs() - (names.lastRefresh?.getTime() ?? 0) >= NAMES_REFRESH_MS;
    refreshNamesShared(names, store, owner, { whole, ...(logger ? { logger } : {}) })
      .catch((error: unknown) =>
        warnUnlessStopping(logger, error, 'name index refresh failed; the old one serves'),
      )
      .finally(() => {
        busy = false;
      });
  }, NAMES_SERIES_MS);
  timer.unref();
  return () => clearInterval(timer);
}
