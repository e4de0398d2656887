/**
 * The ledger on Redis, for several instances sharing one store: the claim is `SET key NX PX lease`,
 * atomic in Redis; the lease expiring is what frees the key of a process that died mid-send.
 * Values are `state|updatedAt|detail` strings; a claim's detail is `holder|session|until|attempts`
 * (its lease ends at `until`, checked by the claim script, so a claim taken over is known as such).
 * Sent and failed keys are kept for `retentionMs`, claims for a day (then Redis expires them).
 *
 * Redis restarted without persistence loses every key: a sent key would then be claimed and posted
 * again. With a `mirror` (a local SQLite ledger, `./data/ledger-mirror.sqlite` beside the settings
 * mirror), every sent and failed mark and every completed run is also written there, first; a claim
 * reads the mirror for its keys and never claims one the mirror knows as sent or failed (it is written
 * back into Redis instead), and reads (`getMany`, `lastRun`) fall back to it for keys Redis lacks.
 * The mirror is consulted on every claim, so no loss needs detecting: it holds whatever Redis forgot.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@redis/client';
import { reconnectDelay } from '../core/redis-reconnect.ts';
import {
  type Claim,
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
  /**
   * A durable local copy of the sent and failed keys and of the last run (a `SqliteLedger`), the
   * source of truth when Redis lost its data. Closed with this ledger.
   */
  mirror?: Ledger;
}

/** Where the ledger mirror lives (`SETTINGS_MIRROR=off` turns it off with the settings mirror). */
export const DEFAULT_LEDGER_MIRROR_PATH = './data/ledger-mirror.sqlite';

/** Claims are kept this long at most (a released "maybe posted" trace, a dead holder's claim). */
const CLAIM_KEEP_MS = 24 * 3600_000;

// Splits a claim value `claimed|at|holder|session|until|attempts` (Lua 5.1, no split function).
const PARSE = `local function parse(v)
  if v == false or string.sub(v, 1, 8) ~= 'claimed|' then return nil end
  local f = {}
  for part in string.gmatch(v .. '|', '([^|]*)|') do f[#f + 1] = part end
  return { holder = f[3], session = f[4], ['until'] = tonumber(f[5]) or 0, attempts = tonumber(f[6]) or 1 }
end`;

/**
 * The claim, atomic per key: take an absent key, a claim whose lease ran out, or one a dead
 * predecessor with this identity left. ARGV: now, lease, holder, session, keep. Returns, per key,
 * 0 (lost), 1 (won) or 2 (won, retaken).
 */
const CLAIM_SCRIPT = `${PARSE}
local now, lease, holder, session, keep = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  local c = parse(v)
  local attempts = 0
  if v == false then attempts = 1
  elseif c and (c['until'] <= now or (c.holder == holder and c.session ~= session)) then attempts = c.attempts + 1 end
  if attempts > 0 then
    redis.call('SET', key, 'claimed|' .. now .. '|' .. holder .. '|' .. session .. '|' .. (now + lease) .. '|' .. attempts, 'PX', keep)
    out[i] = attempts > 1 and 2 or 1
  else out[i] = 0 end
end
return out`;

/** Extends the caller's own claims. ARGV: now, lease, holder, session, keep. Returns 1 per key still held. */
const RENEW_SCRIPT = `${PARSE}
local now, lease, holder, session, keep = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local out = {}
for i, key in ipairs(KEYS) do
  local c = parse(redis.call('GET', key))
  if c and c.holder == holder and c.session == session then
    redis.call('SET', key, 'claimed|' .. now .. '|' .. holder .. '|' .. session .. '|' .. (now + lease) .. '|' .. c.attempts, 'PX', keep)
    out[i] = 1
  else out[i] = 0 end
end
return out`;

/**
 * Gives the caller's own claim back: deleted, or (ARGV[3] = 1, maybe posted) kept as an expired
 * claim of nobody, so the next claim is retaken. ARGV: holder, session, maybePosted, now, keep.
 */
const RELEASE_SCRIPT = `${PARSE}
local c = parse(redis.call('GET', KEYS[1]))
if not c or c.holder ~= ARGV[1] or c.session ~= ARGV[2] then return 0 end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], 'claimed|' .. ARGV[4] .. '|||0|' .. c.attempts, 'PX', tonumber(ARGV[5]))
  return 1
end
return redis.call('DEL', KEYS[1])`;

/** Keeps the later of the recorded last run and ARGV[1]; ARGV[2]: how long it is kept (ms). */
const RECORD_RUN_SCRIPT = `local at = tonumber(ARGV[1])
local was = tonumber(redis.call('GET', KEYS[1]) or '')
if was == nil or at > was then redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
else redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2])) end
return 1`;

type RedisConnection = ReturnType<typeof createClient>;

export class RedisLedger implements Ledger {
  readonly #client: RedisConnection;
  /** The first connection; later drops are reconnected by the client itself, forever. */
  readonly #firstConnect: Promise<unknown>;
  readonly #prefix: string;
  readonly leaseMs: number;
  readonly #retentionMs: number;
  readonly #now: () => number;
  readonly #holder: string;
  readonly #session = randomUUID();
  /** The last run's key: beside the entries, not among them (`matchday:ledger-last-run`). */
  readonly #runKey: string;
  readonly #mirror: Ledger | undefined;

  /** Connects to `url` (e.g. `redis://127.0.0.1:6390`). */
  constructor(url: string, options: RedisLedgerOptions = {}) {
    this.#prefix = options.prefix ?? 'matchday:ledger:';
    this.#runKey = `${this.#prefix.replace(/:$/, '')}-last-run`;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#holder = (options.holder ?? `anonymous-${randomUUID()}`).replaceAll('|', '/');
    this.#retentionMs = options.retentionMs ?? 30 * 24 * 3600_000;
    this.#now = options.now ?? Date.now;
    this.#mirror = options.mirror;
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

  /** Redis keeps no file to damage; an unreachable Redis fails each call on its own (retried later). */
  async verify(): Promise<void> {
    await this.#mirror?.verify();
    await this.#connected;
  }

  async claim(key: string): Promise<boolean> {
    return (await this.claimMany([key])).has(key);
  }

  async claimMany(keys: readonly string[]): Promise<Map<string, Claim>> {
    const won = new Map<string, Claim>();
    const unique = await this.#notInMirror([...new Set(keys)]);
    // One script per 500 keys: atomic as a whole in Redis, one round trip each.
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const replies = await this.#script(CLAIM_SCRIPT, chunk);
      chunk.forEach((key, j) => {
        if (replies[j] !== 0) won.set(key, { retaken: replies[j] === 2 });
      });
    }
    return won;
  }

  /**
   * The keys the mirror does not know as done; the done ones are written back into Redis (unless it
   * has them), so other instances see them too.
   */
  async #notInMirror(keys: string[]): Promise<string[]> {
    if (!this.#mirror || keys.length === 0) return keys;
    const done = await this.#mirror.getMany(keys);
    if (done.size === 0) return keys;
    await this.#restore([...done.values()]);
    return keys.filter((key) => !done.has(key));
  }

  /** Puts entries from the mirror back into Redis, never over a key Redis has. */
  async #restore(entries: LedgerEntry[]): Promise<void> {
    await this.#connected;
    const multi = this.#client.multi();
    for (const entry of entries) {
      const detail = entry.state === 'sent' ? entry.messageId : entry.reason;
      const keep = Math.max(1, entry.updatedAt + this.#retentionMs - this.#now());
      multi.set(this.#prefix + entry.key, `${entry.state}|${entry.updatedAt}|${detail ?? ''}`, {
        condition: 'NX',
        expiration: { type: 'PX', value: keep },
      });
    }
    await multi.exec();
  }

  async renewMany(keys: readonly string[]): Promise<Set<string>> {
    const held = new Set<string>();
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const replies = await this.#script(RENEW_SCRIPT, chunk);
      chunk.forEach((key, j) => {
        if (replies[j] === 1) held.add(key);
      });
    }
    return held;
  }

  async #script(script: string, keys: string[]): Promise<number[]> {
    await this.#connected;
    const reply = await this.#client.eval(script, {
      keys: keys.map((k) => this.#prefix + k),
      arguments: [
        String(this.#now()),
        String(this.leaseMs),
        this.#holder,
        this.#session,
        String(CLAIM_KEEP_MS),
      ],
    });
    return (reply as unknown[]).map(Number);
  }

  async markSentMany(sent: readonly (readonly [key: string, messageId: string])[]): Promise<void> {
    if (sent.length === 0) return;
    await this.#mirror?.markSentMany(sent);
    await this.#connected;
    // A pipeline ignores `disableOfflineQueue` (@redis/client 5 queues it until the next reconnect
    // attempt): it would hold the tick for a whole reconnect delay while Redis is away.
    if (!this.#client.isReady)
      throw new Error('The Redis ledger is reconnecting; the marks are kept and written later.');
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
    const absent = keys.filter((key) => !found.has(key));
    if (this.#mirror && absent.length > 0) {
      const kept = await this.#mirror.getMany(absent);
      for (const [key, entry] of kept) found.set(key, entry);
      if (kept.size > 0) await this.#restore([...kept.values()]);
    }
    return found;
  }

  /** Redis expires sent and failed keys itself after `retentionMs`; the mirror is pruned. */
  async prune(before: number): Promise<number> {
    return (await this.#mirror?.prune(before)) ?? 0;
  }

  async lastRun(): Promise<number | undefined> {
    await this.#connected;
    const value = await this.#client.get(this.#runKey);
    return value === null ? this.#mirror?.lastRun() : Number(value);
  }

  /** Kept as long as sent entries: a deployment silent for longer starts as a first start. */
  async recordRun(at: number): Promise<void> {
    await this.#mirror?.recordRun(at);
    await this.#connected;
    await this.#client.eval(RECORD_RUN_SCRIPT, {
      keys: [this.#runKey],
      arguments: [String(at), String(this.#retentionMs)],
    });
  }

  async markSent(key: string, messageId: string): Promise<void> {
    await this.#mirror?.markSent(key, messageId);
    await this.#connected;
    await this.#client.set(this.#prefix + key, `sent|${this.#now()}|${messageId}`, {
      expiration: { type: 'PX', value: this.#retentionMs },
    });
  }

  async release(key: string, options: { maybePosted?: boolean } = {}): Promise<void> {
    await this.#connected;
    await this.#client.eval(RELEASE_SCRIPT, {
      keys: [this.#prefix + key],
      arguments: [
        this.#holder,
        this.#session,
        options.maybePosted ? '1' : '0',
        String(this.#now()),
        String(CLAIM_KEEP_MS),
      ],
    });
  }

  async fail(key: string, reason: string): Promise<void> {
    await this.#mirror?.fail(key, reason);
    await this.#connected;
    await this.#client.set(this.#prefix + key, `failed|${this.#now()}|${reason}`, {
      expiration: { type: 'PX', value: this.#retentionMs },
    });
  }

  async get(key: string): Promise<LedgerEntry | undefined> {
    return (await this.getMany([key])).get(key);
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
    await this.#mirror?.close();
    if (this.#client.isReady) await this.#client.close();
    else if (this.#client.isOpen) this.#client.destroy();
  }
}
