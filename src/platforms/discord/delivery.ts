/**
 * Notifications on Discord: the `Delivery` interface over `POST`/`PATCH /channels/{id}/messages`,
 * through discord.js' REST client (its buckets, retries and 429 handling).
 *
 * - No duplicates: every post carries a deterministic `nonce` (at most 25 characters, from the
 *   ledger key) with `enforce_nonce`, so when discord.js retries a post whose first attempt created
 *   the message (a 5xx or a timeout after the fact), or the notifier retries it later, Discord
 *   returns the first message instead of creating a second one (for a few minutes).
 * - Live cards are edited in place; one message per notification (`renderReply(..., { single })`).
 * - Pacing: at most `perChannel` messages per window in one channel (Discord: about 5 per 5 s) and
 *   `global` per second overall (Discord: 50/s for everything), in order per channel. A 429 is waited
 *   out by discord.js; a wait longer than the client's `rejectOnRateLimit` threshold comes back as a
 *   transient `DeliveryError` with `retryAfterMs`, and the notifier retries it later.
 * - Missing access (50001), missing permissions (50013) and unknown channel (10003) are permanent:
 *   the notifier disables that subscription and tells the server's admins once.
 */
import { DiscordAPIError, type REST, Routes } from 'discord.js';
import type { Reply } from '../../bot/reply.ts';
import {
  type ChannelTarget,
  claimCheck,
  type Delivery,
  type Posted,
  type PostOptions,
} from '../../notify/delivery.ts';
import { DeliveryError } from '../../notify/delivery-error.ts';
import { toDeliveryError } from './delivery-error.ts';
import { nonceFor, renderReply, restBody } from './render.ts';
import { DiscordScheduledEvents } from './scheduled-events.ts';

interface Pace {
  count: number;
  windowMs: number;
}

export interface DiscordDeliveryOptions {
  /** The bot's REST client (`client.rest`). */
  rest: REST;
  /** Default 5 messages per 5 s per channel. */
  perChannel?: Pace;
  /** Default 45 requests per second overall (headroom under Discord's 50 for interactions). */
  global?: Pace;
  /** Real time source and sleep, injectable so pacing can be tested without waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Timestamps of recent sends; `waitMs` says how long until one more fits in the window. */
class Window {
  readonly #times: number[] = [];
  constructor(
    readonly pace: Pace,
    readonly now: () => number,
  ) {}

  waitMs(): number {
    const now = this.now();
    while (this.#times.length > 0 && now - this.#times[0]! >= this.pace.windowMs) this.#times.shift();
    if (this.#times.length < this.pace.count) return 0;
    return this.pace.windowMs - (now - this.#times[0]!);
  }

  record(): void {
    this.#times.push(this.now());
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class DiscordDelivery implements Delivery {
  readonly platform = 'discord' as const;
  readonly #rest: REST;
  readonly #perChannel: Pace;
  readonly #global: Window;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Per channel: the tail of its send queue and its window. */
  readonly #channels = new Map<string, { tail: Promise<unknown>; window: Window }>();
  #waitedMs = 0;
  readonly events: DiscordScheduledEvents;

  constructor(options: DiscordDeliveryOptions) {
    this.#rest = options.rest;
    this.events = new DiscordScheduledEvents(options.rest);
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? realSleep;
    this.#perChannel = options.perChannel ?? { count: 5, windowMs: 5000 };
    this.#global = new Window(options.global ?? { count: 45, windowMs: 1000 }, this.#now);
  }

  /** Total time sends waited for pacing (for logs, tests and the bench). */
  get pacedMs(): number {
    return this.#waitedMs;
  }

  /**
   * Posts once per key: the nonce (with `enforce_nonce`) makes Discord answer a repeated post of the
   * same key, within its dedupe window (a few minutes), with the message it already made; so a post
   * whose mark was lost (`reconcile`) is found again by simply posting it. `stillOurs` is checked
   * before a pacing wait (a post given up while queued, as on a stop, does not wait its turn) and
   * again after it, right before the request.
   */
  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}): Promise<Posted> {
    const [message] = renderReply(reply, { single: true, ...(target.t ? { t: target.t } : {}) });
    const { body, files } = restBody(message!, { nonce: nonceFor(key) });
    const ours = claimCheck(key, options);
    const answer = (await this.#send(target, ours, async () => {
      await ours?.();
      const channelId = await this.#channelOf(target.channelId);
      if (!options.thread) return this.#rest.post(Routes.channelMessages(channelId), { body, files });
      const thread = await this.#threadOf(channelId, options.thread);
      try {
        return await this.#rest.post(Routes.channelMessages(thread), { body, files });
      } catch (error) {
        if (isPermissionError(error)) throw threadsRefused(channelId, error.code);
        throw error;
      }
    })) as { id?: unknown };
    if (typeof answer?.id !== 'string') {
      throw new DeliveryError(
        'transient',
        'DISCORD_ERROR',
        `Discord did not return a message id for channel ${target.channelId}.`,
      );
    }
    return { messageId: answer.id };
  }

  async edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void> {
    const [message] = renderReply(reply, { single: true, ...(target.t ? { t: target.t } : {}) });
    const { body, files } = restBody(message!, { edit: true });
    await this.#send(target, undefined, async () =>
      this.#rest.patch(Routes.channelMessage(await this.#channelOf(target.channelId), messageId), {
        body,
        files,
      }),
    );
  }

  /** Messages whose thread exists (a thread started on a message has the message's id). */
  readonly #threads = new Set<string>();

  /** The thread on a message, started on first use (Discord answers 160004 if it already exists). */
  async #threadOf(channelId: string, thread: { parentId: string; name: string }): Promise<string> {
    if (this.#threads.has(thread.parentId)) return thread.parentId;
    try {
      await this.#rest.post(Routes.threads(channelId, thread.parentId), {
        body: { name: thread.name.slice(0, 100), auto_archive_duration: 1440 },
      });
    } catch (error) {
      if (isPermissionError(error)) throw threadsRefused(channelId, error.code);
      if (!(error instanceof DiscordAPIError && error.code === 160004)) throw error;
    }
    this.#threads.add(thread.parentId);
    return thread.parentId;
  }

  /** DM channel ids by user id (opening one again returns the same channel). */
  readonly #dms = new Map<string, string>();

  /** The channel to post in: `dm:<user id>` is the person's DM channel, opened on first use. */
  async #channelOf(channelId: string): Promise<string> {
    if (!channelId.startsWith('dm:')) return channelId;
    const userId = channelId.slice(3);
    const known = this.#dms.get(userId);
    if (known) return known;
    const opened = (await this.#rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as {
      id?: unknown;
    };
    if (typeof opened?.id !== 'string')
      throw new DeliveryError('transient', 'DISCORD_ERROR', 'Discord did not open a DM channel.');
    this.#dms.set(userId, opened.id);
    return opened.id;
  }

  /**
   * Queues `call` behind earlier sends to the same channel, paced per channel and globally.
   * `beforeWait` runs before each pacing wait and may throw to give the send up instead.
   */
  #send<T>(
    target: ChannelTarget,
    beforeWait: (() => Promise<void>) | undefined,
    call: () => Promise<T>,
  ): Promise<T> {
    let channel = this.#channels.get(target.channelId);
    if (!channel) {
      channel = { tail: Promise.resolve(), window: new Window(this.#perChannel, this.#now) };
      this.#channels.set(target.channelId, channel);
    }
    const { window } = channel;
    const run = async (): Promise<T> => {
      for (;;) {
        const wait = Math.max(window.waitMs(), this.#global.waitMs());
        if (wait <= 0) break;
        await beforeWait?.();
        this.#waitedMs += wait;
        await this.#sleep(wait);
      }
      window.record();
      this.#global.record();
      try {
        return await call();
      } catch (error) {
        throw toDeliveryError(error, `channel ${target.channelId}`);
      }
    };
    const result = channel.tail.then(run, run);
    channel.tail = result.catch(() => undefined);
    return result;
  }
}

/** Discord refused for want of a permission (50013) or of access (50001). */
function isPermissionError(error: unknown): error is DiscordAPIError {
  return error instanceof DiscordAPIError && (error.code === 50013 || error.code === 50001);
}

/**
 * A thread refused (starting it, or posting in it): `THREAD_PERMISSIONS`, permanent for the
 * channel's threads only; the notifier turns its threads off, not its notifications.
 */
function threadsRefused(channelId: string, code: number | string): DeliveryError {
  return new DeliveryError(
    'permanent',
    'THREAD_PERMISSIONS',
    `Discord refused a thread in channel ${channelId}: Matchday needs Create Public Threads and Send Messages in Threads there (${code}).`,
  );
}
