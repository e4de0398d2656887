/**
 * The one lease of the store layer: a named right to do some work (run the notifier, refresh a
 * shared document) that one owner holds at a time, for a while, among every process on one store.
 *
 * - `acquire` takes a free or expired lease, or renews the caller's own. A new term gets a fencing
 *   token greater than every token the lease ever had (kept in the store, so it only grows, even
 *   across releases and restarts of the processes); a renewal keeps its term's token.
 * - `release` gives the lease back only when the caller still holds it.
 * - `holder` reads who holds it and until when.
 *
 * Backends: Redis (`src/stores/lease-redis.ts`, a key per lease and a counter beside it, changed by
 * Lua scripts) and SQLite (`src/stores/lease-sqlite.ts`, a table in the file whose work it guards,
 * changed in short `BEGIN IMMEDIATE` transactions). Expiry is in real milliseconds: processes share
 * real time, not a simulated clock. The contract both keep is test/stores/lease.test.ts; the backend
 * a configuration names is opened by src/stores/open-lease.ts.
 */

/** Who holds a lease, with which token, and until when (epoch ms). */
export interface LeaseHolder {
  owner: string;
  token: number;
  expiresAt: number;
}

export interface Lease {
  /**
   * Takes lease `name` for `ttlMs` when nobody holds it (or its holder's time ran out), or renews it
   * when `owner` holds it. Returns the term's fencing token (> 0), or 0 when another owner holds it.
   */
  acquire(name: string, owner: string, ttlMs: number): Promise<number>;
  /** Gives lease `name` back if `owner` still holds it; true when it did. */
  release(name: string, owner: string): Promise<boolean>;
  /** Who holds lease `name` now, or undefined when nobody does. */
  holder(name: string): Promise<LeaseHolder | undefined>;
  /** Resolves once the store can be used; rejects with its failure (an unreachable Redis, a damaged file). */
  open(): Promise<void>;
  /** Calls `listener` each time the store's connection comes back after an outage (Redis only). */
  onReconnect?(listener: () => void): void;
  close(): Promise<void>;
}
