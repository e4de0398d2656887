/**
 * A `SharedBudget` in Redis: one token bucket per secret, refilled and spent by a Lua script, so
 * taking a token is one atomic round trip whatever the number of processes. The script reads Redis'
 * own clock (`TIME`), so processes on machines whose clocks differ still share one timeline.
 * Background calls leave the last token to interactive ones: a user's command in any process is not
 * starved by another process' polling.
 */
import { createClient } from '@redis/client';
import { reconnectDelay } from '../core/redis-reconnect.ts';
import { WouldMissDeadlineError } from './rate-limiter.ts';
import type { SharedBudget, SharedBudgetPlan } from './shared-budget.ts';
import type { Priority } from './types.ts';

/**
 * KEYS[1] the bucket; ARGV: tokens per ms, capacity, tokens that must remain after this take
 * (0 interactive, 1 background), pause ms (0 = take a token; > 0 = block the bucket that long).
 * Returns 0 when a token was taken, else the ms until one can be.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local keep = tonumber(ARGV[3])
local pause = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'blocked')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
local blocked = tonumber(state[3]) or 0
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate)
local wait = 0
if pause > 0 then
  blocked = math.max(blocked, now + pause)
  tokens = math.min(tokens, 0)
elseif now < blocked then
  wait = blocked - now
elseif tokens >= 1 + keep then
  tokens = tokens - 1
else
  wait = math.ceil((1 + keep - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now, 'blocked', blocked)
redis.call('PEXPIRE', KEYS[1], 60000)
return wait
`;

interface RedisBudgetOptions {
  /** Prefix of the bucket's key. Default `matchday:budget:`. */
  prefix?: string;
  /** Longest wait for Redis before a take counts as "unavailable" (then local pacing only). Default 1,000 ms. */
  timeoutMs?: number;
  logger?: { warn(object: object, message: string): void };
}

export class RedisBudget implements SharedBudget {
  readonly #client: ReturnType<typeof createClient>;
  readonly #connected: Promise<unknown>;
  readonly #key: string;
  readonly #rate: number;
  readonly #capacity: number;
  readonly #timeoutMs: number;
  readonly #logger: RedisBudgetOptions['logger'];
  #warnedAt = Number.NEGATIVE_INFINITY;
  /** Tokens taken from Redis (bench, tests). */
  taken = 0;
  /** Takes that went ahead without Redis. */
  unavailable = 0;

  constructor(url: string, plan: SharedBudgetPlan, options: RedisBudgetOptions = {}) {
    this.#key = `${options.prefix ?? 'matchday:budget:'}${plan.key}`;
    this.#rate = plan.perSecond / 1000;
    this.#capacity = Math.max(1, plan.capacity);
    this.#timeoutMs = options.timeoutMs ?? 1000;
    this.#logger = options.logger;
    this.#client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 5000,
        reconnectStrategy: reconnectDelay,
      },
    });
    this.#client.on('error', () => undefined);
    this.#connected = this.#client.connect().catch(() => undefined);
  }

  async acquire(priority: Priority, signal: AbortSignal | undefined, deadlineAt: number): Promise<void> {
    const keep = priority === 'interactive' || this.#capacity < 2 ? 0 : 1;
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const wait = await this.#take(keep, 0);
      if (wait === undefined) return; // Redis is unavailable: the local bucket alone paces.
      if (wait <= 0) {
        this.taken++;
        return;
      }
      if (performance.now() + wait > deadlineAt) {
        throw new WouldMissDeadlineError(`a shared request slot is about ${Math.ceil(wait)} ms away`);
      }
      await sleep(wait, signal);
    }
  }

  pause(ms: number): void {
    if (ms > 0) void this.#take(0, Math.ceil(ms));
  }

  async #take(keep: number, pause: number): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = await Promise.race([
        this.#connected.then(() =>
          this.#client.eval(TAKE_SCRIPT, {
            keys: [this.#key],
            arguments: [String(this.#rate), String(this.#capacity), String(keep), String(pause)],
          }),
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${this.#timeoutMs} ms`)),
            this.#timeoutMs,
          );
        }),
      ]);
      return Number(reply);
    } catch (error) {
      this.unavailable++;
      if (performance.now() - this.#warnedAt > 60_000) {
        this.#warnedAt = performance.now();
        this.#logger?.warn(
          { err: error },
          'the shared request budget in Redis is unavailable; pacing this process alone',
        );
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    // A connection still retrying is dropped, not waited for.
    if (this.#client.isReady) await this.#client.quit().catch(() => undefined);
    else if (this.#client.isOpen) this.#client.destroy();
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
