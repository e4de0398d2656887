/**
 * Opens the store layer's lease (src/stores/lease.ts) on the backend the configuration names, loading
 * only that backend's driver.
 */
import type { Lease } from './lease.ts';

/** Where the leases live: the Redis of the store, or a SQLite file (`:memory:` for one process). */
export type LeaseStoreConfig = { kind: 'redis'; url: string } | { kind: 'sqlite'; path: string };

/** Opens the lease backend for `store` (loads only that backend's driver). */
export async function openLease(store: LeaseStoreConfig): Promise<Lease> {
  if (store.kind === 'redis') {
    const { RedisLease } = await import('./lease-redis.ts');
    return new RedisLease(store.url);
  }
  const { SqliteLease } = await import('./lease-sqlite.ts');
  return new SqliteLease(store.path);
}
