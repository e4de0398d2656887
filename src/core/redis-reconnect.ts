/**
 * How every Redis client of Matchday reconnects (settings, ledger, notifier lease, feed, rate
 * budget): forever, with capped, jittered backoff.
 */

/** The longest wait between two reconnect attempts. */
const RECONNECT_CAP_MS = 2000;

/**
 * Milliseconds before reconnect attempt `retries` of every Redis client (settings, ledger, notifier
 * lease, feed, rate budget): 100 ms doubling to 2 s, jittered (half to all of it); never gives up.
 * The cap is what a long outage costs after Redis is back: each client may wait that long before its
 * next attempt (it was 5 s; the notifier should post again within 10 s of Redis returning, as
 * `npm run bench:store-outage` measures). 2 s is @redis/client's own default cap; a refused loopback
 * connection costs Redis nothing.
 */
export function reconnectDelay(retries: number): number {
  return Math.round(Math.min(RECONNECT_CAP_MS, 100 * 2 ** Math.min(retries, 5)) * (0.5 + Math.random() / 2));
}
