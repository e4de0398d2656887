/**
 * How notifications reach a chat: one platform-neutral interface, implemented by the terminal chat,
 * Discord and Slack. The notifier decides what to send and keeps the ledger; a delivery only posts
 * and edits, and says whether a failure is worth retrying.
 */
import type { Platform } from '../bot/command.ts';
import type { Reply } from '../bot/reply.ts';

export interface ChannelTarget {
  platform: Platform;
  /** `<platform>:<guild or workspace id>`. */
  tenantId: string;
  channelId: string;
}

export interface Posted {
  /** The platform's message id (Discord snowflake, Slack ts, terminal sequence number). */
  messageId: string;
}

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

export interface Delivery {
  readonly platform: Platform;
  /**
   * Posts a new message. `key` is the notification's ledger key; a platform that can deduplicate
   * retried posts uses it (Discord: a nonce derived from it with enforce_nonce).
   */
  post(target: ChannelTarget, reply: Reply, key: string): Promise<Posted>;
  /** Edits a message posted earlier (live cards). Last write wins. */
  edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void>;
}
