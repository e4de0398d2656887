/**
 * The ledger on Redis, for several instances sharing one store: the claim is `SET key NX PX lease`,
 * atomic in Redis; the lease expiring is what frees the key of a process that died mid-send.
 * Values are `state|updatedAt|detail` strings. Sent and failed keys are kept for `retentionMs`.
 */
import { createClient } from '@redis/client';
import { reconnectDelay } from '../bot/store-backend.ts';
import {
  DEFAULT_LEASE_MS,
  type Ledger,
  type LedgerEntry,
  type LedgerOptions,
  type LedgerState,
} from './ledger.ts';

export interface RedisLedgerOptions extends LedgerOptions {
  /** Prefix for every key, so one Redis can hold several deployments. Default `matchday:ledger:`. */
  prefix?: string;
  /** How long sent and failed keys are kept. Default 30 days. */
  retentionMs?: number;
}

// Deletes the key only while it is a claim: a release must never erase a sent or failed record.
const RELEASE_SCRIPT = `if string.sub(redis.call('GET', KEYS[1]) or '', 1, 8) == 'claimed|' then return redis.call('DEL', KEYS[1]) end return 0`;

type RedisConnection = ReturnType<typeof createClient>;

export class RedisLedger implements Ledger {
  readonly #client: RedisConnection;
  /** The first connection; later drops are reconnected by the client itself, forever. */
  readonly #firstConnect: Promise<unknown>;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #retentionMs: number;
  readonly #now: () => number;

  /** Connects to `url` (e.g. `redis://127.0.0.1:6390`). */
  constructor(url: string, options: RedisLedgerOptions = {}) {
    this.#prefix = options.prefix ?? 'matchday:ledger:';
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#retentionMs = options.retentionMs ?? 30 * 24 * 3600_000;
    this.#now = options.now ?? Date.now;
    // Reconnect forever with capped, jittered backoff (a Redis restart must not end notifications),
    // but fail each call at once while disconnected instead of queueing it: the notifier retries the
    // notification on a later tick, and resumes by itself when Redis is back.
    this.#client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 5000, reconnectStrategy: reconnectDelay },
    });
    // Without a listener an unreachable server would crash the process; the failing call reports it instead.
    this.#client.on('error', () => undefined);
    this.#firstConnect = this.#client.connect();
    this.#firstConnect.catch(() => undefined);
  }

  /**
   * Resolves once the client can take a call: at once when connected, or while reconnecting (the
   * call then fails at once as offline); before the first connection, waits at most 2 s and fails
   * with a clear error (the client keeps trying in the background).
   */
  get #connected(): Promise<unknown> {
    if (this.#client.isReady) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.#firstConnect,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('The Redis ledger is unreachable (reconnecting in the background).')),
          2000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  async claim(key: string): Promise<boolean> {
    await this.#connected;
    const reply = await this.#client.set(this.#prefix + key, `claimed|${this.#now()}|`, {
      condition: 'NX',
      expiration: { type: 'PX', value: this.#leaseMs },
    });
    return reply === 'OK';
  }

  async claimMany(keys: readonly string[]): Promise<Set<string>> {
    const won = new Set<string>();
    if (keys.length === 0) return won;
    await this.#connected;
    const value = `claimed|${this.#now()}|`;
    // One pipeline: each SET NX stays atomic on its own, the batch costs one round trip.
    const multi = this.#client.multi();
    for (const key of keys)
      multi.set(this.#prefix + key, value, {
        condition: 'NX',
        expiration: { type: 'PX', value: this.#leaseMs },
      });
    const replies = await multi.execAsPipeline();
    keys.forEach((key, i) => {
      if (String(replies[i]) === 'OK') won.add(key);
    });
    return won;
  }

  async markSentMany(sent: readonly (readonly [key: string, messageId: string])[]): Promise<void> {
    if (sent.length === 0) return;
    await this.#connected;
    const multi = this.#client.multi();
    for (const [key, messageId] of sent)
      multi.set(this.#prefix + key, `sent|${this.#now()}|${messageId}`, {
        expiration: { type: 'PX', value: this.#retentionMs },
      });
    await multi.execAsPipeline();
  }

  async getMany(keys: readonly string[]): Promise<Map<string, LedgerEntry>> {
    const found = new Map<string, LedgerEntry>();
    if (keys.length === 0) return found;
    await this.#connected;
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const values = await this.#client.mGet(chunk.map((k) => this.#prefix + k));
      chunk.forEach((key, j) => {
        const value = values[j];
        if (typeof value === 'string') found.set(key, this.#entry(key, value));
      });
    }
    return found;
  }

  /** Redis expires sent and failed keys itself after `retentionMs`: nothing to delete. */
  async prune(_before: number): Promise<number> {
    return 0;
  }

  async markSent(key: string, messageId: string): Promise<void> {
    await this.#connected;
    await this.#client.set(this.#prefix + key, `sent|${this.#now()}|${messageId}`, {
      expiration: { type: 'PX', value: this.#retentionMs },
    });
  }

  async release(key: string): Promise<void> {
    await this.#connected;
    await this.#client.eval(RELEASE_SCRIPT, { keys: [this.#prefix + key], arguments: [] });
  }

  async fail(key: string, reason: string): Promise<void> {
    await this.#connected;
    await this.#client.set(this.#prefix + key, `failed|${this.#now()}|${reason}`, {
      expiration: { type: 'PX', value: this.#retentionMs },
    });
  }

  async get(key: string): Promise<LedgerEntry | undefined> {
    await this.#connected;
    const value = await this.#client.get(this.#prefix + key);
    return value === null ? undefined : this.#entry(key, value);
  }

  #entry(key: string, value: string): LedgerEntry {
    const [state, at, ...rest] = value.split('|');
    const detail = rest.join('|');
    const entry: LedgerEntry = { key, state: state as LedgerState, updatedAt: Number(at) };
    if (state === 'sent') entry.messageId = detail;
    if (state === 'failed') entry.reason = detail;
    return entry;
  }

  async findMessage(key: string): Promise<string | undefined> {
    const entry = await this.get(key);
    return entry?.state === 'sent' ? entry.messageId : undefined;
  }

  async close(): Promise<void> {
    if (this.#client.isReady) await this.#client.close();
    else if (this.#client.isOpen) this.#client.destroy();
  }
}
