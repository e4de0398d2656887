/**
 * The dispatcher: the one way a notification is posted. Claim, send, mark (docs/notifications.md,
 * "The ledger: none lost, none twice"):
 * - keys are claimed in the ledger in batches, each sized to about a second of posting at the pace
 *   just seen (one ledger round trip per batch; each claim still atomic per key);
 * - each post is marked sent with its message id the moment the platform accepts it (marks of
 *   concurrent posts share one write), so a crash re-posts nothing that went out;
 * - the claims held are renewed while they are worked on (also while a delivery waits out a
 *   Retry-After), and each post checks its claim right before it goes out: a claim another holder
 *   took over is never posted by this one;
 * - per channel one post goes first; the rest follow only if it went through, so a channel that
 *   refuses gets one attempt per tick;
 * - a transient failure (a 429, a timeout) releases the key and backs the channel off (the
 *   server's hint honoured, capped at 2 minutes); a permanent one (no access, unknown channel) fails
 *   the key and raises `onDisabled`, which turns the channel's subscription off;
 * - past the tick's budget (`deadline`) no new batch is claimed (after the first of each call, so
 *   every kind moves): the rest is decided again, and sent, at the next tick.
 */
import type { Reply } from '../bot/reply.ts';
import type { Clock } from '../core/clock.ts';
import type { Platform } from '../core/tenant-id.ts';
import type { ChannelTarget, Delivery, PostOptions } from './delivery.ts';
import { DeliveryError } from './delivery-error.ts';
import { combineReminders, groupByBatch } from './grouping.ts';
import type { Ledger, LedgerEntry } from './ledger.ts';
import type { Subscription } from './plan.ts';
import type { NotifierStats, NotifyLogger } from './types.ts';

/** One notification to post: its ledger key, channel, and how to send it. */
export interface Outgoing {
  kind: keyof NotifierStats['sent'];
  key: string;
  sub: Subscription;
  act: (delivery: Delivery, guard: PostOptions) => Promise<string>;
  /** Reminders: the channel and minute they are due (`grouping.ts`), and the reply alone. */
  batch?: string;
  reply?: () => Reply;
  /** More keys the one post stands for (grouped reminders): claimed, released, failed and marked with `key`. */
  also?: string[];
}

export interface DispatcherOptions {
  ledger: Ledger;
  deliveries: Partial<Record<Platform, Delivery>>;
  clock: Clock;
  logger: NotifyLogger;
  stats: NotifierStats;
  /** First retry delay after a transient failure (simulated ms, doubled per attempt, capped at 2 min). */
  retryBaseMs: number;
  /** Most keys claimed and marked per ledger round trip. */
  ledgerBatch: number;
  /** A channel failed for good (raised once per channel): its subscription is turned off. */
  onDisabled: (sub: Subscription, error: DeliveryError) => Promise<void>;
  /** A channel's threads were refused (raised once per channel): its threads are turned off, nothing else. */
  onThreadsDenied: (sub: Subscription, error: DeliveryError) => Promise<void>;
}

/** The code of a thread refused for want of permissions (`DeliveryError`): threads off, the channel on. */
export const THREAD_PERMISSIONS = 'THREAD_PERMISSIONS';

/** Keys in a tick's first ledger batch, and the fewest in any (see `dispatch`). */
const FIRST_BATCH = 100;
const MIN_BATCH = 25;

export class Dispatcher {
  /** Keys known to be final (sent, failed): skipped without asking the ledger. */
  readonly done = new Set<string>();
  /** Groups (series, lead, start), (series, state) or digest slots every subscriber has had: skipped whole. */
  readonly groupsDone = new Set<string>();
  /** Keys backing off after a transient failure. */
  readonly retry = new Map<string, { attempts: number; notBefore: number }>();
  /** Channels (`targetKey`) turned off after a permanent failure. */
  readonly disabled = new Set<string>();
  /** `performance.now()` after which this tick claims nothing more (see `tickBudgetMs`). */
  deadline = Number.POSITIVE_INFINITY;
  /** Set by `stop()`: no new post starts. */
  stopping = false;

  readonly #o: DispatcherOptions;
  /** Channels whose refused threads are being turned off (`onThreadsDenied` under way). */
  readonly #threadsOff = new Set<string>();
  /** Channels backing off after a transient failure: until when (simulated ms). */
  readonly #channelRetry = new Map<string, number>();
  /** Keys this process holds a claim on, with the real instant (ms) until which the claim surely holds. */
  readonly #held = new Map<string, number>();
  #renewTimer: ReturnType<typeof setInterval> | undefined;
  #renewing: Promise<void> | undefined;
  /** Marks waiting for the write under way (group commit: one ledger write for many posts). */
  #marks: { key: string; messageId: string }[] = [];
  #marking: Promise<void> | undefined;
  /** Posts accepted whose mark could not be written yet: written again at the next tick. */
  readonly #unmarked = new Map<string, string>();

  constructor(options: DispatcherOptions) {
    this.#o = options;
  }

  /** The delivery of a platform, if it runs here. */
  delivery(platform: Platform): Delivery | undefined {
    return this.#o.deliveries[platform];
  }

  /** Posts what is ready of `out`: claimed, sent, marked (see the module comment). */
  async dispatch(out: Outgoing[]): Promise<void> {
    const now = this.#o.clock.nowMs();
    const ready = this.#ready(out, now);
    const failedChannels = new Set<string>();
    const triedChannels = new Set<string>();
    let size = Math.min(FIRST_BATCH, this.#o.ledgerBatch);
    for (let i = 0; i < ready.length; ) {
      if (this.stopping || (i > 0 && performance.now() > this.deadline)) {
        this.#o.stats.deferred += ready.length - i;
        break;
      }
      const started = performance.now();
      let end = Math.min(ready.length, i + size);
      // A batch of reminders (one message) is never split across two ledger batches.
      while (
        end < ready.length &&
        ready[end]!.batch !== undefined &&
        ready[end]!.batch === ready[end - 1]!.batch
      )
        end++;
      const chunk = ready.slice(i, end);
      i += chunk.length;
      await this.#claimAndSend(chunk, now, triedChannels, failedChannels);
      const perSecond = (chunk.length * 1000) / Math.max(1, performance.now() - started);
      size = Math.max(MIN_BATCH, Math.min(this.#o.ledgerBatch, Math.round(perSecond)));
    }
  }

  /** What of `out` may go now: once per key, not done, its channel neither disabled nor backing off. */
  #ready(out: Outgoing[], now: number): Outgoing[] {
    // One post per key: a claim is won once per key, so a key listed twice (settings that hold one
    // channel twice give two subscriptions with the same keys) must not be posted once per listing.
    const keys = new Set<string>();
    // Reminders of one channel and minute side by side, so a ledger batch does not split their message.
    const ready = groupByBatch(out)
      .flat()
      .filter((o) => {
        if (keys.has(o.key)) return false;
        keys.add(o.key);
        if (this.done.has(o.key) || this.disabled.has(targetKey(o.sub))) return false;
        if (!this.#o.deliveries[o.sub.platform]) return false;
        const retry = this.retry.get(o.key);
        if (retry && retry.notBefore > now) return false;
        // A channel that failed for now backs off as a whole, not only the key that was tried.
        return !((this.#channelRetry.get(targetKey(o.sub)) ?? 0) > now);
      });
    return ready;
  }

  /** One ledger batch: claimed in one round trip, then posted, one post per channel first. */
  async #claimAndSend(
    chunk: Outgoing[],
    now: number,
    triedChannels: Set<string>,
    failedChannels: Set<string>,
  ): Promise<void> {
    // The lease runs from the request, not from the answer (the ledger's lease began before it
    // answered): a slow answer must not make a claim look surely held after it ran out.
    const claimedAt = Date.now();
    const won = await this.#o.ledger.claimMany(chunk.map((o) => o.key));
    for (const key of won.keys()) this.#hold(key, claimedAt);
    const lost = chunk.filter((o) => !won.has(o.key)).map((o) => o.key);
    if (lost.length > 0) {
      // Lost to a sent or failed record (a restart, another process): final. A live claim: retry later.
      const entries = await this.#o.ledger.getMany(lost);
      for (const [key, entry] of entries) if (entry.state !== 'claimed') this.done.add(key);
    }
    const claimed = mergeBatches(chunk.filter((o) => won.has(o.key)));
    const first: Outgoing[] = [];
    const rest: Outgoing[] = [];
    for (const o of claimed) {
      const tk = targetKey(o.sub);
      if (triedChannels.has(tk)) rest.push(o);
      else {
        triedChannels.add(tk);
        first.push(o);
      }
    }
    const attempt = (o: Outgoing) => async () => {
      const tk = targetKey(o.sub);
      const all = [o.key, ...(o.also ?? [])];
      if (this.stopping || this.disabled.has(tk) || failedChannels.has(tk)) {
        for (const key of all) await this.release(key);
        return;
      }
      const retaken = all.some((key) => won.get(key)?.retaken === true);
      const messageId = await this.#attempt(o, now, retaken);
      if (messageId === undefined) {
        failedChannels.add(tk);
        return;
      }
      this.#channelRetry.delete(tk);
      for (const key of all) {
        this.done.add(key);
        this.retry.delete(key);
        this.#o.stats.sent[o.kind]++;
      }
      // Every key the message stands for is marked with it (one group-committed write).
      await Promise.all(all.map((key) => this.#markSent(key, messageId)));
    };
    await runLimited(first.map(attempt), 32);
    await runLimited(rest.map(attempt), 32);
  }

  /** Records keys as decided with nothing to post (claimed and failed with `reason`), so a restart does not reconsider them. */
  async skip(keys: string[], reason: string): Promise<void> {
    if (keys.length === 0) return;
    const won = await this.#o.ledger.claimMany(keys);
    await runLimited(
      [...won.keys()].map((key) => () => this.#o.ledger.fail(key, reason)),
      16,
    );
    for (const key of keys) this.done.add(key);
  }

  /** Turns a channel's threads off after the platform refused one: once per channel, through `onThreadsDenied`. */
  async #threadsDenied(sub: Subscription, error: DeliveryError): Promise<void> {
    const tk = targetKey(sub);
    if (this.#threadsOff.has(tk)) return;
    this.#threadsOff.add(tk);
    try {
      await this.#o.onThreadsDenied(sub, error);
    } finally {
      // Threads turned on again later (permissions fixed) and refused again are turned off again.
      this.#threadsOff.delete(tk);
    }
  }

  /** Turns a channel off after a permanent failure: once per channel, through `onDisabled`. */
  async disable(sub: Subscription, error: DeliveryError): Promise<void> {
    const tk = targetKey(sub);
    if (this.disabled.has(tk)) return;
    this.disabled.add(tk);
    this.#o.stats.permanentFailures++;
    await this.#o.onDisabled(sub, error);
  }

  /** Forgets the in-memory marks of keys `stale` says are long past (the ledger still holds them). */
  forget(stale: (key: string) => boolean): void {
    for (const set of [this.done, this.groupsDone]) for (const key of set) if (stale(key)) set.delete(key);
    for (const key of this.retry.keys()) if (stale(key)) this.retry.delete(key);
  }

  /** Sends one claimed notification; the message id, or undefined after a failure (handled here). */
  async #attempt(o: Outgoing, now: number, retaken: boolean): Promise<string | undefined> {
    const delivery = this.#o.deliveries[o.sub.platform]!;
    // A grouped post stands for several keys: it goes out only while every one of them is still ours.
    const all = [o.key, ...(o.also ?? [])];
    const stillOurs = async () => (await Promise.all(all.map((key) => this.#stillHeld(key)))).every(Boolean);
    const guard: PostOptions = { stillOurs, reconcile: retaken };
    if (retaken) this.#o.logger.info({ key: o.key }, 'claim taken over from a holder that did not finish');
    try {
      return await o.act(delivery, guard);
    } catch (error) {
      if (error instanceof DeliveryError && error.code === 'CLAIM_LOST') {
        // Another holder has the key now: it posts (or already did); this process leaves it alone.
        // (Stopping: the claim is still ours, given back so the next holder need not wait.)
        // A group that lost one key gives the others back: the next tick posts them again.
        for (const key of all) {
          if (this.stopping || (all.length > 1 && this.#held.has(key))) await this.release(key);
          else this.#held.delete(key);
        }
        if (this.stopping) this.#o.logger.info({ key: o.key }, 'stopping: claim given back, not posted here');
        else this.#o.logger.warn({ key: o.key }, 'claim was taken over while waiting; not posted here');
        return undefined;
      }
      if (error instanceof DeliveryError && error.kind === 'permanent') {
        for (const key of all) {
          this.#held.delete(key);
          await this.#o.ledger.fail(key, error.code);
          this.done.add(key);
        }
        // A thread refused turns off the channel's threads only; its notifications go on.
        if (error.code === THREAD_PERMISSIONS) await this.#threadsDenied(o.sub, error);
        else await this.disable(o.sub, error);
        return undefined;
      }
      this.#o.stats.transientFailures++;
      const hinted = error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0;
      let notBefore = now;
      for (const key of all) {
        await this.release(key, maybePosted(error));
        const attempts = (this.retry.get(key)?.attempts ?? 0) + 1;
        // Capped at 2 minutes: repeated 429s delay a notification, they do not push it past its lateness rule.
        const backoff = Math.min(2 * 60_000, this.#o.retryBaseMs * 2 ** (attempts - 1));
        notBefore = Math.max(notBefore, now + Math.max(backoff, hinted));
        this.retry.set(key, { attempts, notBefore: now + Math.max(backoff, hinted) });
      }
      this.#channelRetry.set(targetKey(o.sub), notBefore);
      this.#o.logger.warn(
        { key: o.key, keys: all.length, attempts: this.retry.get(o.key)?.attempts, err: error },
        'notification failed for now; will retry',
      );
      return undefined;
    }
  }

  // ---- claims held -------------------------------------------------------------------------------

  #hold(key: string, since: number): void {
    this.#held.set(key, since + this.#o.ledger.leaseMs);
    if (!this.#renewTimer) {
      // Renewed three times per lease: a holder that lives (and waits on a Retry-After) keeps its claims.
      this.#renewTimer = setInterval(() => void this.#renew(), Math.max(10, this.#o.ledger.leaseMs / 3));
      this.#renewTimer.unref();
    }
  }

  #renew(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return this.#renewing ?? Promise.resolve();
    const keys = [...this.#held.keys()];
    const until = Date.now() + this.#o.ledger.leaseMs;
    this.#renewing = this.#o.ledger
      .renewMany(keys)
      .then((still) => {
        for (const key of keys) {
          if (!this.#held.has(key)) continue;
          if (still.has(key)) this.#held.set(key, until);
          else this.#held.delete(key);
        }
      })
      .catch((error: unknown) => this.#o.logger.warn({ err: error }, 'claims could not be renewed'))
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  /** Right before a post: is the claim still this process's? Asks the ledger when the lease is near its end. */
  async #stillHeld(key: string): Promise<boolean> {
    const until = this.#held.get(key);
    if (until === undefined || this.stopping) return false;
    if (until - Date.now() > this.#o.ledger.leaseMs / 3) return true;
    try {
      const asked = Date.now();
      const still = await this.#o.ledger.renewMany([key]);
      if (!still.has(key)) {
        this.#held.delete(key);
        return false;
      }
      this.#held.set(key, asked + this.#o.ledger.leaseMs);
      return true;
    } catch {
      // The ledger cannot say: not posting is the safe side (the key is retried later).
      return false;
    }
  }

  /** Gives a claim back (its key is tried again later, by this process or another). */
  async release(key: string, maybe = false): Promise<void> {
    this.#held.delete(key);
    try {
      await this.#o.ledger.release(key, { maybePosted: maybe });
    } catch (error) {
      this.#o.logger.warn({ key, err: error }, 'claim could not be released; its lease frees it');
    }
  }

  /**
   * A clean stop (after `stopping` is set and the tick under way finished): marks that failed are
   * written again, and every claim still held is released, so another instance (or the next start)
   * takes the keys at once instead of waiting out a lease.
   */
  async close(): Promise<void> {
    this.stopping = true;
    await this.retryMarks();
    if (this.#renewTimer) clearInterval(this.#renewTimer);
    this.#renewTimer = undefined;
    await this.#renewing;
    for (const key of [...this.#held.keys()]) if (!this.#unmarked.has(key)) await this.release(key);
  }

  // ---- marks -------------------------------------------------------------------------------------

  /** Records one accepted post at once (its claim is let go once the mark is written). */
  async #markSent(key: string, messageId: string): Promise<void> {
    this.#marks.push({ key, messageId });
    while (this.#marks.some((m) => m.key === key)) {
      if (!this.#marking) this.#marking = this.#writeMarks();
      await this.#marking;
    }
  }

  async #writeMarks(): Promise<void> {
    const batch = this.#marks;
    this.#marks = [];
    try {
      await this.#o.ledger.markSentMany(batch.map((m) => [m.key, m.messageId] as const));
      for (const m of batch) this.#held.delete(m.key);
    } catch (error) {
      // Sent but not recorded: kept (and the claim renewed) until a later write succeeds.
      for (const m of batch) this.#unmarked.set(m.key, m.messageId);
      this.#o.logger.error(
        { err: error, keys: batch.length },
        'sent notifications could not be marked; will retry',
      );
    } finally {
      this.#marking = undefined;
    }
  }

  /** Writes marks that failed earlier (start of each tick). */
  async retryMarks(): Promise<void> {
    if (this.#unmarked.size === 0) return;
    const pending = [...this.#unmarked];
    try {
      await this.#o.ledger.markSentMany(pending);
      for (const [key] of pending) {
        this.#unmarked.delete(key);
        this.#held.delete(key);
      }
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'sent notifications still cannot be marked');
    }
  }
}

/**
 * The claimed reminders of one channel and minute as one outgoing post: its key is the first
 * reminder's (Discord's nonce, Slack's metadata), the others ride along in `also`.
 */
function mergeBatches(claimed: Outgoing[]): Outgoing[] {
  return groupByBatch(claimed).map((group) => {
    if (group.length === 1) return group[0]!;
    const [first] = group as [Outgoing, ...Outgoing[]];
    const reply = combineReminders(group.map((o) => o.reply!()));
    return {
      kind: first.kind,
      key: first.key,
      sub: first.sub,
      also: group.slice(1).map((o) => o.key),
      act: async (delivery, guard) =>
        (await delivery.post(target(first.sub), reply, first.key, guard)).messageId,
    };
  });
}

/** A failure after which the platform may have taken the post anyway (timeout, dropped connection, 5xx). */
function maybePosted(error: unknown): boolean {
  if (!(error instanceof DeliveryError)) return true;
  return !['RATE_LIMITED', 'INVALID_MESSAGE', 'UNKNOWN_MESSAGE', 'CLAIM_LOST'].includes(error.code);
}

/** The message id of a sent ledger entry. */
export function sentMessage(entry: LedgerEntry | undefined): string | undefined {
  return entry?.state === 'sent' ? entry.messageId : undefined;
}

/** A live card's message is gone (deleted): Discord 10008, Slack message_not_found and the like. */
export function isUnknownMessage(error: unknown): boolean {
  return error instanceof DeliveryError && error.code === 'UNKNOWN_MESSAGE';
}

export function target(sub: Subscription): ChannelTarget {
  return { platform: sub.platform, tenantId: sub.tenantId, channelId: sub.channelId, t: sub.t };
}

/** One channel of one tenant (`<tenant>/<channel>`): what is disabled and backs off as a whole. */
export function targetKey(sub: Subscription): string {
  return `${sub.tenantId}/${sub.channelId}`;
}

/** Runs jobs with at most `limit` at once. */
export async function runLimited(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      await job();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}
