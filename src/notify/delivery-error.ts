/**
 * How a delivery (src/notify/delivery.ts) says that a post or an edit failed, and whether retrying
 * can mend it: the notifier, the scheduled-events mirror and every platform's delivery share it.
 */

/**
 * A failed post or edit. `permanent` failures (missing permission, unknown or archived channel)
 * disable the subscription; `transient` ones are retried with backoff, after `retryAfterMs` if given.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    readonly kind: 'transient' | 'permanent',
    /** A short code such as MISSING_PERMISSIONS, UNKNOWN_CHANNEL, NOT_IN_CHANNEL, RATE_LIMITED. */
    readonly code: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
