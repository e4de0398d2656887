/**
 * How notifications reach a chat: one platform-neutral interface, implemented by the terminal chat,
 * Discord and Slack. The notifier decides what to send and keeps the ledger; a delivery only posts
 * and edits, and says whether a failure is worth retrying.
 */
import type { Reply } from '../bot/reply.ts';
import type { Platform } from '../core/tenant-id.ts';
import type { Translate } from '../i18n/i18n.ts';
import { DeliveryError } from './delivery-error.ts';
import type { ScheduledEventsApi } from './scheduled-events.ts';

export interface ChannelTarget {
  platform: Platform;
  /** `<platform>:<guild or workspace id>`. */
  tenantId: string;
  channelId: string;
  /** The channel's language: the platform's own words around the reply (buttons, notices). Default English. */
  t?: Translate;
}

export interface Posted {
  /** The platform's message id (Discord snowflake, Slack ts, terminal sequence number). */
  messageId: string;
}

/** How the notifier guards one post (see `ledger.ts`). */
export interface PostOptions {
  /**
   * Checked right before the request goes out, after any pacing or Retry-After wait, and before each
   * such wait: false means the claim is not this holder's any more (taken over, or given back on a
   * stop), and the delivery throws `CLAIM_LOST` without posting or waiting further.
   */
  stillOurs?: () => boolean | Promise<boolean>;
  /**
   * The key was claimed before by a holder that did not finish: the post may already be in the
   * channel. A delivery that can look (Slack: the channel's recent history, by the key in the message
   * metadata) returns that message instead of posting again; Discord's nonce does it by itself.
   */
  reconcile?: boolean;
  /**
   * Post as a reply in the thread of an earlier message of the channel (its `messageId`): Discord
   * starts a thread on that message named `name` (once) and posts in it; Slack replies with
   * `thread_ts`. A reply's mark lost in a crash is found again on Discord (nonce) and on Slack (the
   * key in the metadata of the thread's replies, `conversations.replies`).
   */
  thread?: { parentId: string; name: string };
}

/** The post was not made: another holder took the claim over (never retried by this holder). */
export function claimLost(key: string): DeliveryError {
  return new DeliveryError('transient', 'CLAIM_LOST', `The claim on ${key} was taken over; not posted.`);
}

/** `options.stillOurs` as a step that throws `CLAIM_LOST` when false; undefined without a guard. */
export function claimCheck(key: string, options: PostOptions): (() => Promise<void>) | undefined {
  const { stillOurs } = options;
  if (!stillOurs) return undefined;
  return async () => {
    if (!(await stillOurs())) throw claimLost(key);
  };
}

export interface Delivery {
  readonly platform: Platform;
  /**
   * Posts a new message. `key` is the notification's ledger key; a platform that can deduplicate
   * retried posts uses it (Discord: a nonce derived from it with enforce_nonce).
   */
  post(target: ChannelTarget, reply: Reply, key: string, options?: PostOptions): Promise<Posted>;
  /** Edits a message posted earlier (live cards). Last write wins. */
  edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void>;
  /** The server's scheduled events (Discord), mirrored from followed series when a channel asks. */
  readonly events?: ScheduledEventsApi;
}
