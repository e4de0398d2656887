/**
 * The delivery ledger: the durable record of which notification was sent where. It, not node-cron,
 * is the source of truth after a restart (docs/notifications.md, "The ledger: none lost, none
 * twice").
 *
 * Life of a key: `claim` (atomic: exactly one caller wins) -> post -> `markSent(messageId)`, the
 * moment the platform accepts the post (one post at a time, never a whole batch afterwards).
 * A transient failure `release`s the key so a later tick claims it again; a permanent one `fail`s it
 * for good.
 *
 * A claim holds a lease (`leaseMs`, default 15 s) that its holder renews (`renewMany`) for as long
 * as it works on the key, also while it waits out a platform's Retry-After: a live holder never
 * loses its claim. Every claim names its holder: the instance identity (`holder`, e.g.
 * `NOTIFY_INSTANCE`) and this opening of the ledger (a random session). Another holder may take a
 * claim over only once its lease ran out (its process died or hung); a process restarted with the
 * same identity takes its dead predecessor's claims over at once. A claim taken over is reported as
 * `retaken`: the post may have gone out just before the crash, so the notifier asks the platform
 * first (Discord's nonce, Slack's message metadata). Release and renew act only on the caller's
 * own claims, so a holder whose claim was taken over can neither post (the notifier checks the
 * claim right before each post) nor free the new holder's claim.
 *
 * Implementations: `SqliteLedger` (default, `sqlite-ledger.ts`) and `RedisLedger` (`redis-ledger.ts`).
 */
import type { Platform } from '../core/tenant-id.ts';

export type LedgerState = 'claimed' | 'sent' | 'failed';

export interface LedgerEntry {
  key: string;
  state: LedgerState;
  /** The platform's message id once sent (live cards are edited through it). */
  messageId?: string;
  /** Why a key failed for good. */
  reason?: string;
  /** Epoch ms of the last change (the ledger's own time source: real time unless injected). */
  updatedAt: number;
}

/** A claim this caller won. */
export interface Claim {
  /**
   * The key was claimed before by a holder that did not finish (it died, or failed in a way that
   * leaves unknown whether the platform took the post): ask the platform before posting again.
   */
  retaken: boolean;
}

/**
 * The ledger cannot be trusted or used: `damaged` (fails its integrity check, or is not a ledger),
 * `missing` (deleted while running, or gone after use), `unwritable` (its folder is read-only),
 * `newer` (a layout from a newer Matchday). The message is for the operator: what is wrong and what
 * to do; the notifier does not run on such a ledger.
 */
export class LedgerError extends Error {
  override name = 'LedgerError';
  constructor(
    readonly problem: 'damaged' | 'missing' | 'unwritable' | 'newer',
    message: string,
  ) {
    super(message);
  }
}

export interface Ledger {
  /** How long a claim holds without renewal (ms). */
  readonly leaseMs: number;
  /** Resolves when the ledger is open and sound; a `LedgerError` says what is wrong (checked every tick). */
  verify(): Promise<void>;
  /** Takes the key if nobody holds it (or a dead holder's lease ran out). True when this caller won. */
  claim(key: string): Promise<boolean>;
  /** The platform confirmed: the key is done, with the message id to edit later. */
  markSent(key: string, messageId: string): Promise<void>;
  /**
   * A transient failure: gives the key back (only if this caller still holds it) so a later attempt
   * can claim it. `maybePosted` (a timeout, a dropped connection, a 5xx) keeps a trace so the next
   * claim is `retaken` and the platform is asked before posting again.
   */
  release(key: string, options?: { maybePosted?: boolean }): Promise<void>;
  /** Extends the lease of the caller's own claims; returns the keys it still holds. */
  renewMany(keys: readonly string[]): Promise<Set<string>>;
  /** A permanent failure (or a deliberate skip): the key is never claimed again. */
  fail(key: string, reason: string): Promise<void>;
  get(key: string): Promise<LedgerEntry | undefined>;
  /** The message id of a sent key (a live card's message), if any. */
  findMessage(key: string): Promise<string | undefined>;
  /**
   * Claims many keys in one round trip (one SQLite transaction, one Redis pipeline). Each claim is
   * still atomic per key, exactly as `claim`; the keys this caller won are returned.
   */
  claimMany(keys: readonly string[]): Promise<Map<string, Claim>>;
  /** Marks many keys sent in one round trip. */
  markSentMany(sent: readonly (readonly [key: string, messageId: string])[]): Promise<void>;
  /** The entries of many keys in one round trip (absent keys are left out). */
  getMany(keys: readonly string[]): Promise<Map<string, LedgerEntry>>;
  /** Deletes sent and failed entries last changed before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  /**
   * The last tick any notifier completed on this ledger (the notifier's clock, epoch ms), or
   * undefined when none ever did (a first start). The look-back after downtime starts there.
   */
  lastRun(): Promise<number | undefined>;
  /** Records a completed tick at `at`; an earlier `at` than the one recorded leaves it as it is. */
  recordRun(at: number): Promise<void>;
  close(): Promise<void>;
}

export interface LedgerOptions {
  /** How long a claim holds without renewal before another holder may take it over. Default 15 s. */
  leaseMs?: number;
  /**
   * The instance identity (stable across restarts, unique among running instances): a restarted
   * process takes the claims of its dead predecessor over at once. Default: random (the lease decides).
   */
  holder?: string;
  /** Time source for leases and timestamps. Default `Date.now` (leases are about real processes). */
  now?: () => number;
}

export const DEFAULT_LEASE_MS = 15_000;

/** Sent and failed entries are kept this long (then pruned: on start and daily). */
export const LEDGER_RETENTION_MS = 30 * 24 * 3600_000;

/**
 * What a notification is: the first part of its key. `event` is no post: the record of a Discord
 * scheduled event Matchday made, and of one deleted by hand (`scheduled-events.ts`).
 */
export type LedgerKind = 'reminder' | 'live' | 'result' | 'digest' | 'tournament' | 'event';

/**
 * The key of one notification in one channel: `kind:subject:detail:platform:tenant:channel`, where
 * the subject is the series id (the local date for a digest, the tournament id for the end of a
 * tournament: `tournament:<id>:over:...`) and the detail the lead (reminders,
 * with the start it was computed from, so a moved series gets a reminder for its new start), or the
 * state (`card`, `over`) or the slot (digests). The tenant id already starts with the platform.
 */
export function ledgerKey(
  kind: LedgerKind,
  subject: string | number,
  detail: string | number,
  target: { platform: Platform; tenantId: string; channelId: string },
): string {
  const tenant = target.tenantId.startsWith(`${target.platform}:`)
    ? target.tenantId
    : `${target.platform}:${target.tenantId}`;
  return `${kind}:${subject}:${detail}:${tenant}:${target.channelId}`;
}
