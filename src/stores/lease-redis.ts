/**
 * The lease (src/stores/lease.ts) on Redis: key `<name>` holds `<owner>|<token>` with the lease's
 * expiry (PX), key `<name>:fence` the fencing counter (INCR, never expires, so a token only grows
 * while Redis keeps its data). Each operation is one Lua script, atomic in Redis.
 */
import { createClient } from '@redis/client';
import { reconnectDelay } from '../core/redis-reconnect.ts';
import type { Lease, LeaseHolder } from './lease.ts';

/**
 * KEYS[1] the lease, KEYS[2] the fencing counter; ARGV: owner, ttl ms.
 * Takes a free lease (a new fencing token) or renews our own; returns the token, or 0 when another
 * owner holds it.
 */
const ACQUIRE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held then
  local owner, token = string.match(held, '^(.*)|(%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(token)
  end
  return 0
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return token
`;

/** Deletes the lease only if `ARGV[1]` holds it. */
const RELEASE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held and string.match(held, '^(.*)|%d+$') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** The lease's value and its remaining time, read together. */
const HOLDER_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if not held then return false end
return { held, redis.call('PTTL', KEYS[1]) }
`;

type RedisClient = ReturnType<typeof createClient>;

export class RedisLease implements Lease {
  readonly #client: RedisClient;
  /** Whether this lease made its client (and so connects and closes it), or shares its store's. */
  readonly #own: boolean;
  #connecting: Promise<void> | undefined;
  readonly #reconnected = new Set<() => void>();
  /** Set after the first connection: a later `ready` is a reconnection. */
  #connectedOnce = false;

  /**
   * `url`: a connection of its own (connected by `open`, closed by `close`); or the `client` of a store
   * that already has one (connected and closed by that store; `connected` resolves once it is).
   */
  constructor(source: string | { client: RedisClient; connected: Promise<unknown> }) {
    if (typeof source === 'string') {
      this.#own = true;
      this.#client = createClient({
        url: source,
        disableOfflineQueue: true,
        socket: { connectTimeout: 5000, reconnectStrategy: reconnectDelay },
      });
      // Without a listener an unreachable server would crash the process; the failing call reports it.
      this.#client.on('error', () => undefined);
    } else {
      this.#own = false;
      this.#client = source.client;
      this.#connecting = source.connected.then(() => undefined);
      this.#connectedOnce = source.client.isReady;
    }
    this.#client.on('ready', () => {
      if (!this.#connectedOnce) {
        this.#connectedOnce = true;
        return;
      }
      for (const listener of this.#reconnected) listener();
    });
  }

  open(): Promise<void> {
    this.#connecting ??= this.#client.connect().then(
      () => undefined,
      (error: unknown) => {
        this.#connecting = undefined;
        throw error;
      },
    );
    return this.#connecting;
  }

  onReconnect(listener: () => void): void {
    this.#reconnected.add(listener);
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<number> {
    await this.open();
    return Number(
      await this.#client.eval(ACQUIRE_SCRIPT, {
        keys: [name, `${name}:fence`],
        arguments: [owner, String(Math.max(1, Math.round(ttlMs)))],
      }),
    );
  }

  async release(name: string, owner: string): Promise<boolean> {
    await this.open();
    return Number(await this.#client.eval(RELEASE_SCRIPT, { keys: [name], arguments: [owner] })) === 1;
  }

  async holder(name: string): Promise<LeaseHolder | undefined> {
    await this.open();
    const answer = (await this.#client.eval(HOLDER_SCRIPT, { keys: [name], arguments: [] })) as
      | [string, number]
      | null;
    if (!answer) return undefined;
    const [held, pttl] = answer;
    const match = /^(.*)\|(\d+)$/s.exec(held);
    if (!match) return undefined;
    return {
      owner: match[1]!,
      token: Number(match[2]),
      expiresAt: Date.now() + (Number(pttl) > 0 ? Number(pttl) : 0),
    };
  }

  async close(): Promise<void> {
    this.#reconnected.clear();
    if (!this.#own) return;
    await this.#connecting?.catch(() => undefined);
    if (this.#client.isReady) await this.#client.quit().catch(() => undefined);
    else if (this.#client.isOpen) this.#client.destroy();
  }
}
