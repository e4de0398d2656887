/**
 * Notifications on Slack: the `Delivery` interface over `chat.postMessage` and `chat.update`.
 *
 * - Pacing: Slack allows about one message per second per channel
 *   (https://docs.slack.dev/apis/web-api/rate-limits#special-rate-limits). Sends to one channel go out
 *   in order, at least `minIntervalMs` apart; different channels do not wait for each other.
 * - 429s are waited out per workspace: a `Retry-After` pauses every send to that workspace (Slack
 *   counts limits per workspace and method), then the send is retried. A wait longer than
 *   `maxRateLimitWaitMs` is not done inline: the send fails as transient with `retryAfterMs`, and the
 *   notifier's ledger retries it later.
 * - Nothing twice: Slack has no idempotency key, so every post carries the notification's ledger key
 *   in its message metadata (`event_type: matchday_notification`). When the ledger says a key was
 *   claimed before by a holder that did not finish (`reconcile`), the channel's recent history
 *   (`conversations.history` with metadata, needs `channels:history`/`groups:history`) is searched
 *   for that key first, and a message found there is returned instead of posting again. A thread
 *   reply (live card updates) is not in the channel's history: its thread's replies
 *   (`conversations.replies` with metadata) are searched instead.
 * - Errors that retrying cannot fix (`not_in_channel`, `channel_not_found`, `is_archived`, revoked
 *   tokens, missing scopes) are permanent `DeliveryError`s: the notifier disables the subscription and
 *   tells the workspace's admins once.
 */
import { webApi } from '@slack/bolt';
import type { Reply } from '../../bot/reply.ts';
import {
  type ChannelTarget,
  claimCheck,
  type Delivery,
  type Posted,
  type PostOptions,
} from '../../notify/delivery.ts';
import { DeliveryError } from '../../notify/delivery-error.ts';
import { renderReply } from './render.ts';

type WebClient = InstanceType<typeof webApi.WebClient>;

export interface SlackDeliveryOptions {
  /** A WebClient for the bot token; make it with `createDeliveryClient` so 429s reach this class. */
  client: WebClient;
  /** Minimum real time between two messages in one channel. Default 1000 ms. */
  minIntervalMs?: number;
  /** Real milliseconds per second of `Retry-After` (tests shrink it). Default 1000. */
  retryAfterUnitMs?: number;
  /** The longest rate-limit pause waited out inline; longer ones fail as transient. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** How many 429s in a row one send waits out before failing as transient. Default 3. */
  maxRateLimitRetries?: number;
  /**
   * After a channel fails for good (not in channel, gone, archived, no permission), sends already
   * queued for it fail at once for this long instead of asking Slack again. Default 60 s.
   */
  deadChannelMs?: number;
  /** Real time source and sleep, injectable so pacing can be tested without waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The metadata event type of Matchday's notifications (the ledger key is its payload's `key`). */
const NOTIFICATION_EVENT = 'matchday_notification';

/** How many recent messages of a channel are searched for a post whose mark was lost. */
const RECONCILE_DEPTH = 100;

/** Slack error codes that retrying cannot fix, with the delivery code the notifier sees. */
const PERMANENT: Record<string, string> = {
  not_in_channel: 'NOT_IN_CHANNEL',
  cannot_dm_bot: 'DM_CLOSED',
  user_not_found: 'DM_CLOSED',
  channel_not_found: 'UNKNOWN_CHANNEL',
  is_archived: 'CHANNEL_ARCHIVED',
  restricted_action: 'MISSING_PERMISSIONS',
  restricted_action_read_only_channel: 'MISSING_PERMISSIONS',
  restricted_action_non_threadable_channel: 'MISSING_PERMISSIONS',
  missing_scope: 'MISSING_PERMISSIONS',
  ekm_access_denied: 'MISSING_PERMISSIONS',
  team_access_not_granted: 'MISSING_PERMISSIONS',
  not_authed: 'TOKEN_REVOKED',
  invalid_auth: 'TOKEN_REVOKED',
  account_inactive: 'TOKEN_REVOKED',
  token_revoked: 'TOKEN_REVOKED',
  token_expired: 'TOKEN_REVOKED',
};

/**
 * Failures of one message rather than of the channel: transient, so the notifier does not turn the
 * whole subscription off because someone deleted a live card (the next change edits again).
 */
const MESSAGE_ONLY: Record<string, string> = {
  message_not_found: 'UNKNOWN_MESSAGE',
  cant_update_message: 'UNKNOWN_MESSAGE',
  edit_window_closed: 'UNKNOWN_MESSAGE',
  invalid_blocks: 'INVALID_MESSAGE',
  msg_too_long: 'INVALID_MESSAGE',
  no_text: 'INVALID_MESSAGE',
};

/** What an admin reads about a permanent failure (the notifier puts it in the admin notice). */
const EXPLANATIONS: Record<string, string> = {
  NOT_IN_CHANNEL: 'Matchday is not a member of this channel; invite it with /invite @Matchday',
  UNKNOWN_CHANNEL: 'the channel no longer exists or Matchday cannot see it',
  CHANNEL_ARCHIVED: 'the channel is archived',
  MISSING_PERMISSIONS: 'Matchday is not allowed to post there',
  TOKEN_REVOKED: "Matchday's access to this workspace was revoked",
  DM_CLOSED: 'Slack will not let Matchday message this person',
};

/**
 * A WebClient for deliveries: rate-limited calls are handed back (not waited out inside the client,
 * which would stall every workspace behind one), and the client never retries a post by itself (a
 * retried post could appear twice; the ledger decides).
 */
export function createDeliveryClient(
  botToken: string,
  options: { apiUrl?: string; timeoutMs?: number } = {},
): WebClient {
  return new webApi.WebClient(botToken, {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: options.timeoutMs ?? 10_000,
    logLevel: webApi.LogLevel.ERROR,
  });
}

function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

function isRateLimited(error: unknown): error is { retryAfter: number } {
  return (
    (error as { code?: unknown } | undefined)?.code === webApi.ErrorCode.RateLimitedError &&
    typeof (error as { retryAfter?: unknown }).retryAfter === 'number'
  );
}

/** Maps a WebClient failure to a DeliveryError; `where` names the channel, never a token. */
export function toDeliveryError(error: unknown, where: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const slackCode = slackErrorCode(error);
  if (slackCode !== undefined) {
    const code = PERMANENT[slackCode];
    if (code)
      return new DeliveryError(
        'permanent',
        code,
        `Slack refused the message for ${where}: ${EXPLANATIONS[code]} (${slackCode}).`,
      );
    const messageCode = MESSAGE_ONLY[slackCode];
    if (messageCode) {
      return new DeliveryError(
        'transient',
        messageCode,
        `Slack refused one message for ${where} (${slackCode}).`,
      );
    }
    return new DeliveryError('transient', 'SLACK_ERROR', `Slack answered ${slackCode} for ${where}.`);
  }
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number')
    return new DeliveryError('transient', 'SLACK_HTTP_ERROR', `Slack answered HTTP ${status} for ${where}.`);
  return new DeliveryError(
    'transient',
    'NETWORK_ERROR',
    `Could not reach Slack for ${where}: ${(error as Error)?.message ?? String(error)}.`,
  );
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SlackDelivery implements Delivery {
  readonly platform = 'slack' as const;
  readonly #client: WebClient;
  readonly #minIntervalMs: number;
  readonly #unitMs: number;
  readonly #maxWaitMs: number;
  readonly #maxRetries: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Per channel: the tail of its send queue and when its last message went out. */
  readonly #channels = new Map<string, { tail: Promise<unknown>; lastAt: number }>();
  /** Per workspace: no sends before this instant (a 429's Retry-After). */
  readonly #pausedUntil = new Map<string, number>();
  /** Per channel: a recent permanent failure, repeated to queued sends until `until`. */
  readonly #dead = new Map<string, { error: DeliveryError; until: number }>();
  readonly #deadMs: number;
  #rateLimited = 0;

  /** The message for a reply, with Slack's own words (reveal button, notices) in the channel's language. */
  #render(reply: Reply, target: ChannelTarget): ReturnType<typeof renderReply> {
    return renderReply(reply, target.t ? { t: target.t } : {});
  }

  constructor(options: SlackDeliveryOptions) {
    this.#client = options.client;
    this.#minIntervalMs = options.minIntervalMs ?? 1000;
    this.#unitMs = options.retryAfterUnitMs ?? 1000;
    this.#maxWaitMs = options.maxRateLimitWaitMs ?? 60_000;
    this.#maxRetries = options.maxRateLimitRetries ?? 3;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? realSleep;
    this.#deadMs = options.deadChannelMs ?? 60_000;
  }

  /** 429s seen so far (for logs and tests). */
  get rateLimited(): number {
    return this.#rateLimited;
  }

  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}): Promise<Posted> {
    // Slack has no idempotency key for chat.postMessage and the client never retries a post itself:
    // a post whose mark was lost is found again by the key in its metadata (see the file comment).
    const message = this.#render(reply, target);
    const ours = claimCheck(key, options);
    const answer = await this.#send(target, ours, async () => {
      await ours?.();
      const channel = await this.#channelOf(target.channelId);
      if (options.reconcile) {
        // A thread reply is not in the channel's history: it is looked for among the thread's replies.
        const found = options.thread
          ? await this.#findReply(channel, options.thread.parentId, key)
          : await this.#findPosted({ ...target, channelId: channel }, key);
        if (found !== undefined) return { ts: found };
      }
      return this.#client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
        unfurl_media: false,
        metadata: { event_type: NOTIFICATION_EVENT, event_payload: { key } },
        ...(options.thread ? { thread_ts: options.thread.parentId } : {}),
      });
    });
    if (typeof answer.ts !== 'string') {
      throw new DeliveryError(
        'transient',
        'SLACK_ERROR',
        `Slack did not return a message id for channel ${target.channelId}.`,
      );
    }
    return { messageId: answer.ts };
  }

  /** DM channel ids by user id (`conversations.open` returns the same one each time). */
  readonly #dms = new Map<string, string>();

  /** The channel to post in: `dm:<user id>` is the person's DM, opened with conversations.open. */
  async #channelOf(channelId: string): Promise<string> {
    if (!channelId.startsWith('dm:')) return channelId;
    const user = channelId.slice(3);
    const known = this.#dms.get(user);
    if (known) return known;
    const opened = await this.#client.conversations.open({ users: user });
    const id = opened.channel?.id;
    if (typeof id !== 'string')
      throw new DeliveryError('transient', 'SLACK_ERROR', 'Slack did not open a direct message.');
    this.#dms.set(user, id);
    return id;
  }

  /** The ts of a recent message of the channel that carries `key` in its metadata, if any. */
  async #findPosted(target: ChannelTarget, key: string): Promise<string | undefined> {
    let history: Awaited<ReturnType<WebClient['conversations']['history']>>;
    try {
      history = await this.#client.conversations.history({
        channel: target.channelId,
        limit: RECONCILE_DEPTH,
        include_all_metadata: true,
      });
    } catch (error) {
      // A rate limit is waited out like any other; history that cannot be read (no history scope)
      // leaves at-least-once: the post goes out.
      if (isRateLimited(error)) throw error;
      return undefined;
    }
    for (const m of history.messages ?? []) {
      const metadata = (m as { metadata?: { event_type?: string; event_payload?: { key?: unknown } } })
        .metadata;
      if (metadata?.event_type === NOTIFICATION_EVENT && metadata.event_payload?.key === key && m.ts)
        return m.ts;
    }
    return undefined;
  }

  /**
   * The ts of a reply in the thread of `parentTs` that carries `key` in its metadata, if any
   * (`conversations.replies` with metadata, oldest first, followed over at most a few pages).
   */
  async #findReply(channel: string, parentTs: string, key: string): Promise<string | undefined> {
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      let replies: Awaited<ReturnType<WebClient['conversations']['replies']>>;
      try {
        replies = await this.#client.conversations.replies({
          channel,
          ts: parentTs,
          limit: RECONCILE_DEPTH,
          include_all_metadata: true,
          ...(cursor ? { cursor } : {}),
        });
      } catch (error) {
        // As for the history: a rate limit is waited out, a thread that cannot be read posts again.
        if (isRateLimited(error)) throw error;
        return undefined;
      }
      const found = replies.messages?.find((m) => {
        const metadata = (m as { metadata?: { event_type?: string; event_payload?: { key?: unknown } } })
          .metadata;
        return (
          m.ts !== parentTs &&
          metadata?.event_type === NOTIFICATION_EVENT &&
          metadata.event_payload?.key === key
        );
      });
      if (found?.ts) return found.ts;
      cursor = replies.response_metadata?.next_cursor || undefined;
      if (!cursor) return undefined;
    }
    return undefined;
  }

  async edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void> {
    const message = this.#render(reply, target);
    await this.#send(target, undefined, async () =>
      this.#client.chat.update({
        channel: await this.#channelOf(target.channelId),
        ts: messageId,
        text: message.text,
        blocks: message.blocks,
      }),
    );
  }

  /**
   * Queues `call` behind earlier sends to the same channel, paced, with 429s waited out.
   * `beforeWait` runs before each wait and may throw to give the send up instead.
   */
  #send<T>(
    target: ChannelTarget,
    beforeWait: (() => Promise<void>) | undefined,
    call: () => Promise<T>,
  ): Promise<T> {
    if (target.platform !== 'slack') {
      return Promise.reject(
        new DeliveryError(
          'permanent',
          'WRONG_PLATFORM',
          `A ${target.platform} target reached the Slack delivery.`,
        ),
      );
    }
    const key = `${target.tenantId}/${target.channelId}`;
    const channel = this.#channels.get(key) ?? { tail: Promise.resolve(), lastAt: Number.NEGATIVE_INFINITY };
    const run = channel.tail.then(
      () => this.#attempt(key, target, channel, beforeWait, call),
      () => this.#attempt(key, target, channel, beforeWait, call),
    );
    channel.tail = run.catch(() => undefined);
    this.#channels.set(key, channel);
    return run;
  }

  async #attempt<T>(
    key: string,
    target: ChannelTarget,
    channel: { lastAt: number },
    beforeWait: (() => Promise<void>) | undefined,
    call: () => Promise<T>,
  ): Promise<T> {
    const where = `channel ${target.channelId}`;
    const dead = this.#dead.get(key);
    if (dead && dead.until > this.#now()) {
      throw new DeliveryError(dead.error.kind, dead.error.code, dead.error.message);
    }
    this.#dead.delete(key);
    for (let attempt = 0; ; attempt += 1) {
      const readyAt = Math.max(
        channel.lastAt + this.#minIntervalMs,
        this.#pausedUntil.get(target.tenantId) ?? 0,
      );
      const wait = readyAt - this.#now();
      if (wait > 0) {
        await beforeWait?.();
        await this.#sleep(wait);
      }
      channel.lastAt = this.#now();
      try {
        return await call();
      } catch (error) {
        if (!isRateLimited(error)) {
          const failure = toDeliveryError(error, where);
          if (failure.kind === 'permanent')
            this.#dead.set(key, { error: failure, until: this.#now() + this.#deadMs });
          throw failure;
        }
        this.#rateLimited += 1;
        const pauseMs = Math.max(1, error.retryAfter) * this.#unitMs;
        this.#pausedUntil.set(
          target.tenantId,
          Math.max(this.#pausedUntil.get(target.tenantId) ?? 0, this.#now() + pauseMs),
        );
        if (pauseMs > this.#maxWaitMs || attempt >= this.#maxRetries) {
          throw new DeliveryError(
            'transient',
            'RATE_LIMITED',
            `Slack rate-limited messages to ${where}.`,
            pauseMs,
          );
        }
      }
    }
  }
}
